import { describeOrder } from './checks/index.js';
import type { AcceptedOrder, TurnContext } from './context.js';

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
