import { CONSEQUENCE_SOAKS, soakStress, type ConsequenceLevel } from '../fate/stress.js';
import { capital, cmdSkill, logWar as log, noviceStepsUp, sgn, standingRampart, takeConsequence, unitName, unitsNamed, unitsOf, unitSkill, type WarState } from './state.js';
import { other, type Commander, type Unit, type UnitSkill } from './types.js';
import { improve, luckOf, type CheckSide } from './invokes.js';


/**
 * The Warfare actions (seed 001 lines 158–191; docs/rules.md W5–W11). Each is
 * one overcome roll per group of units: a card for each side, added to the
 * group's summed skill and to the defending unit's Armor.
 */

/** What the attacker does on a tie (line 161): give the other side a minor advantage, take a stress card, or let it fail. */
export type OnTie = 'boost' | 'stress' | 'fail';

export interface Group {
  target: string;
  attackers: string[];
}

const unit = (st: WarState, id: string): Unit => st.units.find((u) => u.id === id)!;

/** Who is on each side of a check, and the skills it is made with (their aspects, weaknesses and luck count, W20). */
export interface Parties {
  att: Unit[];
  def: Unit[];
  attSkill?: string;
  defSkill?: string;
  /** A tie is a success for the attacker (bought at a cost, lines 161, 169): it spends to reach a tie. */
  tieWins?: boolean;
}

const NO_PARTIES: Parties = { att: [], def: [] };

/** An opposed roll's outcome: the shifts, the account's words, and its parts (the first cards, what was spent, the totals). */
export interface Opposed {
  shifts: number;
  words: string;
  first: { attack: number; defence: number };
  extra: string[];
  attack: number;
  defence: number;
}

/**
 * One opposed roll: attack = skill + card, defence = skill + card, then
 * each side's fortune or misfortune from helpful and hindering aspects
 * (seed 000 lines 81–83). Then the attacker spends what turns the check its
 * way — free invokes, fate points, another card — and the defence answers
 * (seed 001 line 173; seed 000 lines 50–62), by the rule in invokes.ts
 * (docs/rules.md W11, W20). Returns the shifts.
 */
export function opposed(st: WarState, att: Commander, def: Commander, attSkill: number, defSkill: number, zone: string, parties: Parties = NO_PARTIES): Opposed {
  const A: CheckSide = { side: att.side, commander: att, skill: attSkill, card: st.draws.draw(att.side), plus: 0, units: parties.att };
  const D: CheckSide = { side: def.side, commander: def, skill: defSkill, card: st.draws.draw(def.side), plus: 0, units: parties.def };
  const first = { attack: A.card, defence: D.card };
  const words: string[] = [`drew ${sgn(A.card)} against ${sgn(D.card)}`];
  for (const [S, skill] of [
    [A, parties.attSkill],
    [D, parties.defSkill],
  ] as const) {
    if (!skill) continue;
    const luck = luckOf(st, S.side, skill);
    if (!luck.fortune && !luck.misfortune) continue;
    const v = st.draws.luck(S.side, luck);
    S.plus += v;
    words.push(`${S === D ? 'the defence: ' : ''}${luck.misfortune ? 'misfortune' : 'fortune'} from ${luck.names.join(', ')}: ${sgn(v)}`);
  }
  const total = (s: CheckSide) => s.skill + s.card + s.plus;
  const margin = () => total(A) - total(D);
  const check = { zone, defending: def.side };
  words.push(...improve(st, A, D, check, () => 1 - margin(), () => st.draws.draw(att.side), parties.tieWins ? () => -margin() : undefined));
  words.push(...improve(st, D, A, check, () => margin() + 1, () => st.draws.draw(def.side)));
  const extra = words.slice(1);
  words.push(`${sgn(total(A))} vs ${sgn(total(D))}`);
  return { shifts: margin(), words: words.join('; '), first, extra, attack: total(A), defence: total(D) };
}

/**
 * The overcome outcome (lines 161, 169): success takes the unit out; a tie
 * succeeds at a cost the attacker chooses; three shifts or more either way
 * is success with style and a minor advantage for that side.
 */
