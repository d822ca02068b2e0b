import { clashOfArms, rangedAttack, shooters, siegeAttack, type Group, type OnTie } from './actions.js';
import { attackCommander, createAdvantage, createAdvantageInPerson, overcomeAspect, shootCommander as shootAt } from './heroic.js';
import { moveToward, path } from './movement.js';
import { cmdSkill, unitsOf, unitSkill, type WarState } from './state.js';
import type { Commander, Side, Unit } from './types.js';

/**
 * The automated commander (docs/rules.md W12): players cannot answer each
 * exchange by mail, so each side's orders carry a battle plan and this
 * follows it, exchange by exchange, with the seed's rules. Deterministic:
 * every choice is made by fixed rules and sorted ids; only the cards vary.
 */
export interface BattlePlan {
  /** aggressive: seek the enemy; defensive: hold the strategic zone (the defender) or advance on it (the attacker). */
  stance: 'aggressive' | 'defensive';
  /** Commanders held where they stand until the exchange given (they still fight what comes to them). */
  reserves?: { commanders: string[]; until: number };
  /** The side leaves the field when it has this many units or fewer left (0: fight to the last). */
  withdrawAt?: number;
  /** What a commander does on a tie (line 161). */
  onTie?: OnTie;
  /**
   * What to strike first: a unit type of the catalogue (its units are
   * attacked before the others, and commanders leading them are chosen
   * first), or `commander`: attack the enemy commanders in person (line 189).
   */
  target?: string;
  /** An attacker creates an advantage on a prepared defence's zone before closing with it (W14; off by default). */
  prepare?: boolean;
  /**
   * A naive commander (the yardstick the automated one is measured against,
   * W13): it marches and strikes, fires at any odds, makes no advantage, never
   * seeks out a commander, and spends what it has whenever it is behind.
   */
  naive?: boolean;
}

/** The exchange a reserve joins the battle when the plan does not say (our reading: after the default march of three). */
export const DEFAULT_RESERVE_UNTIL = 4;

export const DEFAULT_PLANS: Readonly<Record<Side, BattlePlan>> = {
  // The attacker answers a prepared defence by default (W14): equal armies near even on the seed's own terms.
  attacker: { stance: 'aggressive', withdrawAt: 0, onTie: 'boost', prepare: true },
  defender: { stance: 'defensive', withdrawAt: 0, onTie: 'boost' },
};

const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Allocation (lines 159, 167): the enemy's units of the plan's target type
 * first, then weakest Armor first; to each,
 * the attacker's strongest units until their sum beats the Armor by one;
 * when what is left cannot beat it, all that is left goes at it (the cards
 * may yet help). Units that would add nothing stay out.
 */
export function allocate(st: WarState, attackers: Unit[], targets: Unit[], skillOf: (u: Unit) => number, distance: number, first?: string): Group[] {
  const pool = attackers.filter((u) => skillOf(u) > 0).sort((a, b) => skillOf(b) - skillOf(a) || byId(a, b));
  const wanted = (u: Unit) => (u.type === first ? 0 : 1);
  const foes = [...targets].sort((a, b) => wanted(a) - wanted(b) || unitSkill(st, a, 'armor') - unitSkill(st, b, 'armor') || byId(a, b));
  const groups: Group[] = [];
  for (const t of foes) {
    if (!pool.length) break;
    const need = unitSkill(st, t, 'armor') + 1 + distance;
    const left = pool.reduce((s, u) => s + skillOf(u), 0);
    if (left < need) {
      groups.push({ target: t.id, attackers: pool.splice(0).map((u) => u.id) });
      break;
    }
    const g: string[] = [];
    let sum = 0;
    while (sum < need) {
      const u = pool.shift()!;
      g.push(u.id);
      sum += skillOf(u);
    }
    groups.push({ target: t.id, attackers: g });
  }
  if (pool.length && groups.length) groups[groups.length - 1]!.attackers.push(...pool.map((u) => u.id));
  return groups;
}

const fighting = (st: WarState) => (u: Unit) => unitSkill(st, u, 'fighting');
const foesHere = (st: WarState, c: Commander) => st.commanders.filter((e) => e.side !== c.side && !e.gone && e.zone === c.zone && unitsOf(st, e).length > 0).sort(byId);
const armorOf = (st: WarState, c: Commander) => unitsOf(st, c).reduce((s, u) => s + unitSkill(st, u, 'armor'), 0);

/** How many of the plan's target type a commander leads (more first). */
const leads = (st: WarState, e: Commander, type: string | undefined) => (type ? unitsOf(st, e).filter((u) => u.type === type).length : 0);

