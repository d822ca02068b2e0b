import type { BattleOutcome, BattleSpec } from '../battle.js';
import type { UnitClass } from '../campaign.js';
import type { TurnContext } from '../context.js';
import type { Casualty } from '../events.js';
import { compareIds, type NationId } from '../ids.js';
import { DEFAULT_PLANS, DEFAULT_RESERVE_UNTIL, type BattlePlan } from './commander.js';
import { targetType } from '../checks/battle-plan.js';
import type { BattlePlanOrder } from '../orders.js';
import { leaderOf } from '../leaders.js';
import type { UnitState } from '../state.js';
import { unitName } from '../unit-name.js';
import { runBattle, turningPoint, type WarfareBattle } from './battle.js';
import { catalogue } from './catalogue.js';
import { WALLS, wallsOf } from './walls.js';
import { battleScene, settleFate, sideFate } from './turn-fate.js';
import { battleHelp, settleHelp } from './turn-help.js';
import { turnField, type Burned } from './turn-field.js';
import type { WarResult } from './battle.js';
import type { BattleAspect, Side } from './types.js';

/**
 * Warfare in the turn (docs/rules.md W15–W16): an open battle where each
 * side brings `rules.warfare.minUnitsPerSide` units or more, or one the GM
 * flagged by its hex (`rules.warfare.hexes`), is fought over zones instead of
 * the d6 totals, when the campaign turns it on.
 */
export function foughtAsWarfare(ctx: TurnContext, spec: BattleSpec): boolean {
  const w = ctx.rules.warfare;
  // A fight for an external structure stays a d6 battle: Warfare has no structures but keeps (docs/rules.md X2, W15).
  // An assault on a settlement is Warfare only when the campaign says so (`assaults`, W18).
  if (!w.enabled || spec.structure || (spec.kind === 'assault' && !w.assaults)) return false;
  return w.hexes.includes(spec.at) || (spec.attacker.units.length >= w.minUnitsPerSide && spec.defender.units.length >= w.minUnitsPerSide);
}

/** The nation's battle plan order this turn (docs/orders.md), else none (the default for its side, W13). */
const planOrder = (ctx: TurnContext, nation: NationId) => ctx.acceptedOf('battle_plan').find((a) => a.nation === nation)?.order;

/** The plan the automated commanders follow: the order's, with its reserve as the commanders leading it. */
function planOf(ctx: TurnContext, o: BattlePlanOrder | undefined, side: Side, reserve: string[]): BattlePlan {
  if (!o) return DEFAULT_PLANS[side];
  const target = o.target === undefined ? undefined : targetType(ctx, o.target);
  return {
    stance: o.stance,
    withdrawAt: o.withdrawAt ?? 0,
    onTie: o.onTie ?? 'boost',
    ...(target ? { target } : {}),
    ...(reserve.length ? { reserves: { commanders: reserve, until: o.reserveUntil ?? DEFAULT_RESERVE_UNTIL } } : {}),
  };
}

/** The campaign's `prepare` (W14) on the attacker's plan. */
const withPrepare = (plan: BattlePlan, prepare: boolean): BattlePlan => ({ ...plan, prepare });

/**
 * The units a plan holds back (W13): every unit of the class named, or the
 * last N in the order the side lists them; never all of them (one unit at
 * least marches with the main body).
 */
function reserveOf<U>(fighters: U[], o: BattlePlanOrder | undefined, classOf: (u: U) => string): U[] {
  if (o?.reserve === undefined) return [];
  const held = typeof o.reserve === 'number' ? fighters.slice(Math.max(1, fighters.length - o.reserve)) : fighters.filter((u) => classOf(u) === o.reserve);
  return held.length < fighters.length ? held : held.slice(1);
}


