import { fightBattle } from '../battle.js';
import { sumModifiers, unitModifiers } from '../bonuses.js';
import { isMilitaryClass } from '../campaign.js';
import { fateModifier } from '../checks/lookup.js';
import type { AcceptedOrder, TurnContext } from '../context.js';
import type { Modifier } from '../events.js';
import { compareIds, type UnitId } from '../ids.js';
import type { AssaultOrder, SiegeActionOrder, SortieOrder } from '../orders.js';
import type { SettlementState, UnitState } from '../state.js';
import { captureSettlement, hasInfantry } from './capture.js';
import { defendersOf, takeDefencePledges } from './combat.js';
import type { Phase } from './phase.js';
import { planSiegeBlows, siegeStepNumber } from '../siege-steps.js';
import { unitName } from '../unit-name.js';
import { applyInvokes } from '../aspects/invoke.js';
import { lostName, orderUnmet, supportersLeft, unitOf } from '../unmet.js';
import { reportUnusedPlans } from '../warfare/turn-fate.js';

/**
 * Siege actions (besiegers against battlements and the water), then sorties
 * (defenders against besiegers), then assaults. A siege roll must beat its set
 * number; every further full 3 above what was needed earns one more action of
 * the same or a lesser kind.
 */
export const siegePhase: Phase = {
  name: 'siege',
  run(ctx: TurnContext) {
    const byUnit = <T extends { order: { unit: UnitId } }>(list: readonly T[]) => [...list].sort((a, b) => compareIds(a.order.unit, b.order.unit));
    for (const a of byUnit(ctx.acceptedOf('siege_action'))) siegeAction(ctx, a);
    for (const a of byUnit(ctx.acceptedOf('sortie'))) sortie(ctx, a);
    for (const a of byUnit(ctx.acceptedOf('assault'))) assault(ctx, a);
    // The turn's battles are over: a battle plan none of them followed is told (docs/rules.md W13).
    reportUnusedPlans(ctx);
  },
};

interface SiegeRoll {
  total: number;
  successes: number;
  roll: ReturnType<ReturnType<TurnContext['dice']['stream']>['roll']>;
  modifiers: Modifier[];
  fateSpent: number;
  /** The first die, when an invoke re-rolled it. */
  firstRoll?: SiegeRoll['roll'];
}

function siegeRoll(ctx: TurnContext, unit: UnitState, scope: string, beat: number, fate: number, againstStructure: boolean, opponents: UnitState[], s: SettlementState): SiegeRoll {
  const die = unit.health === 'healthy' ? 'd6' : 'd3';
  let roll = ctx.dice.stream(scope).roll(die, unit.nation);
  // Only bonuses against structures (or against the units targeted) count here, not open-field ones.
  const modifiers = unitModifiers(ctx, unit, { situation: 'siege', opponents, againstStructure }).filter((m) => m.value !== 0);
  const bought = fateModifier(ctx.rules.fateTable, Math.min(fate, ctx.nationState(unit.nation).fate));
  if (bought.cost > 0) {
    ctx.changeResource(unit.nation, 'fate', -bought.cost, `Fate spent for +${bought.modifier} on ${scope}`);
    modifiers.push({ value: bought.modifier, source: `${bought.cost} Fate` });
  }
  const need = beat + 1;
  let firstRoll: SiegeRoll['roll'] | undefined;
  if (ctx.rules.fate.aspects) {
    // Aspects are invoked after the roll (seed 000): +2s first, then a re-roll while it still falls short.
    const stream = ctx.dice.stream(`invoke:${scope}`);
    const what = `the siege of ${s.name}`;
    const invoked = applyInvokes(ctx, { nation: unit.nation, key: `siege:${s.id}`, what, scene: { nations: [unit.nation, s.nation], hex: s.hex, settlement: s.id, units: [unit.id, ...opponents.map((o) => o.id)] }, against: s.nation === unit.nation ? opponents[0]?.nation : s.nation, stream, skill: 'siege' });
    modifiers.push(...invoked.modifiers);
    for (const r of invoked.rerolls) {
      if (roll.value + sumModifiers(modifiers) >= need || !r.take()) continue;
      firstRoll ??= roll;
      roll = stream.roll(die, unit.nation);
    }
  }
  const total = roll.value + sumModifiers(modifiers);
  const successes = total >= need ? 1 + Math.floor((total - need) / ctx.rules.siege.extraActionEvery) : 0;
  return { total, successes, roll, modifiers, fateSpent: bought.cost, ...(firstRoll ? { firstRoll } : {}) };
}