function clash(st: WarState, c: Commander, plan: BattlePlan): boolean {
  const foes = foesHere(st, c).sort((a, b) => leads(st, b, plan.target) - leads(st, a, plan.target) || armorOf(st, a) - armorOf(st, b) || byId(a, b));
  const target = foes[0];
  if (!target) return false;
  const groups = allocate(st, unitsOf(st, c), unitsOf(st, target), fighting(st), 0, plan.target);
  if (!groups.length) return false;
  const counter = (def: Commander, att: Commander) => allocate(st, unitsOf(st, def), unitsOf(st, att), fighting(st), 0);
  return clashOfArms(st, c, target, groups, counter, plan.onTie ?? 'boost') === undefined;
}

function fire(st: WarState, c: Commander, plan: BattlePlan, staying = false): boolean {
  const can = shooters(st, c);
  if (!plan.naive && can.length && shootCommander(st, c, plan, can)) return true;
  // A commander on the move fires only when most of its units can; one that stays loses nothing by it.
  if (!can.length || (!staying && can.length * 2 < unitsOf(st, c).length)) return false;
  // Siege engines go for standing ramparts first (line 89).
  const walls = st.ramparts.filter((r) => !r.fallen && c.side === 'attacker').sort((a, b) => (a.zone < b.zone ? -1 : 1));
  for (const r of walls) {
    const engines = can.filter((s) => st.catalogue.units[s.unit.type]!.stunts.breaches && st.distance(c.zone, r.zone) <= s.range);
    if (engines.length && siegeAttack(st, c, r.zone, engines.map((s) => s.unit.id)) === undefined) return true;
  }
  const reach = Math.max(...can.map((s) => s.range));
  const targets = st.commanders
    .filter((e) => e.side !== c.side && !e.gone && unitsOf(st, e).length > 0 && st.distance(c.zone, e.zone) <= reach && !st.ramparts.some((r) => !r.fallen && r.zone === e.zone))
    .sort((a, b) => leads(st, b, plan.target) - leads(st, a, plan.target) || st.distance(c.zone, a.zone) - st.distance(c.zone, b.zone) || armorOf(st, a) - armorOf(st, b) || byId(a, b));
  const target = targets[0];
  if (!target) return false;
  const d = st.distance(c.zone, target.zone);
  const skill = new Map(can.filter((s) => s.range >= d).map((s) => [s.unit.id, s.skill]));
  const all = allocate(st, can.filter((s) => skill.has(s.unit.id)).map((s) => s.unit), unitsOf(st, target), (u) => unitSkill(st, u, skill.get(u.id)!), d, plan.target);
  // Not at poor odds (W13): a group fires only when its skill, less the range, is at most one short of the Armor —
  // four chances in ten or better to take the unit out, ties bought; a volley that can hardly succeed gives the other
  // side a minor advantage when it fails badly, and one more when it falls where the enemy is engaged.
  const sumOf = (g: Group) => g.attackers.reduce((n, id) => n + unitSkill(st, st.units.find((u) => u.id === id)!, skill.get(id)!), 0);
  const armorOfUnit = (id: string) => unitSkill(st, st.units.find((u) => u.id === id)!, 'armor');
  const groups = plan.naive ? all : all.filter((g) => sumOf(g) - d >= armorOfUnit(g.target) - 1);
  if (!groups.length) return false;
  return rangedAttack(st, c, target, groups, plan.onTie ?? 'boost') === undefined;
}

/**
 * Targets a commander when it pays (lines 181, 188–191): its ranged units
 * shoot at the enemy commander (not a novice, not behind standing walls) in
 * reach who leads the most units — always under `target commander`, else
 * when their Marksmanship, less the range, beats his Athletics by two or
 * more and no volley at his units would be at fair odds. Taken out, his
 * units follow a novice (no Tactics to outflank, pinned when engaged).
 */
function shootCommander(st: WarState, c: Commander, plan: BattlePlan, can: ReturnType<typeof shooters>): boolean {
  const foes = st.commanders
    .filter((e) => e.side !== c.side && !e.gone && !e.out && !e.novice && unitsOf(st, e).length > 0 && !st.ramparts.some((r) => !r.fallen && r.zone === e.zone))
    .sort((a, b) => unitsOf(st, b).length - unitsOf(st, a).length || st.distance(c.zone, a.zone) - st.distance(c.zone, b.zone) || byId(a, b));
  for (const foe of foes) {
    const d = st.distance(c.zone, foe.zone);
    const group = can.filter((s) => s.range >= d);
    if (!group.length) continue;
    const sum = group.reduce((n, s) => n + unitSkill(st, s.unit, s.skill), 0) - d;
    const fairVolley = unitsOf(st, foe).some((u) => sum >= unitSkill(st, u, 'armor'));
    if (plan.target !== 'commander' && (sum - cmdSkill(foe, 'athletics') < 2 || fairVolley)) continue;
    return shootAt(st, c, foe, group) === undefined;
  }
  return false;
}