export function fightWarfare(ctx: TurnContext, spec: BattleSpec): BattleOutcome {
  const w = ctx.rules.warfare;
  const cat = catalogue(w.catalogue);
  const commanders: WarfareBattle['commanders'] = [];
  const units: WarfareBattle['units'] = [];
  const byWarId = new Map<string, UnitState>();
  const orders = { attacker: planOrder(ctx, spec.attacker.nation), defender: planOrder(ctx, spec.defender.nation) };
  const reserves: Record<Side, string[]> = { attacker: [], defender: [] };
  // An assault (W18): the settlement's battlements stand as ramparts on the strategic zone, the garrison behind them.
  const settlement = spec.kind === 'assault' ? ctx.settlementAt(spec.at) : undefined;
  const walls = settlement ? wallsOf(settlement.name, settlement.battlements, w.walls) : undefined;
  if (walls) cat.ramparts[WALLS] = walls;
  const capital = settlement?.level === 'capital';
  // The field both plans build, with what they burned for it (W23, W24).
  const { field, starts: START, reserveStarts: RESERVE_START, burned } = turnField(ctx, spec, orders, settlement !== undefined);
  for (const side of ['attacker', 'defender'] as const) {
    const force = spec[side];
    const leader = leaderOf(ctx.campaign, ctx.nationState(force.nation));
    // The leader commands in person when its unit is in the battle; then the nation's named lieutenants;
    // then novices (seed 001 line 12). Each leads as many units as its Command, at least three (line 139).
    const inPerson = leader.name !== null && leader.unit !== undefined && force.units.some((u) => u.id === leader.unit);
    const named = [...(inPerson ? [{ name: leader.name!, ...w.leader }] : []), ...(w.lieutenants[force.nation] ?? [])];
    const all = force.units.filter((u) => ctx.unitType(u).class !== 'diplomatic');
    // The reserve comes last, under commanders of its own (held until the plan's exchange).
    const held = new Set(reserveOf(all, orders[side], (u) => ctx.unitType(u).class));
    const main = all.filter((u) => !held.has(u));
    const fighters = [...main, ...all.filter((u) => held.has(u))];
    let next = 0;
    let i = 0;
    /** How many more units each commander of the main body may lead. */
    const room = new Map<string, number>();
    for (; next < fighters.length || i === 0; i++) {
      const id = `${side}-${i + 1}`;
      const who = named[i];
      // A commander leads the main body or the reserve, never both.
      // Defending the capital, one more (line 139).
      const most = Math.max(who?.command ?? 0, 3) + (capital && side === 'defender' ? 1 : 0);
      const cap = Math.min(most, next < main.length ? main.length - next : fighters.length - next);
      const reserve = next >= main.length && held.size > 0;
      if (reserve) reserves[side].push(id);
      const starts = settlement && side === 'defender' ? [field.strategic] : reserve ? RESERVE_START[side] : START[side];
      commanders.push({
        id,
        name: who ? who.name : `a novice commander of ${ctx.nationDef(force.nation).name}`,
        side,
        zone: starts[(reserve ? reserves[side].length - 1 : i) % starts.length]!,
        ...(who ? { skills: { command: who.command, tactics: who.tactics, ...('fighting' in who && who.fighting ? { fighting: who.fighting } : {}), ...('athletics' in who && who.athletics ? { athletics: who.athletics } : {}) } } : { novice: true }),
      });
      for (const u of fighters.slice(next, next + cap)) {
        const cls = ctx.unitType(u).class as Exclude<UnitClass, 'diplomatic'>;
        // In an assault siege units fight as `walls.siege` (cannons by default, W18).
        const type = settlement && cls === 'siege' ? w.walls.siege : w.types[cls];
        units.push({ id: u.id, type, commander: id, name: unitName(ctx.campaign, u), ...(u.health === 'bloodied' ? { bloodied: true } : {}) });
        byWarId.set(u.id, u);
      }
      next += cap;
      if (!reserve) room.set(id, most - cap);
    }
    raise(burned.units[side], side, room, START[side]);
    // Named lieutenants left over ride as champions with the first commander (seed 001 lines 140–141, W19).
    named.slice(i).forEach((who, k) => {
      const lead = commanders.find((c) => c.id === `${side}-1`)!;
      const fighting = 'fighting' in who ? (who.fighting ?? 0) : 0;
      commanders.push({ id: `${side}-champion-${k + 1}`, name: who.name, side, zone: lead.zone, champion: lead.id, skills: { command: who.command, tactics: who.tactics, fighting } });
    });
  }
  /**
   * Units bought by burning an aspect (W24): `rules.warfare.burn.unitType`, for this battle only — with a
   * commander of the main body that has room, else under novices of their own at the side's first starting zone.
   */
  function raise(bought: { count: number; from: string }, side: Side, room: Map<string, number>, starts: string[]): void {
    const type = w.burn.unitType;
    const name = `${cat.units[type]?.name ?? type} raised by "${bought.from}"`;
    let levies = 0;
    for (let k = 0; k < bought.count; k++) {
      let lead = [...room].find(([, left]) => left > 0)?.[0];
      if (!lead) {
        lead = `${side}-levy-${++levies}`;
        commanders.push({ id: lead, name: `a novice commander of ${ctx.nationDef(spec[side].nation).name}`, side, zone: starts[0]!, novice: true });
        room.set(lead, 3);
      }
      room.set(lead, room.get(lead)! - 1);
      units.push({ id: `${side}-burned-${k + 1}`, type, commander: lead, name: `${name} (${k + 1})` });
    }
  }
  // The Fate the sides pledged, their nations' aspects here and the invokes ordered for this battle (W20).
  const fates = { attacker: sideFate(ctx, spec, 'attacker'), defender: sideFate(ctx, spec, 'defender') };
  const where = `the Warfare battle at ${spec.at}`;
  // Other nations' teamwork and obstacle invokes for or against either side (A10).
  const help = ctx.rules.fate.aspects ? battleHelp(ctx, spec, battleScene(ctx, spec), where) : undefined;
  const cost = Math.max(1, ctx.rules.fate.invokeCost);
  const battle: WarfareBattle = {
    fate: { attacker: Math.floor(fates.attacker.pool / cost), defender: Math.floor(fates.defender.pool / cost) },
    aspects: { attacker: [...fates.attacker.aspects, ...assetsOf(burned.assets.attacker)], defender: [...fates.defender.aspects, ...assetsOf(burned.assets.defender)] },
    boosts: { attacker: fates.attacker.boosts.length, defender: fates.defender.boosts.length },
    ...(help?.orders.length ? { help: help.bySide } : {}),
    id: spec.id,
    nations: { attacker: spec.attacker.nation, defender: spec.defender.nation },
    field,
    commanders,
    units,
    plans: { attacker: withPrepare(planOf(ctx, orders.attacker, 'attacker', reserves.attacker), w.prepare), defender: planOf(ctx, orders.defender, 'defender', reserves.defender) },
    maxExchanges: w.maxExchanges,
    bloodiedPenalty: w.bloodied,
    ...(walls ? { ramparts: [{ type: WALLS, zone: field.strategic }] } : {}),
    ...(capital ? { capital } : {}),
  };
  const result = runBattle(battle, cat, ctx.dice.stream(`warfare:${spec.id}`), ctx.rules.fate.randomiser);
  const casualties: Casualty[] = [];
  for (const side of ['attacker', 'defender'] as const) {
    for (const id of result.takenOut[side]) {
      // A unit raised by burning an aspect fought for this battle only (W24): nothing to map back.
      const u = byWarId.get(id);
      if (!u) continue;
      casualties.push({ unit: u.id, result: w.takenOut === 'destroyed' || u.health === 'bloodied' ? 'destroyed' : 'bloodied' });
    }
  }
  const nations = [spec.attacker.nation, spec.defender.nation].sort(compareIds);
  const { account, story } = tell(result);
  ctx.emit({
    type: 'warfare',
    nations,
    battle: spec.id,
    at: spec.at,
    attacker: spec.attacker.nation,
    defender: spec.defender.nation,
    winner: result.winner,
    reason: result.reason,
    exchanges: result.exchanges,
    account,
    story,
    draws: result.draws.flatMap((d) => d.rolls),
    ...(result.draws.some((d) => d.luck) ? { luck: result.draws.flatMap((d) => (d.luck ? [d.luck] : [])) } : {}),
    casualties,
  });
  settleFate(ctx, spec, fates, result);
  if (help?.orders.length) settleHelp(ctx, spec, help, result.helped, where);
  concede(ctx, spec, result, where);
  lossOrdersUnused(ctx, spec, where);
  for (const c of casualties) {
    const unit = ctx.unit(c.unit);
    if (!unit) continue;
    if (c.result === 'destroyed') ctx.destroyUnit(unit, `taken out in ${where}`, nations);
    else ctx.setHealth(unit, 'bloodied', `taken out in ${where}`, nations);
  }
  for (const u of [...spec.attacker.units, ...spec.defender.units]) ctx.fought.add(u.id);
  const won = result.winner === 'attacker' ? spec.attacker.nation : spec.defender.nation;
  ctx.nationState(won).battlesWon += 1;
  ctx.changeResource(won, 'renown', ctx.rules.victoryRenown, `victory in ${where}`);
  const alive = (list: UnitState[]) => list.filter((u) => ctx.unit(u.id) !== undefined);
  const outcome: BattleOutcome = { winner: result.winner, survivors: { attacker: alive(spec.attacker.units), defender: alive(spec.defender.units) } };
  // The attackers in the strategic zone hold the settlement (W18): the assault takes it, whatever garrison is left.
  return result.held ? { ...outcome, heldStrategicZone: true } : outcome;
}

