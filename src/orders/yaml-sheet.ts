import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { lineAt, lineOf, PLAYER_LIMITS, readYaml, type YamlRead } from '../campaign/yaml-io.js';
import { decodeOrderText, yamlTooDeep } from './input.js';
import { ORDER_KEYS } from './interpret.js';
import { WHOLE_FILE, type OrderSheet, type SheetEntry, type SheetHeader } from './sheet.js';
import { parseOrderLine } from './text-line.js';
import { readYamlFast } from './yaml-sheet-fast.js';
import { canSalvage, salvageYaml } from './yaml-slips.js';

/**
 * Reads a YAML order file (orders/<turn>/<nation>.yaml):
 *
 *   nation: argenta
 *   turn: 3
 *   token: k3x9-tr7q
 *   casualties: [argenta-4, Iron Guard]
 *   orders:
 *     - move: Iron Guard
 *       to: 12,7
 *     - rest argenta-2          # a one-line text order is accepted too
 *
 * Never throws: whatever is wrong comes back as located problems, and every
 * well-formed order is kept. Size, encoding, nesting, anchors/aliases and
 * custom tags are refused before anything is interpreted.
 *
 * Ordinary files take the fast reader (yaml-sheet-fast.ts), which gives the
 * same sheet in a fifth of the time; whatever it is not sure of is read by
 * the strict reader.
 */
export function readYamlSheet(input: string | Uint8Array): OrderSheet {
  return readSheet(input, true);
}

/** The strict reader alone, which the fast one is held to (tests, benchmarks). */
export function readYamlSheetStrict(input: string | Uint8Array): OrderSheet {
  return readSheet(input, false);
}

/**
 * Where the parts of an order file were written: all the interpretation needs
 * from a parser besides the value, so that both readers share it.
 */
export interface YamlLayout {
  /** Line of the value under a top-level key, the key spelt as written. */
  lineOf(key: string): number | undefined;
  /** The items of the list under a top-level key; undefined when its value is not a list. */
  itemsOf(key: string): readonly LaidItem[] | undefined;
}

export interface LaidItem {
  line: number | undefined;
  /** Source offsets of the item (what a receipt quotes as the order's text). */
  range: readonly [number, number] | undefined;
  shape: 'scalar' | 'map' | 'other';
}

function readSheet(input: string | Uint8Array, fast: boolean): OrderSheet {
  const sheet: OrderSheet = { entries: [], problems: [], headerLines: {}, format: 'yaml' };
  const decoded = decodeOrderText(input);
  if (!decoded.ok) {
    sheet.problems.push(decoded.problem);
    return sheet;
  }
  const source = decoded.text;
  const deep = yamlTooDeep(source);
  if (deep !== undefined) {
    sheet.problems.push({ line: deep, text: WHOLE_FILE, reason: 'the YAML is nested far deeper than any order file', hint: 'an order file is a map with nation, turn and a list of orders' });
    return sheet;
  }
  const quick = fast ? readYamlFast(source) : undefined;
  if (quick) return interpret(sheet, source, quick.value, quick.layout);
  const read = readYaml(source, PLAYER_LIMITS);
  if (!read.ok) {
    if (canSalvage(read.problems)) {
      // A slip costs only the order (or header) it is in: yaml-slips.ts.
      const salvaged = salvageYaml(source, read.problems);
      sheet.problems.push(...salvaged.problems);
      return interpret(sheet, source, salvaged.top, salvaged.layout);
    }
    sheet.problems = read.problems.map((p) => ({ ...(p.line !== undefined ? { line: p.line } : {}), text: WHOLE_FILE, reason: p.message }));
    return sheet;
  }
  return interpret(sheet, source, read.value, strictLayout(read));
}

function strictLayout(read: Extract<YamlRead, { ok: true }>): YamlLayout {
  return {
    lineOf: (key) => lineAt(read.doc, read.lines, [key]),
    itemsOf: (key) => {
      const node = read.doc.get(key, true);
      if (!isSeq(node)) return undefined;
      return node.items.map((item) => {
        const range = (item as Node | null)?.range;
        return { line: lineOf(read.lines, range?.[0]), range: range ? [range[0], range[1]] : undefined, shape: isScalar(item) ? 'scalar' : isMap(item) ? 'map' : 'other' };
      });
    },
  };
}

