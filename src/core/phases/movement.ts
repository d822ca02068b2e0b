import type { AcceptedOrder, TurnContext } from '../context.js';
import { compareIds, type HexKey, type UnitId } from '../ids.js';
import type { AttackOrder, MoveOrder } from '../orders.js';
import type { UnitState } from '../state.js';
import type { Phase } from './phase.js';
import { pushTo } from '../multimap.js';
import { unitName } from '../unit-name.js';
import { lossText, WorkIndex } from '../work.js';
import { orderUnmet, unitOf } from '../unmet.js';

/**
 * Pursuit, then movement. An attack aims at where its target stood when the
 * orders were written; if the target moves away, the attacker catches it only
 * when faster (equal speed: a coin flip in the pursuit's own dice scope).
 * A target that escapes every pursuer moves on and leaves its attackers in the
 * hex they attacked. Then every remaining move happens, in unit id order.
 */
export const movementPhase: Phase = {
  name: 'movement',
  run(ctx: TurnContext) {
    const moves = new Map<UnitId, AcceptedOrder<MoveOrder>>();
    for (const m of ctx.acceptedOf('move')) moves.set(m.order.unit, m);

    const pursuersOf = new Map<UnitId, AcceptedOrder<AttackOrder>[]>();
    for (const a of ctx.acceptedOf('attack')) {
      const t = a.order.target;
      if ('unit' in t && moves.has(t.unit)) pushTo(pursuersOf, t.unit, a);
    }
    for (const targetId of [...pursuersOf.keys()].sort(compareIds)) {
      const target = ctx.unit(targetId);
      const pursuers = (pursuersOf.get(targetId) ?? []).sort((a, b) => compareIds(a.order.unit, b.order.unit));
      if (!target) continue;
      let caughtBy: UnitState | undefined;
      for (const p of pursuers) {
        const attacker = ctx.unit(p.order.unit);
        if (!attacker) continue;
        if (pursuit(ctx, attacker, target)) caughtBy ??= attacker;
      }
      if (caughtBy) {
        const move = moves.get(targetId);
        if (move) orderUnmet(ctx, move, 'caught', `did not move: caught by ${unitOf(ctx, caughtBy, target.nation)} at ${target.hex}`);
        moves.delete(targetId);
        continue;
      }
      const from = target.hex;
      for (const p of pursuers) {
        const attacker = ctx.unit(p.order.unit);
        if (!attacker) continue;
        ctx.escapedFrom.add(attacker.id);
        const to = moves.get(targetId)?.path?.at(-1) ?? from;
        ctx.emit({ type: 'unit_fled', nations: nationsOf(attacker, target), unit: target.id, attacker: attacker.id, from, to });
        moveUnit(ctx, attacker, p.path ?? [from]);
        orderUnmet(ctx, p, 'target_escaped', `did not attack: ${unitOf(ctx, target, attacker.nation)} got away to ${to}, and ${unitName(ctx.campaign, attacker)} stopped at ${attacker.hex}`);
      }
    }

    for (const id of [...moves.keys()].sort(compareIds)) {
      const m = moves.get(id);
      const unit = ctx.unit(id);
      if (!m || !unit) continue;
      moveUnit(ctx, unit, m.path ?? [m.order.to], m.order);
    }
  },
};

const nationsOf = (a: UnitState, b: UnitState) => [a.nation, b.nation].sort(compareIds);

/** True when the attacker catches a target trying to move away. */
function pursuit(ctx: TurnContext, attacker: UnitState, target: UnitState): boolean {
  const mine = ctx.unitType(attacker).speed;
  const theirs = ctx.unitType(target).speed;
  const nations = nationsOf(attacker, target);
  if (mine !== theirs) {
    const caught = mine > theirs;
    const reason = `speed ${mine} against ${theirs}`;
    ctx.emit({ type: 'pursuit', nations, attacker: attacker.id, target: target.id, caught, reason });
    return caught;
  }
  const coin = ctx.dice.stream(`pursuit:${attacker.id}:${target.id}`).roll('coin');
  const caught = coin.value === 1;
  ctx.emit({ type: 'pursuit', nations, attacker: attacker.id, target: target.id, caught, reason: `equal speed ${mine}: coin ${caught ? 'heads, caught' : 'tails, escaped'}`, coin });
  return caught;
}

/**
 * A unit about to leave its hex gives up the work it was doing there, with an
 * event saying what went with it: a build on its site (the construction phase
 * then finds the site empty and the build lost) or its siege, lifted when no
 * other unit holds it. The order was checked for the player's `abandon`.
 */
export function leaveWork(ctx: TurnContext, unit: UnitState): void {
  // Builds under way are looked up in the turn's starting state: a unit that starts one this turn is held by that order.
  for (const w of WorkIndex.of(ctx.campaign, ctx.start).workOf(unit)) {
    if (w.kind === 'build') ctx.emit({ type: 'work_abandoned', nations: [unit.nation], nation: unit.nation, unit: unit.id, work: 'build', lost: lossText(w) });
  }
  if (!unit.besieging) return;
  const settlement = unit.besieging;
  delete unit.besieging;
  const besieged = ctx.settlement(settlement);
  // Besiegers stand on the settlement's hex (the attack put them there).
  const held = besieged !== undefined && ctx.unitsAt(besieged.hex).some((u) => u.besieging === settlement);
  const name = besieged?.name ?? settlement;
  ctx.emit({ type: 'work_abandoned', nations: [unit.nation], nation: unit.nation, unit: unit.id, work: 'siege', lost: held ? `its place in the siege of ${name}` : `the siege of ${name}` });
  const owner = besieged?.nation;
  const nations = [...new Set([unit.nation, ...(owner ? [owner] : [])])].sort(compareIds);
  if (!held) ctx.emit({ type: 'siege_lifted', nations, settlement, reason: `${unitName(ctx.campaign, unit)} marched away` });
}

/** Walks a unit along its path, taking passengers along when it is a ship. */
export function moveUnit(ctx: TurnContext, unit: UnitState, path: readonly HexKey[], order?: MoveOrder): void {
  const from = unit.hex;
  const to = path.at(-1) ?? from;
  if (to === from) return;
  const passengers = ctx.unitsAt(from).filter((p) => p.aboard === unit.id || order?.carry?.includes(p.id));
  leaveWork(ctx, unit);
  for (const p of passengers) leaveWork(ctx, p);
  ctx.placeUnit(unit, to);
  if (unit.aboard && ctx.map.isLand(to)) delete unit.aboard;
  const carried = passengers.map((p) => p.id);
  ctx.emit({ type: 'unit_moved', nations: [unit.nation], unit: unit.id, from, to, path: [...path], ...(carried.length ? { carried } : {}) });
  for (const p of passengers) {
    const ashore = order?.landAt ?? (ctx.map.isLand(to) ? to : undefined);
    if (ashore) {
      delete p.aboard;
      ctx.placeUnit(p, ashore);
      ctx.emit({ type: 'unit_moved', nations: [p.nation], unit: p.id, from, to: ashore, path: ashore === to ? [...path] : [...path, ashore] });
    } else {
      p.aboard = unit.id;
      ctx.placeUnit(p, to);
    }
  }
}