function besieged(ctx: TurnContext, unit: UnitState | undefined): SettlementState | undefined {
  if (!unit?.besieging) return undefined;
  const s = ctx.settlement(unit.besieging);
  return s && s.nation !== unit.nation ? s : undefined;
}

const garrisonOf = (ctx: TurnContext, s: SettlementState) =>
  ctx.unitsAt(s.hex).filter((u) => u.nation === s.nation && isMilitaryClass(ctx.unitType(u).class));

/** A siege order's unit still besieging, or the order told why it did not happen. */
function stillBesieging(ctx: TurnContext, a: AcceptedOrder<SiegeActionOrder | AssaultOrder>, what: string): { unit: UnitState; s: SettlementState } | undefined {
  const unit = ctx.unit(a.order.unit);
  const s = besieged(ctx, unit);
  if (!unit) orderUnmet(ctx, a, 'unit_lost', `did not ${what}: ${lostName(ctx, a.order.unit)} was lost before it could`);
  else if (!s) orderUnmet(ctx, a, 'siege_over', `did not ${what}: ${unitName(ctx.campaign, unit)} no longer besieged ${ctx.start.units[unit.id]?.besieging ? settlementName(ctx, ctx.start.units[unit.id]!.besieging!) : 'the settlement'}`);
  return unit && s ? { unit, s } : undefined;
}

const settlementName = (ctx: TurnContext, id: SettlementState['id']) => ctx.settlement(id)?.name ?? ctx.start.settlements[id]?.name ?? id;

function siegeAction(ctx: TurnContext, a: AcceptedOrder<SiegeActionOrder>): void {
  const held = stillBesieging(ctx, a, 'make its siege action');
  if (!held) return;
  const { unit, s } = held;
  const o = a.order;
  const nations = [unit.nation, s.nation].sort(compareIds);
  const number = siegeStepNumber(ctx, s, o);
  if (number === undefined) {
    // Another besieger's roll took the battlement first this turn.
    orderUnmet(ctx, a, 'no_battlement', `did not make its siege action: no battlement of ${s.name} was left to destroy`);
    return;
  }
  const r = siegeRoll(ctx, unit, `siege:${unit.id}`, number, o.fate ?? 0, true, [], s);
  const healthy = ctx.unitsAt(s.hex).filter((u) => u.nation === s.nation && u.health === 'healthy');
  const blows = planSiegeBlows(o, o.then ?? [], r.successes, { number, poisonTarget: ctx.rules.siege.poisonTarget, battlements: s.battlements, healthy });
  const effects = blows.map((b) => (b.kind === 'battlement' ? `+${b.level} battlement destroyed` : `${unitName(ctx.campaign, b.unit)} bloodied`));
  ctx.emit({ type: 'siege_roll', nations, action: o.action, unit: unit.id, settlement: s.id, target: number, roll: r.roll, modifiers: r.modifiers, fateSpent: r.fateSpent, total: r.total, successes: r.successes, effects, ...(r.firstRoll ? { firstRoll: r.firstRoll } : {}) });
  for (const b of blows) {
    if (b.kind === 'battlement') {
      s.battlements.splice(s.battlements.indexOf(b.level), 1);
      ctx.emit({ type: 'battlement_destroyed', nations, settlement: s.id, level: b.level });
    } else ctx.setHealth(b.unit, 'bloodied', `poisoned water in ${s.name}`, nations);
  }
}