/** Assets bought by burning an aspect (W24): each a helpful aspect on its skill for the side, in this battle only. */
function assetsOf(bought: Burned['assets'][Side]): BattleAspect[] {
  if (!bought) return [];
  return Array.from({ length: bought.count }, (_, k) => ({ ref: `burned#${k}`, name: bought.name, free: 0, ordered: 0, pool: false, hostile: false, helps: bought.skill }));
}

/**
 * A side that leaves the field by its plan (`withdraw at N`) concedes the
 * battle: its nation earns a fate point, and one more for each consequence
 * its commanders took (seed 002 "Earning Fate Points"; docs/rules.md W21).
 */
function concede(ctx: TurnContext, spec: BattleSpec, result: WarResult, where: string): void {
  if (!result.conceded) return;
  const nation = spec[result.conceded].nation;
  const earned = 1 + result.consequences[result.conceded];
  ctx.changeResource(nation, 'fate', earned, `conceded ${where}${earned > 1 ? ` (1, and 1 for each of ${earned - 1} consequence${earned > 2 ? 's' : ''} taken)` : ''}`);
}

/**
 * A loss order (the attack's `casualties`, or the sheet's) does not apply in
 * Warfare: the exchanges take units out, there is no deficit to pay. The
 * nation is told rather than left to wonder (nothing is dropped silently).
 */