function interpret(sheet: OrderSheet, source: string, top: unknown, layout: YamlLayout): OrderSheet {
  if (typeof top !== 'object' || top === null || Array.isArray(top)) {
    sheet.problems.push({ line: 1, text: WHOLE_FILE, reason: 'an order file is a map with "nation", "turn" and "orders"' });
    return sheet;
  }
  // Top-level keys in any case ("Nation:", "Orders:"), as people paste them into mail.
  const head: Record<string, unknown> = {};
  const written = new Map<string, string>();
  const at = (line: number | undefined) => (line !== undefined ? { line } : {});
  const lineOfKey = (key: string) => layout.lineOf(written.get(key) ?? key);
  for (const [key, value] of Object.entries(top)) {
    const lower = key.trim().toLowerCase();
    if (!['nation', 'turn', 'token', 'casualties', 'orders'].includes(lower)) {
      sheet.problems.push({ ...at(layout.lineOf(key)), text: key, reason: `unknown key "${key}"`, hint: 'an order file has nation, turn, token, casualties and orders' });
    } else if (written.has(lower)) {
      sheet.problems.push({ ...at(layout.lineOf(key)), text: key, reason: `"${lower}" is given twice` });
    } else {
      written.set(lower, key);
      head[lower] = value;
    }
  }
  for (const key of ['nation', 'turn', 'token', 'casualties'] as SheetHeader[]) {
    const line = head[key] === undefined ? undefined : lineOfKey(key);
    if (line !== undefined) (sheet.headerLines as Record<string, number>)[key] = line;
  }
  if (typeof head.nation === 'string' && head.nation.trim()) sheet.nation = head.nation.trim().toLowerCase();
  else if (head.nation !== undefined) sheet.problems.push({ ...at(lineOfKey('nation')), text: `nation: ${short(head.nation)}`, reason: 'nation must be your nation\'s id, e.g. "argenta"' });
  const turn = typeof head.turn === 'string' && /^\s*\d{1,6}\s*$/.test(head.turn) ? Number(head.turn) : head.turn;
  if (typeof turn === 'number' && Number.isSafeInteger(turn) && turn >= 0) sheet.turn = turn;
  else if (head.turn !== undefined) sheet.problems.push({ ...at(lineOfKey('turn')), text: `turn: ${short(head.turn)}`, reason: 'turn must be a whole number' });
  if (typeof head.token === 'string' || typeof head.token === 'number') sheet.token = String(head.token).trim();
  else if (head.token !== undefined) sheet.problems.push({ ...at(lineOfKey('token')), text: 'token', reason: 'token must be a single word' });
  if (Array.isArray(head.casualties) && head.casualties.every((c) => typeof c === 'string' || typeof c === 'number')) sheet.casualties = head.casualties.map(String);
  else if (typeof head.casualties === 'string') sheet.casualties = head.casualties.split(/\s*,\s*/).filter(Boolean);
  else if (head.casualties !== undefined && head.casualties !== null) {
    sheet.problems.push({ ...at(lineOfKey('casualties')), text: 'casualties', reason: 'casualties is a list of your units, first lost first', hint: 'casualties: [argenta-4, Iron Guard]' });
  }

  if (head.orders === undefined || head.orders === null) return sheet;
  const items = layout.itemsOf(written.get('orders') ?? 'orders');
  if (!items) {
    sheet.problems.push({ ...at(lineOfKey('orders')), text: 'orders', reason: 'orders must be a list, each item starting with "- "' });
    return sheet;
  }
  items.forEach((item, i) => {
    const value = (head.orders as unknown[])[i];
    const text = sourceText(source, item.range);
    if (typeof value === 'string' && item.shape === 'scalar') {
      // "- rest argenta-2": a text order inside the YAML list.
      const parsed = parseOrderLine(value);
      if (parsed.kind === 'order') sheet.entries.push(entryOf(item.line, text, parsed.fields));
      else if (parsed.kind === 'problem') sheet.problems.push({ ...at(item.line), text, reason: parsed.reason, ...(parsed.hint ? { hint: parsed.hint } : {}), ...(parsed.unknownVerb ? { unknownVerb: parsed.unknownVerb } : {}) });
      else sheet.problems.push({ ...at(item.line), text, reason: 'each order is a map like "- move: Iron Guard" with "to: 12,7" below it, or one text order like "- rest argenta-2"' });
      return;
    }
    if (item.shape !== 'map' || typeof value !== 'object' || value === null || Array.isArray(value)) {
      sheet.problems.push({ ...at(item.line), text, reason: 'each order is a map like "- move: Iron Guard" with "to: 12,7" below it' });
      return;
    }
    const split = text.startsWith('{') ? splitHex(text, value as Record<string, unknown>) : undefined;
    if (split) {
      sheet.problems.push({ ...at(item.line), text, ...split });
      return;
    }
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) fields[k.trim().toLowerCase()] = v;
    const asWritten = writtenAs(fields);
    sheet.entries.push(entryOf(asWritten.line ?? item.line, asWritten.text ?? text, kindFirst(fields)));
  });
  return sheet;
}