function settle(st: WarState, att: Commander, def: Commander, shifts: number, onTie: OnTie): { success: boolean; words: string; fall?: string } {
  if (shifts >= 3) {
    att.boosts++;
    return { success: true, words: 'success with style, a minor advantage' };
  }
  if (shifts > 0) return { success: true, words: 'success' };
  if (shifts <= -3) {
    def.boosts++;
    return { success: false, words: 'failure; the defence succeeds with style, a minor advantage to it' };
  }
  if (shifts < 0) return { success: false, words: 'failure' };
  if (onTie === 'boost') {
    def.boosts++;
    return { success: true, words: 'a tie, bought with a minor advantage to the other side' };
  }
  if (onTie === 'stress') {
    const card = applyStressCard(st, att);
    return { success: true, words: `a tie, bought with a stress card (${card.words})`, ...(card.fall ? { fall: card.fall } : {}) };
  }
  return { success: false, words: 'a tie, left as a failure' };
}

/**
 * Applies one stress card to a commander (seed 000 lines 136–144); taken out,
 * a novice steps up (seed 001 line 12). The fall is handed back, not logged:
 * the caller tells what caused it first (`tellFall`).
 */
export function applyStressCard(st: WarState, c: Commander): { words: string; fall?: string } {
  const card = st.draws.stressCard(c.side);
  let out = false;
  const named: string[] = [];
  for (const track of ['physical', 'mental'] as const) {
    const stress = card[track];
    if (stress <= 0) continue;
    const soaked = soakStress({ boxes: c.filled[track], taken: c.taken }, stress);
    if (soaked.takenOut) out = true;
    else {
      c.filled[track] = soaked.track.boxes;
      c.taken = soaked.track.taken;
      named.push(...soaked.consequences.map((l) => takeConsequence(st, c, track, l)));
    }
  }
  const words = `${card.physical} physical, ${card.mental} mental${named.length && !out ? `; the consequence ${named.join(' and ')}` : ''}`;
  if (!out) return { words };
  return { words: `${words}; taken out`, fall: noviceStepsUp(c) };
}

/** Tells a commander's fall, after the line that told what caused it. */
export function tellFall(st: WarState, c: Commander, fall: string | undefined): void {
  if (fall) log(st, { kind: 'novice', side: c.side, commander: c.id, text: fall, story: `${capital(fall)}.` });
}

/** Groups as the attacker allocated them, each checked against the rules before any card is drawn (line 167). */
function checkGroups(st: WarState, att: Commander, def: Commander, groups: Group[]): string | undefined {
  const mine = new Set(unitsOf(st, att).map((u) => u.id));
  const theirs = new Set(unitsOf(st, def).map((u) => u.id));
  const used = new Set<string>();
  for (const g of groups) {
    if (!theirs.has(g.target)) return `${g.target} is not a unit of ${def.name} in the battle`;
    for (const a of g.attackers) {
      if (!mine.has(a)) return `${a} is not a unit of ${att.name} in the battle`;
      if (used.has(a)) return `${a} is allocated twice`;
      used.add(a);
    }
  }
  return undefined;
}

function resolveGroups(st: WarState, kind: 'ranged' | 'clash' | 'outflank', att: Commander, def: Commander, groups: Group[], skillOf: (u: Unit) => UnitSkill, distance: number, onTie: OnTie): void {
  for (const g of groups) {
    const target = unit(st, g.target);
    if (target.out) continue;
    const attackers = g.attackers.map((id) => unit(st, id)).filter((u) => !u.out);
    if (!attackers.length) continue;
    const sum = attackers.reduce((s, u) => s + unitSkill(st, u, skillOf(u)), 0);
    const skillName = skillOf(attackers[0]!);
    const armor = unitSkill(st, target, 'armor');
    const { shifts, words } = opposed(st, att, def, sum - distance, armor, def.zone, { att: attackers, def: [target], attSkill: skillName, defSkill: 'armor', tieWins: onTie !== 'fail' });
    const result = settle(st, att, def, shifts, onTie);
    if (result.success) target.out = true;
    const range = distance ? ` − ${distance} for range` : '';
    const them = unitName(st, target);
    const verb = kind === 'ranged' ? `shoot at ${them}${distance ? ` ${distance === 1 ? 'one zone' : `${distance} zones`} off` : ''}` : kind === 'outflank' ? `strike back at ${them}` : `fall on ${them}`;
    const end = result.success ? (shifts === 0 ? ` and take it out, at a price` : ` and take it out${shifts >= 3 ? ' with style' : ''}`) : shifts <= -3 ? ', and are thrown back' : ', but it holds';
    log(st, {
      kind,
      side: att.side,
      commander: att.id,
      story: `${capital(unitsNamed(st, attackers))} ${verb}${end}.`,
      text: `${attackers.map((u) => unitName(st, u)).join(', ')} (${sgn(sum)}${range}) against ${unitName(st, target)} (Armor ${sgn(armor)}): ${words}; ${result.words}${result.success ? `; ${unitName(st, target)} is taken out` : ''}`,
    });
    tellFall(st, att, result.fall);
  }
}

