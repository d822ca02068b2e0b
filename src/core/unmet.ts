import { describeOrder } from './checks/index.js';
import type { AcceptedOrder, TurnContext } from './context.js';
import type { UnitId } from './ids.js';
import type { UnitState } from './state.js';
import { unitName } from './unit-name.js';

/**
 * Every way an order that passed its checks in the orders phase can still
 * not happen in the resolution, in whole or in part. The receipt told the
 * player it would be carried out; the report must say that it was not, and
 * why (`order_unmet`, listed under "Orders that did not happen"). A new way
 * is a new entry here, and test/report/orders-unmet.test.ts plays each.
 */
export const UNMET_WHY = [
  /** A move: a pursuer that attacked the unit caught it, so it stayed where it was. */
  'caught',
  /** An attack on a unit: the target moved away and outran its attacker. */
  'target_escaped',
  /** The unit was lost earlier in the turn (in a battle, a sortie, at sea) before its order came. */
  'unit_lost',
  /** An attack or sortie: its target was already destroyed. */
  'target_lost',
  /** An attack: the two units had already fought each other this turn. */
  'fought_already',
  /** An attack on a settlement or structure that had become the attacker's own. */
  'already_yours',
  /** A siege action or assault whose siege was over, or a sortie against a unit no longer besieging. */
  'siege_over',
  /** A siege action with no battlement left to destroy: another besieger took the last first. */
  'no_battlement',
  /** An assault on an empty settlement without infantry to take it. */
  'no_infantry',
  /** In part: an attack or assault fought without a supporter lost earlier in the turn. */
  'supporter_lost',
  /** A rest: the unit fought this turn and could not heal. */
  'fought',
] as const;

export type UnmetWhy = (typeof UNMET_WHY)[number];

/**
 * Records that an accepted order did not happen (or only in part): `reason`
 * says it in words, starting with what did not happen ("did not move: caught
 * by … at 7,2"). The order is quoted as the nation wrote it, with its line.
 */
export function orderUnmet(ctx: TurnContext, a: AcceptedOrder, why: UnmetWhy, reason: string): void {
  const sent = ctx.orders.nations[a.nation];
  const line = sent?.lines?.[a.index];
  const order = sent?.texts?.[a.index] || describeOrder(sent?.orders[a.index] ?? a.order);
  ctx.emit({ type: 'order_unmet', nations: [a.nation], nation: a.nation, index: a.index, ...(line !== undefined ? { line } : {}), order, why, reason });
}

/** A unit as the order's nation reads of it: "Cavalry 'Storm Riders' of Kingdom of Gondarahl" for another nation's. */
export function unitOf(ctx: TurnContext, unit: UnitState, reader: AcceptedOrder['nation']): string {
  const name = unitName(ctx.campaign, unit);
  return unit.nation === reader ? name : `${name} of ${ctx.campaign.nations[unit.nation]?.name ?? unit.nation}`;
}

/** A unit gone from the state by now, named as the turn started: "Marines 'Iron Guard'". */
export function lostName(ctx: TurnContext, id: UnitId, reader?: AcceptedOrder['nation']): string {
  const was = ctx.start.units[id];
  if (!was) return id;
  return reader === undefined ? unitName(ctx.campaign, was) : unitOf(ctx, was, reader);
}

/**
 * The supporters of an attack or assault still there to fight; one lost
 * earlier in the turn is left out, and the order told so (it went ahead in part).
 */
export function supportersLeft(ctx: TurnContext, a: AcceptedOrder, support: readonly UnitId[] | undefined, fits: (u: UnitState) => boolean = () => true, gone = 'was lost earlier this turn'): UnitState[] {
  const left: UnitState[] = [];
  for (const id of support ?? []) {
    const u = ctx.unit(id);
    if (u && fits(u)) left.push(u);
    else orderUnmet(ctx, a, 'supporter_lost', `went ahead without ${u ? unitName(ctx.campaign, u) : lostName(ctx, id)}, which ${gone}`);
  }
  return left;
}