/** Where the commander heads: the strategic zone, or for an aggressive defender the nearest enemy. */
function goal(st: WarState, c: Commander, plan: BattlePlan): string {
  if (c.side === 'attacker' || plan.stance === 'defensive') return st.field.strategic;
  const foes = st.commanders
    .filter((e) => e.side !== c.side && !e.gone && unitsOf(st, e).length > 0)
    .sort((a, b) => st.distance(c.zone, a.zone) - st.distance(c.zone, b.zone) || byId(a, b));
  return foes[0]?.zone ?? st.field.strategic;
}

/** One commander's exchange. */
export function act(st: WarState, c: Commander, plan: BattlePlan): void {
  if (plan.naive) return naiveAct(st, c, plan);
  if ((plan.target === 'commander' || duelPays(st, c)) && duel(st, c)) return;
  if (clash(st, c, plan)) return;
  if (fire(st, c, plan)) return;
  const held = plan.reserves?.commanders.includes(c.id) && st.exchange < plan.reserves.until;
  const to = goal(st, c, plan);
  // Before walls that bar the way (line 89), an attacker can come no nearer: it stays, and its engines may aim.
  const walled = c.side === 'attacker' && st.ramparts.some((r) => !r.fallen) && !path(st, c, to).length;
  if (held || c.zone === to || walled) return hold(st, c, plan);
  if (plan.prepare && prepare(st, c, to)) return;
  const all = unitsOf(st, c).every((u) => st.catalogue.units[u.type]!.stunts.marchAndFight);
  const steps = moveToward(st, c, to);
  // Move one zone and act, or (cavalry and infantry) move further and still attack (line 152).
  if (steps > 0 && (steps === 1 || all) && !(plan.target === 'commander' && duel(st, c))) clash(st, c, plan);
}

/** The naive commander (W13's yardstick): strikes what is in its zone, fires at whatever it reaches, else marches on. */
function naiveAct(st: WarState, c: Commander, plan: BattlePlan): void {
  if (clash(st, c, plan)) return;
  if (fire(st, c, plan, true)) return;
  const to = goal(st, c, plan);
  const held = plan.reserves?.commanders.includes(c.id) && st.exchange < plan.reserves.until;
  if (held || c.zone === to) return;
  const all = unitsOf(st, c).every((u) => st.catalogue.units[u.type]!.stunts.marchAndFight);
  const steps = moveToward(st, c, to);
  if (steps > 0 && (steps === 1 || all)) clash(st, c, plan);
}

/**
 * A duel pays (our reading of the seed's "a commander may be attacked
 * directly", W13): the enemy commander in the zone is no novice and our
 * commander's Fighting beats his by two or more.
 */
function duelPays(st: WarState, c: Commander): boolean {
  const mine = cmdSkill(c, 'fighting');
  return mine > 0 && foesHere(st, c).some((e) => !e.novice && mine - cmdSkill(e, 'fighting') >= 2);
}

/** With `target commander`: the enemy commander in the zone who leads the most units (not a novice) is attacked in person. */
function duel(st: WarState, c: Commander): boolean {
  const foe = foesHere(st, c)
    .filter((e) => !e.novice)
    .sort((a, b) => unitsOf(st, b).length - unitsOf(st, a).length || byId(a, b))[0];
  return foe !== undefined && attackCommander(st, c, foe) === undefined;
}

/** The aspect a holding commander sets on its zone (our name for bracing to meet the enemy). */
export const SET_DEFENCE = 'Set Defence';
/** The aspect besiegers waiting before walls set on them, for the storm (our name). */
export const STORM = 'Ready to Storm';
/** How many free invokes a side keeps ready on a zone before it stops preparing it. */
const READY_INVOKES = 2;

/**
 * A commander that stays where it is still has its action (line 152): while
 * its side has fewer than two free invokes ready on its zone, it sets its
 * defence there — creates an advantage with its units' Fighting, the others
 * helping (lines 183–185); otherwise its ranged units, if any, fire at what
 * they reach. This is what keeps a waiting defender from being struck first
 * for nothing (docs/rules.md W14).
 */
