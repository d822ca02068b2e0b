import type { DiceStream } from '../dice.js';
import type { NationId } from '../ids.js';
import type { RandomiserKind } from '../settings.js';
import { zoneMap } from './battlefield.js';
import { act, DEFAULT_PLANS, heroic, type BattlePlan } from './commander.js';
import { streamDraws } from './draws.js';
import { cmdSkill, makeCommander, newWarState, onField, unitsOf, zoneOf, type CommanderInput, type WarEvent, type WarState } from './state.js';
import type { Battlefield, BattleAspect, Catalogue, Side, WarDraw, WarHelp, WarInvoke } from './types.js';

/**
 * A whole Warfare battle (docs/rules.md W1–W14), from setup to resolution,
 * fought by the automated commanders. Pure: the same battle and stream give
 * the same account.
 */
export interface WarfareBattle {
  id: string;
  nations: Record<Side, NationId>;
  field: Battlefield;
  commanders: CommanderInput[];
  units: { id: string; type: string; commander: string; name?: string; bloodied?: boolean }[];
  /** How much lower a bloodied unit's skills are, Movement aside (W17; 0 or absent: no penalty). */
  bloodiedPenalty?: number;
  ramparts?: { type: string; zone: string }[];
  plans?: Partial<Record<Side, BattlePlan>>;
  /** The defender fights for its capital: each of its commanders may lead one more unit (line 139). */
  capital?: boolean;
  /** The battle ends with the defender holding after this many exchanges (our reading; default 12). */
  maxExchanges?: number;
  /** Each side's fate points (invokes its commanders may pay for from the nation's pledge, W20). */
  fate?: Partial<Record<Side, number>>;
  /** Each side's nation's aspects in play, with the invokes its player ordered (W20). */
  aspects?: Partial<Record<Side, BattleAspect[]>>;
  /** Minor advantages each side starts with (its nation's boosts, ordered for the battle), given to its first commander. */
  boosts?: Partial<Record<Side, number>>;
  /** Other nations' teamwork and obstacle invokes for or against each side (A10). */
  help?: Partial<Record<Side, WarHelp[]>>;
}

export interface WarResult {
  winner: Side;
  reason: string;
  /** The attackers won by holding the strategic zone (line 193). */
  held: boolean;
  /** Exchanges fought. */
  exchanges: number;
  /** Units taken out, per side, in id order. */
  takenOut: Record<Side, string[]>;
  /** Units that left the field with a withdrawing side. */
  withdrawn: Record<Side, string[]>;
  log: WarEvent[];
  /** The zone map at the start of each exchange, who stands where in words, and the units each side has on the field. */
  maps: { exchange: number; lines: string[]; lead: string; standing: Record<Side, number> }[];
  draws: WarDraw[];
  /** Every invoke the commanders made, and each side's fate points spent (W20). */
  invoked: WarInvoke[];
  fate: Record<Side, { pool: number; spent: number }>;
  /** Teamwork and obstacle invokes taken, with the value each added (A10). */
  helped: { id: number; value: number }[];
  /** Consequences each side's commanders took (a concession earns a fate point each, W21). */
  consequences: Record<Side, number>;
  /** The side that left the field by its plan (a concession, W21). */
  conceded?: Side;
}

export const DEFAULT_MAX_EXCHANGES = 12;

/** The setup's problems (lines 137–148), each a sentence; none when it may be fought. */
export function setupProblems(b: WarfareBattle, cat: Catalogue): string[] {
  const out: string[] = [];
  const zones = new Set(b.field.zones.map((z) => z.id));
  const cmd = new Map(b.commanders.map((c) => [c.id, c]));
  for (const c of b.commanders) if (!zones.has(c.zone)) out.push(`${c.name} stands in ${c.zone}, which is not a zone of the battlefield`);
  const led = new Map<string, number>();
  for (const u of b.units) {
    if (!cat.units[u.type]) out.push(`unit ${u.id}: no unit type "${u.type}" in the catalogue`);
    if (!cmd.has(u.commander)) out.push(`unit ${u.id}: no commander "${u.commander}"`);
    led.set(u.commander, (led.get(u.commander) ?? 0) + 1);
  }
  for (const c of b.commanders) {
    if (c.champion === undefined) continue;
    const lead = cmd.get(c.champion);
    if (!lead || lead.side !== c.side || lead.champion !== undefined) out.push(`${c.name} rides with "${c.champion}", not a commander of its side`);
    if (led.has(c.id)) out.push(`${c.name} is a champion and leads no units (line 141)`);
  }
  for (const c of b.commanders) {
    // A commander leads Command units, at least three; one more defending the capital (line 139).
    const cap = Math.max(c.novice ? 0 : (c.skills?.command ?? 0), 3) + (b.capital && c.side === 'defender' ? 1 : 0);
    if ((led.get(c.id) ?? 0) > cap) out.push(`${c.name} leads ${led.get(c.id)} units; at most ${cap}`);
  }
  for (const r of b.ramparts ?? []) {
    if (!cat.ramparts[r.type]) out.push(`no rampart type "${r.type}" in the catalogue`);
    if (r.zone !== b.field.strategic) out.push(`ramparts stand on the strategic zone, not ${r.zone} (line 89)`);
  }
  return out;
}