/** An order's entry, built whole: spreading its line's object (`at`: either of two shapes) into it was a third of reading a sheet. */
function entryOf(line: number | undefined, text: string, fields: SheetEntry['fields']): SheetEntry {
  return line !== undefined ? { line, text, fields } : { text, fields };
}

/**
 * Orders filed from a mail keep where and how the player wrote them (yaml-write.ts): `line` is the line of
 * the mail, `written` the order as typed. They are taken out of the fields, so that every message about the
 * order (receipts of "show orders", the report's refusals) quotes the player's own line and number.
 */
function writtenAs(fields: Record<string, unknown>): { line?: number; text?: string } {
  const out: { line?: number; text?: string } = {};
  const line = fields.line;
  if (typeof line === 'number' && Number.isSafeInteger(line) && line > 0) {
    out.line = line;
    delete fields.line;
  }
  const written = fields.written;
  if (typeof written === 'string' && written.trim() !== '') {
    out.text = written.length > 200 ? `${written.slice(0, 199)}…` : written;
    delete fields.written;
  }
  return out;
}

/** Keys that name an order kind and are never another kind's field ("support" is both). */
const ORDER_KINDS = new Set(Object.keys(ORDER_KEYS).filter((k) => !Object.values(ORDER_KEYS).some((extra) => extra.includes(k))));

/**
 * The interpreter reads the order kind from the first key; a YAML map written
 * "to: 12,7" before "move: Iron Guard" still means a move.
 */
function kindFirst(fields: Record<string, unknown>): Record<string, unknown> {
  const kinds = Object.keys(fields).filter((k) => ORDER_KINDS.has(k));
  const kind = kinds.length === 1 ? kinds[0] : undefined;
  if (kind === undefined || Object.keys(fields)[0] === kind) return fields;
  const { [kind]: subject, ...rest } = fields;
  return { [kind]: subject, ...rest };
}

/**
 * "{move: Iron Guard, to: 17,9}": inside braces a comma ends each part, so
 * YAML reads "to: 17" and a key "9" with no value. Said as what it is,
 * rather than as an unknown key "9".
 */
function splitHex(text: string, value: Record<string, unknown>): { reason: string; hint: string } | undefined {
  if (!Object.entries(value).some(([k, v]) => /^\d+$/.test(k.trim()) && v === null)) return undefined;
  const m = /([A-Za-z]+)\s*:\s*(-?\d+)\s*,\s*(\d+)\s*(?=[,}])/.exec(text);
  if (!m) return undefined;
  const [, key, col, row] = m;
  return {
    reason: `inside { } a comma ends each part of the order, so "${key}: ${col},${row}" reads as "${key}: ${col}" and a stray "${row}"`,
    hint: `put the hex in quotes, ${key}: "${col},${row}", or write the order over several lines without the braces`,
  };
}

function short(value: unknown): string {
  const s = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return s.length > 40 ? `${s.slice(0, 39)}…` : s;
}

function sourceText(source: string, range: readonly [number, number] | undefined): string {
  if (!range) return '';
  const t = source
    .slice(range[0], range[1])
    .trim()
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .join(' ');
  return t.length > 200 ? `${t.slice(0, 199)}…` : t;
}