/** The units of a commander that can fire now, and the skill each fires with (lines 23–25, 36–37, 46). */
export function shooters(st: WarState, c: Commander): { unit: Unit; skill: UnitSkill; range: number }[] {
  const enemyHere = st.commanders.some((e) => e.side !== c.side && !e.gone && e.zone === c.zone && unitsOf(st, e).length > 0);
  return unitsOf(st, c).flatMap((u) => {
    const r = st.catalogue.units[u.type]!.stunts.ranged;
    if (!r) return [];
    if (enemyHere && st.catalogue.units[u.type]!.stunts.pinned) return [];
    return [{ unit: u, skill: r.skill, range: r.maxRange }];
  });
}

/**
 * Ranged attack (lines 158–162): a defending commander within range; each
 * group's summed ranged skill, less the distance, against the target's
 * Armor. Not into a zone whose ramparts stand (line 89). Afterwards, if the
 * attacker has units in the defending commander's zone, that commander gains
 * a minor advantage (line 162). Returns a refusal, or undefined when done.
 */
export function rangedAttack(st: WarState, att: Commander, def: Commander, groups: Group[], onTie: OnTie = 'boost'): string | undefined {
  const bad = checkGroups(st, att, def, groups);
  if (bad) return bad;
  if (standingRampart(st, def.zone)) return `${def.name} is behind ramparts that still stand`;
  const distance = st.distance(att.zone, def.zone);
  const can = new Map(shooters(st, att).map((s) => [s.unit.id, s]));
  for (const g of groups) {
    for (const a of g.attackers) {
      const s = can.get(a);
      if (!s) return `${a} cannot make a ranged attack now`;
      if (distance > s.range) return `${a} reaches ${s.range} zones; ${def.name} is ${distance} away`;
    }
  }
  resolveGroups(st, 'ranged', att, def, groups, (u) => can.get(u.id)!.skill, distance, onTie);
  const engaged = st.commanders.some((c) => c.side === att.side && !c.gone && c.zone === def.zone && unitsOf(st, c).length > 0);
  if (engaged) {
    def.boosts++;
    log(st, { kind: 'ranged', side: def.side, commander: def.id, text: `fire into a zone where ${att.side === 'attacker' ? 'the attackers' : 'the defenders'} are engaged: ${def.name} gains a minor advantage`, story: `Shooting where their own side is engaged hands ${def.name} a minor advantage.` });
  }
  return undefined;
}

/**
 * Clash of arms (lines 166–169): a defending commander in the same zone; each
 * group's summed Fighting against the target's Armor. Then the defender may
 * outflank (lines 174–175).
 */
export function clashOfArms(st: WarState, att: Commander, def: Commander, groups: Group[], counter: (def: Commander, att: Commander) => Group[], onTie: OnTie = 'boost'): string | undefined {
  const bad = checkGroups(st, att, def, groups);
  if (bad) return bad;
  if (att.zone !== def.zone) return `${def.name} is not in the same zone`;
  resolveGroups(st, 'clash', att, def, groups, () => 'fighting', 0, onTie);
  outflank(st, att, def, counter);
  return undefined;
}

/**
 * Outflank (lines 174–175): opposed Tactics, an overcome by the defender;
 * on success its surviving units attack at once (not its action). The
 * counter-attack is a clash of arms without a further outflank.
 */
