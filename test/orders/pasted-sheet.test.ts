import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTextSheet } from '../../src/orders/text-sheet.js';

/**
 * The order sheet a report carries (`<nation>-orders.yaml`), pasted into a mail body or the web desk's form
 * with an order uncommented, is read as the YAML it is: its comment lines between `orders:` and the first
 * order do not make it text.
 */
const SHEET = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'demo-golden', 'turn-1', 'argenta-orders.yaml'), 'utf8');

describe('a pasted order sheet', () => {
  it('with an order uncommented below the sheet\'s own comments is read as YAML', () => {
    const pasted = SHEET.replace('  # - {move: ar-argentum-guard, to: "17,5"}', '  - {move: ar-argentum-guard, to: "17,5"}');
    expect(pasted).not.toBe(SHEET);
    const sheet = readTextSheet(pasted);
    expect(sheet.format).toBe('yaml');
    expect(sheet.problems).toEqual([]);
    expect(sheet.entries).toHaveLength(1);
  });

  it('with nothing uncommented holds no orders and no problems', () => {
    const sheet = readTextSheet(SHEET);
    expect(sheet.entries).toEqual([]);
    expect(sheet.problems).toEqual([]);
  });
});
