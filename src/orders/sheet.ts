import type { Campaign } from '../core/campaign.js';
import { asNationId, type NationId, type UnitId } from '../core/ids.js';
import type { NationOrders, Order, RefusedLine } from '../core/orders.js';
import type { GameState } from '../core/state.js';
import { unsafeCharacter } from '../campaign/unsafe-text.js';
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

export type SheetHeader = 'nation' | 'turn' | 'token' | 'casualties';

export interface OrderSheet {
  nation?: string;
  turn?: number;
  token?: string;
  casualties?: string[];
  entries: SheetEntry[];
  /** Problems found while reading (bad YAML, unknown keywords...), with their lines. */
  problems: RefusedLine[];
  /** Where each header was written, so a wrong turn or token points at its line. */
  headerLines?: Partial<Record<SheetHeader, number>>;
  /** Which reader produced the sheet. */
  format?: 'yaml' | 'text';
}

/**
 * More orders than this in one sheet are not read: no nation has that many
 * units, and it keeps a hostile file from costing much to check.
 */
export const MAX_ORDERS = 500;

/** The text a problem about the whole file carries instead of a line. */
export const WHOLE_FILE = '(the whole file)';

export interface InterpretedSheet {
  orders: NationOrders;
  /** How each accepted-by-the-parser order was written, parallel to orders.orders. */
  texts: string[];
}

/** Resolves names and turns entries into typed orders; refusals stay with their lines. */
export function interpretSheet(sheet: OrderSheet, nation: NationId, campaign: Campaign, state: GameState): InterpretedSheet {
  const book = new NameBook(campaign, state, nation);
  const orders: Order[] = [];
  const lines: number[] = [];
  const texts: string[] = [];
  const refused: RefusedLine[] = [...sheet.problems];
  sheet.entries.forEach((entry, i) => {
    const at = entry.line !== undefined ? { line: entry.line } : {};
    if (i === MAX_ORDERS) refused.push({ ...at, text: entry.text, reason: `only the first ${MAX_ORDERS} orders are read; this one and the rest are ignored` });
    if (i >= MAX_ORDERS) return;
    const result = interpretOrder(entry.fields, book, campaign);
    if (result.ok) {
      orders.push(result.order);
      lines.push(entry.line ?? 0);
      texts.push(entry.text);
    } else {
      refused.push({ ...at, text: entry.text, reason: result.reason, ...(result.hint ? { hint: result.hint } : {}) });
    }
  });
  const casualties: UnitId[] = [];
  const casualtyLine = sheet.headerLines?.casualties;
  for (const c of sheet.casualties ?? []) {
    const unsafe = unsafeCharacter(c);
    const r = unsafe ? ({ ok: false, reason: `the name holds ${unsafe.label} at character ${unsafe.index + 1}`, hint: 'a unit is named by one line of plain visible text' } as const) : book.ownUnit(c);
    if (!r.ok) refused.push({ ...(casualtyLine !== undefined ? { line: casualtyLine } : {}), text: `casualties: ${c}`, reason: r.reason, ...(r.hint ? { hint: r.hint } : {}) });
    else if (!casualties.includes(r.value)) casualties.push(r.value);
  }
  return {
    orders: {
      nation: asNationId(nation),
      turn: sheet.turn ?? state.turn + 1,
      orders,
      lines,
      texts,
      ...(casualties.length ? { casualties } : {}),
      ...(refused.length ? { refused } : {}),
    },
    texts,
  };
}