export function outflank(st: WarState, att: Commander, def: Commander, counter: (def: Commander, att: Commander) => Group[]): void {
  if (!unitsOf(st, def).length || !unitsOf(st, att).length) return;
  const d = st.draws.draw(def.side);
  const a = st.draws.draw(att.side);
  const dt = cmdSkill(def, 'tactics') + d;
  const at = cmdSkill(att, 'tactics') + a;
  const won = dt > at;
  log(st, { kind: 'outflank', side: def.side, commander: def.id, story: won ? `${capital(def.name)} outflanks them, and the survivors strike back at once.` : `${capital(def.name)} tries to outflank them, and cannot.`, text: `${def.name} tries to outflank: Tactics ${sgn(cmdSkill(def, 'tactics'))} drew ${sgn(d)} = ${sgn(dt)} against ${sgn(cmdSkill(att, 'tactics'))} drew ${sgn(a)} = ${sgn(at)}: ${won ? 'outflanked, the survivors strike back' : 'no'}` });
  if (!won) return;
  const groups = counter(def, att);
  if (checkGroups(st, def, att, groups)) return;
  resolveGroups(st, 'outflank', def, att, groups, () => 'fighting', 0, 'boost');
}

/**
 * A siege attack on ramparts (lines 89–91, 99, 108): units with Siege
 * Weapon, summed Siege less the distance, against the rampart's Armor; the
 * shifts are stress on its Wall Strength, capped by the group's Siege (seed
 * 000: capped by the rank of the skill used). Taken out, it falls.
 */
export function siegeAttack(st: WarState, att: Commander, zone: string, unitIds: string[]): string | undefined {
  const rampart = standingRampart(st, zone);
  if (!rampart) return `no standing ramparts in ${zone}`;
  const type = st.catalogue.ramparts[rampart.type]!;
  const distance = st.distance(att.zone, zone);
  const can = new Map(shooters(st, att).map((s) => [s.unit.id, s]));
  const group = unitIds.map((id) => unit(st, id));
  for (const u of group) {
    const s = can.get(u.id);
    if (!s || !st.catalogue.units[u.type]!.stunts.breaches) return `${u.id} cannot harm ramparts`;
    if (distance > s.range) return `${u.id} reaches ${s.range} zones; the ramparts are ${distance} away`;
  }
  const sum = group.reduce((s, u) => s + unitSkill(st, u, can.get(u.id)!.skill), 0);
  const a = st.draws.draw(att.side);
  const d = st.draws.draw(other(att.side));
  const shifts = sum - distance + a - (type.armor + d);
  let text = `${group.map((u) => unitName(st, u)).join(', ')} (Siege ${sgn(sum)}${distance ? ` − ${distance} for range` : ''}) against the ${type.name} (Armor ${sgn(type.armor)}): drew ${sgn(a)} against ${sgn(d)}; `;
  if (shifts <= 0) text += 'no harm to the walls';
  else {
    const stress = Math.min(shifts, Math.max(1, sum));
    const levels = (Object.keys(CONSEQUENCE_SOAKS) as ConsequenceLevel[]).filter((l) => !type.consequences.includes(CONSEQUENCE_SOAKS[l]));
    const soaked = soakStress({ boxes: rampart.boxes, taken: [...levels, ...rampart.taken.map(levelOf)] }, stress);
    if (soaked.takenOut) {
      rampart.fallen = true;
      text += `${stress} stress: the ${type.name} falls`;
    } else {
      rampart.boxes = soaked.track.boxes;
      rampart.taken.push(...soaked.consequences.map((l) => CONSEQUENCE_SOAKS[l]));
      const parts = [soaked.box ? `wall box ${soaked.box}` : '', ...soaked.consequences.map((l) => `a -${CONSEQUENCE_SOAKS[l]} consequence`)].filter(Boolean);
      text += `${stress} stress: ${parts.join(' and ')}`;
    }
  }
  log(st, { kind: 'siege', side: att.side, commander: att.id, text, story: `${capital(unitsNamed(st, group))} bombard the ${type.name}: ${shifts <= 0 ? 'no harm done' : rampart.fallen ? 'it falls' : 'it cracks'}.` });
  return undefined;
}

const levelOf = (soak: number): ConsequenceLevel => (soak <= 2 ? 'mild' : soak <= 4 ? 'moderate' : 'severe');