function sortie(ctx: TurnContext, a: AcceptedOrder<SortieOrder>): void {
  const unit = ctx.unit(a.order.unit);
  const target = ctx.unit(a.order.target);
  const s = besieged(ctx, target);
  if (!unit) return orderUnmet(ctx, a, 'unit_lost', `did not sortie: ${lostName(ctx, a.order.unit)} was lost before it could`);
  if (!target) return orderUnmet(ctx, a, 'target_lost', `did not sortie: ${lostName(ctx, a.order.target, a.nation)} was already destroyed`);
  if (!s || s.hex !== unit.hex) return orderUnmet(ctx, a, 'siege_over', `did not sortie: ${unitOf(ctx, target, a.nation)} no longer besieged it`);
  const nations = [unit.nation, target.nation].sort(compareIds);
  const numbers = ctx.rules.siege.sortieTarget;
  const beat = numbers[target.health];
  const r = siegeRoll(ctx, unit, `sortie:${unit.id}`, beat, a.order.fate ?? 0, false, [target], s);
  // Extra successes strike other besiegers no harder to hit than the first.
  const others = ctx
    .unitsAt(s.hex)
    .filter((u) => u.besieging === s.id && u.id !== target.id && numbers[u.health] <= beat);
  const struck = r.successes > 0 ? [target, ...others].slice(0, r.successes) : [];
  const effects = struck.map((u) => `${unitName(ctx.campaign, u)} ${u.health === 'healthy' ? 'bloodied' : 'destroyed'}`);
  ctx.emit({ type: 'siege_roll', nations, action: 'sortie', unit: unit.id, settlement: s.id, target: beat, roll: r.roll, modifiers: r.modifiers, fateSpent: r.fateSpent, total: r.total, successes: r.successes, effects, ...(r.firstRoll ? { firstRoll: r.firstRoll } : {}) });
  for (const u of struck) ctx.harmUnit(u, `sortie from ${s.name}`, nations);
}

function assault(ctx: TurnContext, a: AcceptedOrder<AssaultOrder>): void {
  const held = stillBesieging(ctx, a, 'assault');
  if (!held) return;
  const { unit, s } = held;
  const attackers = [unit, ...supportersLeft(ctx, a, a.order.support, (u) => u.besieging === s.id, `was lost or no longer besieged ${s.name}`)];
  const ids = attackers.map((u) => u.id);
  const garrison = garrisonOf(ctx, s);
  if (garrison.length === 0) {
    if (hasInfantry(ctx, ids)) captureSettlement(ctx, s, unit.nation, ids);
    else orderUnmet(ctx, a, 'no_infantry', `did not take ${s.name}: it is empty, but infantry is needed to take it`);
    return;
  }
  const defenders = defendersOf(ctx, s.nation, s.hex, [], ctx.rules.maxSettlementDefenders, `settlement:${s.id}`);
  const pledged = takeDefencePledges(ctx, defenders);
  const walls = s.battlements.reduce((sum, b) => sum + b, 0);
  const outcome = fightBattle(ctx, {
    id: `assault:${unit.id}`,
    at: s.hex,
    kind: 'assault',
    attacker: { nation: unit.nation, units: attackers, fatePledged: a.order.fate ?? 0, casualtyPriority: a.order.casualties ?? ctx.casualtyPriority.get(unit.nation), sideModifiers: [] },
    defender: { nation: s.nation, units: defenders, fatePledged: pledged, casualtyPriority: ctx.casualtyPriority.get(s.nation), sideModifiers: walls ? [{ value: walls, source: `battlements of ${s.name}` }] : [] },
  });
  const survivors = outcome.survivors.attacker.map((u) => u.id);
  // Warfare (W18): attackers holding the strategic zone hold the settlement, whatever garrison is left in it.
  if (outcome.winner === 'attacker' && (outcome.heldStrategicZone || garrisonOf(ctx, s).length === 0) && hasInfantry(ctx, survivors)) {
    captureSettlement(ctx, s, unit.nation, survivors);
  }
}
