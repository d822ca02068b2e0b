import { isMap, isSeq } from 'yaml';
import { lineAt, lineOf, PLAYER_LIMITS, readYaml } from '../campaign/yaml-io.js';
import type { OrderSheet, SheetEntry } from './sheet.js';

/**
 * Reads a YAML order file (orders/<turn>/<nation>.yaml):
 *
 *   nation: argenta
 *   turn: 3
 *   orders:
 *     - move: Iron Guard
 *       to: 12,7
 *
 * Never throws: whatever is wrong comes back as located problems, and every
 * well-formed order is kept.
 */
export function readYamlSheet(input: string | Uint8Array): OrderSheet {
  const read = readYaml(input, PLAYER_LIMITS);
  const sheet: OrderSheet = { entries: [], problems: [] };
  if (!read.ok) {
    sheet.problems = read.problems.map((p) => ({ ...(p.line !== undefined ? { line: p.line } : {}), text: '(the whole file)', reason: p.message }));
    return sheet;
  }
  const top = read.value;
  if (typeof top !== 'object' || top === null || Array.isArray(top)) {
    sheet.problems.push({ text: '(the whole file)', reason: 'an order file is a map with "nation", "turn" and "orders"' });
    return sheet;
  }
  const head = top as Record<string, unknown>;
  for (const key of Object.keys(head)) {
    if (!['nation', 'turn', 'token', 'casualties', 'orders'].includes(key)) {
      const line = lineAt(read.doc, read.lines, [key]);
      sheet.problems.push({ ...(line !== undefined ? { line } : {}), text: key, reason: `unknown key "${key}"`, hint: 'an order file has nation, turn, token, casualties and orders' });
    }
  }
  if (typeof head.nation === 'string') sheet.nation = head.nation.trim().toLowerCase();
  if (typeof head.turn === 'number' && Number.isInteger(head.turn)) sheet.turn = head.turn;
  else if (head.turn !== undefined) sheet.problems.push({ text: `turn: ${String(head.turn)}`, reason: 'turn must be a whole number' });
  if (head.token !== undefined) sheet.token = String(head.token);
  if (Array.isArray(head.casualties)) sheet.casualties = head.casualties.map(String);

  const ordersNode = read.doc.get('orders', true);
  if (head.orders === undefined || head.orders === null) return sheet;
  if (!isSeq(ordersNode)) {
    sheet.problems.push({ text: 'orders', reason: 'orders must be a list, each item starting with "- "' });
    return sheet;
  }
  ordersNode.items.forEach((item, i) => {
    const line = lineOf(read.lines, (item as { range?: [number] }).range?.[0]);
    const value = (head.orders as unknown[])[i];
    const text = sourceText(input, item as { range?: [number, number] });
    const at = line !== undefined ? { line } : {};
    if (typeof value === 'string') {
      sheet.problems.push({ ...at, text, reason: 'each order is a map like "- move: Iron Guard" with "to: 12,7" below it' });
      return;
    }
    if (!isMap(item) || typeof value !== 'object' || value === null || Array.isArray(value)) {
      sheet.problems.push({ ...at, text, reason: 'each order is a map like "- move: Iron Guard"' });
      return;
    }
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) fields[k.trim().toLowerCase()] = v;
    const entry: SheetEntry = { ...at, text, fields };
    sheet.entries.push(entry);
  });
  return sheet;
}

function sourceText(input: string | Uint8Array, node: { range?: [number, number] }): string {
  const text = typeof input === 'string' ? input : Buffer.from(input).toString('utf8');
  if (!node.range) return '';
  return text.slice(node.range[0], node.range[1]).trim().split('\n').map((l) => l.trim()).join(' ');
}
