import type { Campaign } from '../core/campaign.js';
import { asNationId, type NationId, type UnitId } from '../core/ids.js';
import type { NationOrders, Order, RefusedLine } from '../core/orders.js';
import type { GameState } from '../core/state.js';
import { unsafeCharacter } from '../text/unsafe-text.js';
import { interpretOrder, type RawFields } from './interpret.js';
import { NameBook } from './names.js';
import { actionLine, type ActionVerb } from './text-line.js';
import { LINE_KEYWORDS } from './line-forms.js';
import { editDistance } from '../text/suggest.js';

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

/** A line the reader could not make into an order; `unknownVerb`: its words, for the campaign's action verbs to try. */
export interface SheetProblem extends RefusedLine {
  unknownVerb?: string;
  /** The message's first line, before any order or header: talk there ("sorry, token typo. again:") is a note to the GM. */
  opening?: true;
}

export type SheetHeader = 'nation' | 'turn' | 'token' | 'casualties';

export interface OrderSheet {
  nation?: string;
  turn?: number;
  token?: string;
  casualties?: string[];
  entries: SheetEntry[];
  /** Problems found while reading (bad YAML, unknown keywords...), with their lines. */
  problems: SheetProblem[];
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

/** The campaign's actions as verbs a line may use after the unit: verb, name and id (longest first). */
const verbsOf = new WeakMap<object, ActionVerb[]>();
function actionVerbs(campaign: Campaign): ActionVerb[] {
  const catalogue = campaign.actions;
  if (!catalogue) return [];
  let verbs = verbsOf.get(catalogue);
  if (!verbs) {
    const words = (s: string) => s.toLowerCase().replace(/[-_]+/g, ' ').split(/\s+/).filter(Boolean);
    verbs = Object.values(catalogue.entries).flatMap((a) => [a.verb, a.name, a.id].map((p, i) => ({ action: a.id, words: words(p), verb: i === 0 })));
    verbsOf.set(catalogue, verbs);
  }
  return verbs;
}

/**
 * Lines no fixed order fits are tried against the campaign's action verbs
 * ("Whisperer Lisane spies on Gondarahl"); those that fit join the entries
 * in line order, the rest stay problems (without the words kept for this).
 */
function withActionLines(sheet: OrderSheet, campaign: Campaign): { entries: SheetEntry[]; problems: RefusedLine[] } {
  if (!sheet.problems.some((p) => p.unknownVerb)) return { entries: sheet.entries, problems: sheet.problems.map(plainProblem) };
  const verbs = actionVerbs(campaign);
  const found: SheetEntry[] = [];
  const problems: RefusedLine[] = [];
  for (const p of sheet.problems) {
    const read = p.unknownVerb && verbs.length ? actionLine(p.unknownVerb, verbs) : undefined;
    if (read?.kind === 'order') found.push({ ...(p.line !== undefined ? { line: p.line } : {}), text: p.text, fields: read.fields });
    else if (p.opening && p.unknownVerb !== undefined && isTalk(p.unknownVerb)) found.push({ ...(p.line !== undefined ? { line: p.line } : {}), text: p.text, fields: { note: p.unknownVerb } });
    else if (read?.kind === 'problem') problems.push({ ...plainProblem(p), reason: read.reason, ...(read.hint ? { hint: read.hint } : {}) });
    else problems.push(plainProblem(p));
  }
  if (!found.length) return { entries: sheet.entries, problems };
  const entries = [...sheet.entries, ...found].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { entries, problems };
}

/** Whether a sheet with no fixed orders still holds lines the campaign's action verbs read as orders (the mailroom asks). */
export function hasActionLines(sheet: OrderSheet, campaign: Campaign): boolean {
  if (!sheet.problems.some((p) => p.unknownVerb)) return false;
  // Only an action's own verb counts here: a chatty mail that says "trade" must not pass for orders.
  const verbs = actionVerbs(campaign).filter((v) => v.verb);
  return sheet.problems.some((p) => p.unknownVerb !== undefined && actionLine(p.unknownVerb, verbs)?.kind === 'order');
}

function plainProblem(p: SheetProblem): RefusedLine {
  const { unknownVerb: _, opening: _opening, ...rest } = p;
  return rest;
}

/**
 * A first line that is talk, not a slipped order: written as a sentence (a comma, a full stop, a colon or a
 * question mark between words or at its end), with no coordinates in it, and a first word not one letter off
 * an order's ("mvoe" stays a problem). Words alone ("Iron Guard charges gondarahl-3", "Please move my
 * troops") may be an order the reader did not know, so they stay a problem, with a suggestion.
 */
function isTalk(text: string): boolean {
  const first = /^[^\p{L}]*(\p{L}+)/u.exec(text)?.[1]?.toLowerCase();
  if (!first || /\b\d+,\d+\b/.test(text)) return false;
  if (LINE_KEYWORDS.some((k) => editDistance(first, k) <= 1 || (first.length === k.length && [...first].sort().join('') === [...k].sort().join('')))) return false;
  return /[,.!?:;](?:\s|$)/.test(text);
}

/** Resolves names and turns entries into typed orders; refusals stay with their lines. */
export function interpretSheet(sheet: OrderSheet, nation: NationId, campaign: Campaign, state: GameState): InterpretedSheet {
  const book = new NameBook(campaign, state, nation);
  const orders: Order[] = [];
  const lines: number[] = [];
  const texts: string[] = [];
  const { entries, problems } = withActionLines(sheet, campaign);
  const refused: RefusedLine[] = problems;
  entries.forEach((entry, i) => {
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
