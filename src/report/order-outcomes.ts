import type { LoggedEvent } from '../core/events.js';
import type { NationId } from '../core/ids.js';
import type { NationOrders } from '../core/orders.js';
import type { OrderTally, RejectedOrder } from './types.js';

/**
 * What became of a nation's orders this turn, each in one of four states told
 * apart everywhere (the report's head and glance block, its lists, the GM's
 * table): carried out; carried out with a warning (a supporter left out: the
 * order went ahead); accepted but did not happen in the resolution (a move
 * caught by a pursuer); refused. An order counts once, in the worst state it
 * reached: refused, then did not happen, then warned.
 */
export interface OrderOutcomes {
  /** null: the nation sent no orders this turn. */
  tally: OrderTally | null;
  refused: RejectedOrder[];
  warned: RejectedOrder[];
  unmet: RejectedOrder[];
}

type Told = Extract<LoggedEvent, { type: 'order_rejected' | 'order_warned' | 'order_unmet' }>;

const entry = (e: Told): RejectedOrder => ({ line: e.line ?? null, order: e.order, reason: e.reason });

/** The outcomes of one nation's orders, from the events it took part in and the orders it sent (when at hand). */
export function orderOutcomes(mine: readonly LoggedEvent[], nation: NationId, sent: NationOrders | undefined): OrderOutcomes {
  const refused: RejectedOrder[] = [];
  const warned: RejectedOrder[] = [];
  const unmet: RejectedOrder[] = [];
  const refusedAt = new Set<number>();
  const unmetAt = new Set<number>();
  const warnedAt = new Set<number>();
  // Refusals of what could not be read as an order at all carry no index: each is one order refused.
  let unread = 0;
  for (const e of mine) {
    if (e.type === 'order_rejected' && e.nation === nation) {
      refused.push(entry(e));
      if (e.index === undefined) unread += 1;
      else refusedAt.add(e.index);
    } else if (e.type === 'order_warned' && e.nation === nation) {
      warned.push(entry(e));
      warnedAt.add(e.index);
    } else if (e.type === 'order_unmet' && e.nation === nation) {
      unmet.push(entry(e));
      unmetAt.add(e.index);
    }
  }
  const nmr = sent === undefined && mine.some((e) => e.type === 'nmr' && e.nation === nation);
  if (nmr || (sent === undefined && refused.length === 0)) return { tally: null, refused, warned, unmet };
  const tally: OrderTally = { carriedOut: 0, warned: 0, unmet: 0, refused: unread };
  const count = Math.max(sent?.orders.length ?? 0, ...[...refusedAt, ...unmetAt, ...warnedAt].map((i) => i + 1));
  for (let i = 0; i < count; i++) {
    if (refusedAt.has(i)) tally.refused += 1;
    else if (unmetAt.has(i)) tally.unmet += 1;
    else if (warnedAt.has(i)) tally.warned += 1;
    else tally.carriedOut += 1;
  }
  return { tally, refused, warned, unmet };
}

/** "4 carried out, 1 carried out with a warning, 1 did not happen, 1 refused": the states that are not zero. */
export function tallyParts(tally: OrderTally): string {
  const parts: string[] = [];
  if (tally.carriedOut || (!tally.warned && !tally.unmet && !tally.refused)) parts.push(`${tally.carriedOut} carried out`);
  if (tally.warned) parts.push(`${tally.warned} carried out with a warning`);
  if (tally.unmet) parts.push(`${tally.unmet} did not happen`);
  if (tally.refused) parts.push(`${tally.refused} refused`);
  return parts.join(', ');
}

/** The report's head: "Orders: 4 carried out, 1 refused." */
export const tallyText = (tally: OrderTally | null): string => `Orders: ${tallyWords(tally)}.`;

/** The same without the heading, for a table cell: "4 carried out, 1 refused", "none received". */
export const tallyWords = (tally: OrderTally | null): string => (tally ? tallyParts(tally) : 'none received');

/** The glance block's alerts for orders that need reading again, worst first. */
export function tallyAlerts(tally: OrderTally | null): string[] {
  if (!tally) return [];
  const alerts: string[] = [];
  const was = (n: number) => (n === 1 ? 'One order was' : `${n} orders were`);
  if (tally.refused) alerts.push(`${was(tally.refused)} refused: see "Orders refused".`);
  if (tally.unmet) alerts.push(`${tally.unmet === 1 ? 'One order' : `${tally.unmet} orders`} did not happen: see "Orders that did not happen".`);
  if (tally.warned) alerts.push(`${was(tally.warned)} carried out with a warning: see "Orders carried out with a warning".`);
  return alerts;
}
