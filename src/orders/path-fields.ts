import type { HexKey } from '../core/ids.js';
import type { NameBook } from './names.js';
import { Refusal, take, text } from './fields.js';

/**
 * A move's path as written (interpret.ts): hexes and place names in YAML lists or a line of text,
 * coordinates written as two numbers put back together.
 */

/** Paths: "11,7 12,7", "11,7 -> 12,7", or a list of hexes and place names. */
export function path(value: unknown, book: NameBook): HexKey[] | undefined {
  if (value === undefined || value === null) return undefined;
  const parts = Array.isArray(value) ? pairNumbers(value).map((v) => text(v, 'path')) : pathItems(text(value, 'path'));
  if (parts.length > 64) throw new Refusal(`a path of ${parts.length} hexes is longer than any unit can move`);
  return parts.map((p) => take(book.hex(p)));
}

/**
 * YAML reads the flow list [11,7, 12,7] as four numbers, not two hexes:
 * consecutive whole numbers are paired back into "col,row".
 */
function pairNumbers(items: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    const a = items[i];
    const b = items[i + 1];
    if (Number.isInteger(a) && Number.isInteger(b)) {
      out.push(`${a as number},${b as number}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/**
 * Splits a written path into hexes and place names: "11,7 12,7",
 * "11, 7 -> 12,7", "11,7,12,7", "Silver vein, 9,3 then 9,4".
 */
export function pathItems(written: string): string[] {
  const pieces = written
    .replace(/(\d+)\s*,\s*(\d+)/g, '$1,$2')
    .split(/\s*(?:->|→|;|\s)\s*/)
    .filter(Boolean);
  const items: string[] = [];
  let name: string[] = [];
  const flush = () => {
    if (name.length) items.push(name.join(' '));
    name = [];
  };
  for (const piece of pieces) {
    const bare = piece.replace(/^,+|,+$/g, '');
    if (/^\d+,\d+(?:,\d+,\d+)*$/.test(bare)) {
      flush();
      const n = bare.split(',');
      for (let i = 0; i + 1 < n.length; i += 2) items.push(`${n[i]},${n[i + 1]}`);
      continue;
    }
    if (!bare || /^(?:and|then)$/i.test(bare)) {
      flush();
      continue;
    }
    name.push(bare);
    if (piece.endsWith(',')) flush();
  }
  flush();
  return items;
}