function lossOrdersUnused(ctx: TurnContext, spec: BattleSpec, where: string): void {
  for (const side of ['attacker', 'defender'] as const) {
    const force = spec[side];
    if (!force.casualtyPriority?.length) continue;
    ctx.emit({ type: 'order_not_applied', nations: [force.nation], nation: force.nation, what: 'your loss order (casualties)', reason: `${where} was fought over zones: its exchanges took units out, with no deficit to pay` });
  }
}

/**
 * The battle told twice (docs/rules.md W16): the account, each exchange's
 * map and every action with its numbers; and the story a player follows —
 * each exchange opening with who stands where, each action in plain words
 * with its numbers under it, and at the end what turned the battle.
 */
function tell(result: WarResult): { account: string[]; story: string[] } {
  const account: string[] = [];
  const story: string[] = [];
  const last = result.log.reduce((m, e) => Math.max(m, e.exchange), 0);
  for (let x = 1; x <= last; x++) {
    const map = result.maps.find((m) => m.exchange === x);
    const lines = result.log.filter((e) => e.exchange === x);
    if (!map && !lines.length) continue;
    account.push(`Exchange ${x}:`);
    story.push(map ? `Exchange ${x}: ${map.lead}` : `After exchange ${x - 1}:`);
    if (map) {
      account.push(...map.lines.map((l) => `  ${l}`));
      story.push(...map.lines.map((l) => `  ${l}`));
    }
    for (const e of lines) {
      account.push(`  ${e.text}`);
      story.push(`  ${e.story ?? e.text}`);
      if (e.story && e.kind !== 'end') story.push(`      ${e.text}`);
    }
  }
  story.push(`What turned it: ${turningPoint(result)}`);
  return { account, story };
}
