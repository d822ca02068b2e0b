import type { Campaign } from '../core/campaign.js';
import { asNationId, type NationId, type UnitId } from '../core/ids.js';
import type { NationOrders, Order, RefusedLine } from '../core/orders.js';
import type { GameState } from '../core/state.js';
import { interpretOrder, type RawFields } from './interpret.js';
import { NameBook } from './names.js';

/**
 * A nation's order sheet as written, in either format, before interpretation:
 * the header (nation, turn, token, casualty priority) and one entry per order
 * with the line it came from.
 */
export interface SheetEntry {
  line?: number;
  text: string;
  fields: RawFields;
}

export interface OrderSheet {
  nation?: string;
  turn?: number;
  token?: string;
  casualties?: string[];
  entries: SheetEntry[];
  /** Problems found while reading (bad YAML, unknown keywords...), with their lines. */
  problems: RefusedLine[];
}

export interface InterpretedSheet {
  orders: NationOrders;
  /** How each accepted-by-the-parser order was read, parallel to orders.orders. */
  texts: string[];
}

/** Resolves names and turns entries into typed orders; refusals stay with their lines. */
export function interpretSheet(sheet: OrderSheet, nation: NationId, campaign: Campaign, state: GameState): InterpretedSheet {
  const book = new NameBook(campaign, state, nation);
  const orders: Order[] = [];
  const lines: number[] = [];
  const texts: string[] = [];
  const refused: RefusedLine[] = [...sheet.problems];
  for (const entry of sheet.entries) {
    const result = interpretOrder(entry.fields, book, campaign);
    if (result.ok) {
      orders.push(result.order);
      lines.push(entry.line ?? 0);
      texts.push(entry.text);
    } else {
      refused.push({ ...(entry.line !== undefined ? { line: entry.line } : {}), text: entry.text, reason: result.reason, ...(result.hint ? { hint: result.hint } : {}) });
    }
  }
  const casualties: UnitId[] = [];
  for (const c of sheet.casualties ?? []) {
    const r = book.ownUnit(c);
    if (r.ok) casualties.push(r.value);
    else refused.push({ text: `casualties: ${c}`, reason: r.reason, ...(r.hint ? { hint: r.hint } : {}) });
  }
  return {
    orders: {
      nation: asNationId(nation),
      turn: sheet.turn ?? state.turn + 1,
      orders,
      lines,
      ...(casualties.length ? { casualties } : {}),
      ...(refused.length ? { refused } : {}),
    },
    texts,
  };
}