/** Command order (line 152): highest Command first; ties the defender first (our reading of "Stronghold players"), then by id. */
function commandOrder(st: WarState) {
  return st.commanders
    .filter((c) => !c.gone && unitsOf(st, c).length > 0)
    .sort((a, b) => cmdSkill(b, 'command') - cmdSkill(a, 'command') || (a.side === b.side ? 0 : a.side === 'defender' ? -1 : 1) || (a.id < b.id ? -1 : 1));
}

/** The resolution (line 193), checked at the start of each exchange. */
function decided(st: WarState): { winner: Side; reason: string; held?: true } | undefined {
  const att = onField(st, 'attacker');
  const def = onField(st, 'defender');
  if (att.some((u) => zoneOf(st, u) === st.field.strategic) && !def.some((u) => zoneOf(st, u) === st.field.strategic)) {
    return { winner: 'attacker', reason: 'the attackers hold the strategic zone', held: true };
  }
  if (!att.length) return { winner: 'defender', reason: 'no attacking unit is left on the field' };
  if (!def.length) return { winner: 'attacker', reason: 'no defending unit is left on the field' };
  return undefined;
}

function marks(st: WarState) {
  // Units on the field by zone and side, counted once for the whole map: a unit stands where its commander is,
  // the first commander of its id that is still on the field.
  const counts = new Map<string, Record<Side, number>>();
  for (const u of st.units) {
    if (u.out) continue;
    const zone = st.commanders.find((c) => c.id === u.commander && !c.gone)?.zone;
    if (zone === undefined) continue;
    const here = counts.get(zone) ?? { attacker: 0, defender: 0 };
    here[u.side]++;
    counts.set(zone, here);
  }
  return (zone: string) => {
    const a = counts.get(zone)?.attacker ?? 0;
    const d = counts.get(zone)?.defender ?? 0;
    const wall = st.ramparts.some((r) => r.zone === zone && !r.fallen) ? '#' : '';
    return [a ? `A${a}` : '', d ? `D${d}` : '', wall].filter(Boolean).join(' ');
  };
}

export function runBattle(b: WarfareBattle, cat: Catalogue, stream: DiceStream, randomiser: RandomiserKind): WarResult {
  const plans: Record<Side, BattlePlan> = { attacker: b.plans?.attacker ?? DEFAULT_PLANS.attacker, defender: b.plans?.defender ?? DEFAULT_PLANS.defender };
  const commanders = b.commanders.map(makeCommander);
  const sideOf = new Map(commanders.map((c) => [c.id, c.side]));
  const st = newWarState({
    catalogue: cat,
    field: structuredClone(b.field),
    nations: b.nations,
    commanders,
    units: [...b.units].sort((x, y) => (x.id < y.id ? -1 : 1)).map((u) => ({ ...u, side: sideOf.get(u.commander)!, out: false })),
    ramparts: (b.ramparts ?? []).map((r) => ({ ...r, boxes: Array(cat.ramparts[r.type]!.wallStrength).fill(false), taken: [], fallen: false })),
    draws: streamDraws(stream, randomiser, b.nations),
    ...(b.bloodiedPenalty ? { bloodiedPenalty: b.bloodiedPenalty } : {}),
    fate: { attacker: { pool: b.fate?.attacker ?? 0, spent: 0 }, defender: { pool: b.fate?.defender ?? 0, spent: 0 } },
    nationAspects: { attacker: structuredClone(b.aspects?.attacker ?? []), defender: structuredClone(b.aspects?.defender ?? []) },
    help: { attacker: [...(b.help?.attacker ?? [])], defender: [...(b.help?.defender ?? [])] },
  });
  if (plans.attacker.naive || plans.defender.naive) st.naive = { attacker: plans.attacker.naive === true, defender: plans.defender.naive === true };
  for (const side of ['attacker', 'defender'] as const) {
    const first = commanders.find((c) => c.side === side && !c.champion);
    if (first && b.boosts?.[side]) first.boosts += b.boosts[side];
  }
  const max = b.maxExchanges ?? DEFAULT_MAX_EXCHANGES;
  const maps: WarResult['maps'] = [];
  let end: { winner: Side; reason: string; held?: true } | undefined;
  let conceded: Side | undefined;
  while (!end) {
    st.exchange++;
    end = decided(st);
    if (end) break;
    if (st.exchange > max) {
      end = { winner: 'defender', reason: `the defenders still hold after ${max} exchange${max === 1 ? '' : 's'}` };
      break;
    }
    maps.push({ exchange: st.exchange, lines: zoneMap(st.field, marks(st)), lead: lead(st), standing: { attacker: onField(st, 'attacker').length, defender: onField(st, 'defender').length } });
    for (const c of st.commanders) c.moved = false;
    for (const side of ['attacker', 'defender'] as const) {
      const left = onField(st, side).length;
      const at = plans[side].withdrawAt ?? 0;
      if (left > 0 && left <= at) {
        conceded ??= side;
        for (const c of st.commanders) if (c.side === side) c.gone = true;
        st.log.push({ exchange: st.exchange, kind: 'withdraw', side, commander: '', text: `the ${side}s withdraw with ${left} unit(s) left, as their plan says`, story: `With ${left} unit${left === 1 ? '' : 's'} left, the ${side}s leave the field, as their plan says.` });
      }
    }
    for (const c of commandOrder(st)) {
      if (c.gone || !unitsOf(st, c).length) continue;
      act(st, c, plans[c.side]);
      // Its champions move with it and then take their heroic action (lines 140–141, 181–182).
      for (const ch of st.commanders) {
        if (ch.champion !== c.id || ch.out || ch.gone || c.gone) continue;
        ch.zone = c.zone;
        ch.moved = c.moved;
        heroic(st, ch, plans[c.side]);
      }
    }
  }
  st.log.push({ exchange: st.exchange, kind: 'end', side: end.winner, commander: '', text: `the ${end.winner}s win: ${end.reason}`, story: `The ${end.winner}s win: ${end.reason}.` });
  const list = (side: Side, pick: (u: WarState['units'][number]) => boolean) => st.units.filter((u) => u.side === side && pick(u)).map((u) => u.id);
  const gone = (u: WarState['units'][number]) => !u.out && st.commanders.find((c) => c.id === u.commander)!.gone;
  return {
    winner: end.winner,
    reason: end.reason,
    held: end.held === true,
    exchanges: st.exchange - 1,
    takenOut: { attacker: list('attacker', (u) => u.out), defender: list('defender', (u) => u.out) },
    withdrawn: { attacker: list('attacker', gone), defender: list('defender', gone) },
    log: st.log,
    maps,
    draws: st.draws.record,
    invoked: st.invoked,
    fate: st.fate,
    helped: st.helped,
    consequences: { attacker: consequencesTaken(st, 'attacker'), defender: consequencesTaken(st, 'defender') },
    ...(conceded ? { conceded } : {}),
  };
}

