import type { HexKey, UnitId } from '../ids.js';
import type { Order } from '../orders.js';
import type { UnitWork } from '../work.js';

/**
 * What a checker says of one order. A rejection is data (never an exception):
 * it becomes a receipt line before the deadline and an event after it.
 */
export type Verdict = Accepted | Rejected;

export interface Accepted {
  ok: true;
  /** Renown paid up front, in listing order. */
  renown?: number;
  /** Fate reserved for the roll this order makes. */
  fate?: number;
  /** Units this order uses: each unit takes one order a turn. */
  claims: UnitId[];
  /** Limited per-turn slots (e.g. one military build per settlement). */
  slots?: Slot[];
  path?: HexKey[];
  /** Work in progress the order ends (the player said so, or rules.abandonWork allows it): the receipt warns. */
  abandons?: UnitWork[];
  /** How the order was understood, for the receipt. */
  summary: string;
  /** The order as it will be carried out, when the checker left part of it out (a supporter that cannot reach). */
  order?: Order;
  /** What was left out and why: a warning on the receipt, a refusal line in the report. */
  warnings?: string[];
}

export interface Slot {
  key: string;
  limit: number;
  label: string;
}

export interface Rejected {
  ok: false;
  reason: string;
  /** What would be valid, or a "did you mean". */
  hint?: string;
}

export const reject = (reason: string, hint?: string): Rejected => (hint ? { ok: false, reason, hint } : { ok: false, reason });