function hold(st: WarState, c: Commander, plan: BattlePlan): void {
  const us = unitsOf(st, c).filter((u) => unitSkill(st, u, 'fighting') > 0);
  const readyOn = (id: string) => st.field.zones.find((z) => z.id === id)!.advantages.filter((a) => a.side === c.side).reduce((n, a) => n + a.invokes, 0);
  if (c.side === 'attacker' && st.ramparts.some((r) => !r.fallen)) {
    // An attacker before standing walls shoots at them first, its engines aimed (lines 47, 58, 89).
    if (fire(st, c, plan, true)) return;
    // With no engine in reach it readies the storm: an advantage on the walled zone next to it (lines 183–185),
    // whose free invokes its side spends on the first blows there once the walls fall (W18).
    const wall = st.ramparts.find((r) => !r.fallen && st.distance(c.zone, r.zone) === 1);
    if (wall && us.length && readyOn(wall.zone) < READY_INVOKES) {
      createAdvantage(st, c, us.map((u) => u.id), 'fighting', wall.zone, STORM);
      return;
    }
  }
  const ready = readyOn(c.zone);
  if (ready < READY_INVOKES && us.length) {
    createAdvantage(st, c, us.map((u) => u.id), 'fighting', c.zone, SET_DEFENCE);
    return;
  }
  fire(st, c, plan, true);
}

/** The aspect a champion makes where its side fights (our name). */
export const CHAMPION_ASPECT = "Champion's Example";

/**
 * A champion's heroic action (seed 001 lines 140–141, 181–191), after its
 * commander's: it has no units, so it attacks or creates an advantage in
 * person. Under an aggressive plan, or one that targets commanders, it
 * attacks the enemy leader in its zone who is not a novice (the one leading
 * most units; another champion last), Fighting against Fighting. Otherwise it
 * creates an advantage with its Tactics where its side fights — aggressive,
 * on the nearest enemy's zone within two; defensive, on its own — while its
 * side has fewer than four free invokes there (its commander's two, W13, and
 * two of its own).
 */
export function heroic(st: WarState, ch: Commander, plan: BattlePlan): void {
  const foes = st.commanders
    .filter((e) => e.side !== ch.side && !e.gone && !e.out && !e.novice && e.zone === ch.zone && (e.champion !== undefined || unitsOf(st, e).length > 0))
    .sort((a, b) => unitsOf(st, b).length - unitsOf(st, a).length || byId(a, b));
  if (foes[0] && (plan.stance === 'aggressive' || plan.target === 'commander')) {
    attackCommander(st, ch, foes[0]);
    return;
  }
  const near = st.commanders
    .filter((e) => e.side !== ch.side && !e.gone && unitsOf(st, e).length > 0 && st.distance(ch.zone, e.zone) <= 2)
    .sort((a, b) => st.distance(ch.zone, a.zone) - st.distance(ch.zone, b.zone) || byId(a, b))[0];
  const zone = plan.stance === 'aggressive' ? near?.zone : ch.zone;
  if (!zone) return;
  const ready = st.field.zones.find((z) => z.id === zone)!.advantages.filter((a) => a.side === ch.side).reduce((n, a) => n + a.invokes, 0);
  if (ready < 2 * READY_INVOKES) createAdvantageInPerson(st, ch, 'tactics', zone, CHAMPION_ASPECT);
}

const readyFor = (st: WarState, side: Side, zone: string) => st.field.zones.find((z) => z.id === zone)!.advantages.filter((a) => a.side === side).reduce((n, a) => n + a.invokes, 0);

/**
 * `prepare` (W14, a campaign setting): an attacker about to close with a
 * defence that has free invokes ready where it stands, and none of its own
 * side there, first creates an advantage on that zone from the next zone —
 * moving one zone and acting, or acting where it stands (line 152; lines
 * 183–185: against the distance, 1) — and marches in the exchange after.
 */
function prepare(st: WarState, c: Commander, to: string): boolean {
  if (c.side !== 'attacker') return false;
  const route = path(st, c, to);
  const at = route.findIndex((z) => st.commanders.some((e) => e.side !== c.side && !e.gone && e.zone === z && unitsOf(st, e).length > 0));
  if (at < 0 || at > 1) return false;
  const zone = route[at]!;
  const theirs = readyFor(st, 'defender', zone);
  if (theirs === 0 || readyFor(st, c.side, zone) > 0) return false;
  if (at === 1) moveToward(st, c, route[0]!, 1);
  if (st.distance(c.zone, zone) !== 1) return true;
  // A commander with Tactics removes the defence's advantage instead (seed 001 lines 186–187): the one with most invokes.
  const theirBest = st.field.zones.find((z) => z.id === zone)!.advantages.filter((a) => a.side !== c.side).sort((a, b) => b.invokes - a.invokes)[0];
  if (theirBest && cmdSkill(c, 'tactics') >= 2 && theirBest.invokes >= 2) return overcomeAspect(st, c, zone, theirBest.name) === undefined;
  const us = unitsOf(st, c).filter((u) => unitSkill(st, u, 'fighting') > 0);
  if (!us.length) return false;
  createAdvantage(st, c, us.map((u) => u.id), 'fighting', zone, STORM);
  return true;
}