const consequencesTaken = (st: WarState, side: Side): number => st.consequencesTaken[side];

/** Who stands where at the start of an exchange, in words: the strategic zone's holder, and how far off the other side is. */
function lead(st: WarState): string {
  const zoneOfUnit = (u: WarState['units'][number]) => st.commanders.find((c) => c.id === u.commander)!.zone;
  const on = (side: Side) => onField(st, side);
  const there = (side: Side) => on(side).filter((u) => zoneOfUnit(u) === st.field.strategic).length;
  const units = (n: number) => `${n} unit${n === 1 ? '' : 's'}`;
  const [a, d] = [there('attacker'), there('defender')];
  const holder = a && d ? `both sides fight on the strategic zone (${units(a)} against ${units(d)})` : d ? `the defenders hold the strategic zone with ${units(d)}` : a ? `the attackers stand on the strategic zone with ${units(a)}` : 'no one holds the strategic zone';
  const rest = (['attacker', 'defender'] as const).flatMap((side) => {
    const away = on(side).filter((u) => zoneOfUnit(u) !== st.field.strategic);
    if (!away.length) return [];
    const near = Math.min(...away.map((u) => st.distance(zoneOfUnit(u), st.field.strategic)));
    return [`${units(away.length)} of the ${side}s ${near === 1 ? 'one zone' : `${near} zones`} off${there(side) ? '' : ' it'}`];
  });
  return `${holder}${rest.length ? `; ${rest.join(', ')}` : ''}.`;
}

/**
 * What turned the battle, for the story's last line: the exchange after
 * which the loser never again had as many units on the field as the winner
 * (or the winner's hold on the strategic zone).
 */
export function turningPoint(result: Pick<WarResult, 'winner' | 'maps' | 'held' | 'conceded'>): string {
  const w = result.winner;
  const l = w === 'attacker' ? 'defender' : 'attacker';
  if (result.conceded === l) return `the ${l}s conceded the field.`;
  let last = -1;
  result.maps.forEach((m, i) => {
    if (m.standing[l] >= m.standing[w]) last = i;
  });
  if (last < 0) return `the ${w}s had the upper hand from the start${result.held ? ', and took the strategic zone' : ''}.`;
  const after = result.maps[last + 1];
  if (!after) return result.held ? 'the attackers reached the strategic zone and cleared it.' : `the ${w}s outlasted them.`;
  return `in exchange ${result.maps[last]!.exchange} the ${w}s went ahead, ${after.standing[w]} units to ${after.standing[l]}, and kept the lead${result.held ? '; then they took the strategic zone' : ''}.`;
}
