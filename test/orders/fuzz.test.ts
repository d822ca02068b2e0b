import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildReceipt, type OrderReceipt } from '../../src/orders/receipt.js';
import { WHOLE_FILE, type OrderSheet } from '../../src/orders/sheet.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import { ARGENTA, FIXTURES, loadWorld, type World } from './world.js';
import { binaryString } from '../support/binary-string.js';

/**
 * Random input never crashes the readers, the interpreter or the receipt,
 * and everything that comes out is either an order (with its line) or a
 * problem located on a line (or, for a refusal of the whole file, saying so).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const VALID_TEXT = readFileSync(join(FIXTURES, 'equivalence', 'argenta.txt'), 'utf8');
const VALID_YAML = readFileSync(join(FIXTURES, 'equivalence', 'argenta.yaml'), 'utf8');

let world: World;
beforeAll(async () => {
  world = await loadWorld();
});

function receiptOf(sheet: OrderSheet): OrderReceipt {
  return buildReceipt({ campaign: world.open.campaign, state: world.state, sheet, nation: ARGENTA }).receipt;
}

const located = (p: { line?: number; text: string }) => (p.line !== undefined && Number.isInteger(p.line) && p.line >= 1) || p.text === WHOLE_FILE;

/** Reads, interprets and checks the input both ways; throws (failing the property) on any broken invariant. */
function checkAll(input: string | Uint8Array): void {
  for (const read of [readTextSheet, readYamlSheet]) {
    const sheet = read(input);
    for (const p of sheet.problems) expect(located(p), JSON.stringify(p)).toBe(true);
    for (const e of sheet.entries) expect(e.line, e.text).toBeGreaterThanOrEqual(1);
    const receipt = receiptOf(sheet);
    for (const o of receipt.accepted) expect(o.line, o.text).toBeGreaterThanOrEqual(1);
    for (const p of receipt.problems) expect(located(p), JSON.stringify(p)).toBe(true);
    expect(receipt.ok).toBe(receipt.problems.length === 0 && receipt.refusedWhole === undefined);
  }
}

/** Edits a valid sheet the way hands and mail clients do: typos, lost words, doubled lines, stray bytes. */
const mutation = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: binaryString({ maxLength: 8 }) }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(' to ', ' with ', ' fate 9', '"', ',', ' and ', '\n', '#', '>', '-- \n', ': ', '  - ', '[', '&a ', '*a', '!!js/function ', '\t') }),
  fc.record({ op: fc.constant('swapLines' as const), at: fc.nat(), other: fc.nat() }),
  fc.record({ op: fc.constant('dupLine' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('dropLine' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('upper' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 30 }) }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(text: string, m: Mutation): string {
  const at = text.length ? m.at % (text.length + 1) : 0;
  const lines = text.split('\n');
  const li = lines.length ? m.at % lines.length : 0;
  switch (m.op) {
    case 'delete':
      return text.slice(0, at) + text.slice(at + m.length);
    case 'insert':
      return text.slice(0, at) + m.text + text.slice(at);
    case 'upper':
      return text.slice(0, at) + text.slice(at, at + m.length).toUpperCase() + text.slice(at + m.length);
    case 'truncate':
      return text.slice(0, at);
    case 'dupLine':
      lines.splice(li, 0, lines[li] ?? '');
      return lines.join('\n');
    case 'dropLine':
      lines.splice(li, 1);
      return lines.join('\n');
    case 'swapLines': {
      const lj = lines.length ? m.other % lines.length : 0;
      [lines[li], lines[lj]] = [lines[lj] ?? '', lines[li] ?? ''];
      return lines.join('\n');
    }
  }
}

describe('fuzzing the order readers', () => {
  it('random strings', () => {
    fc.assert(fc.property(binaryString({ maxLength: 600 }), (s) => checkAll(s)), { numRuns: RUNS });
  });

  it('random strings made of order words', () => {
    const word = fc.constantFrom('move', 'attack', 'with', 'to', 'via', 'supported', 'by', 'fate', 'Iron', 'Guard', 'argenta-2', 'gondarahl-3', '6,5', '"', ',', 'and', 'build', 'in', 'Argentum', 'structure', 'battlement', '+1', 'Turn:', '4', 'Nation:', 'note', 'casualties', 'orders:', '-', '\n', '#', 'attacks', 'moves', 'siege', 'assault', 'sortie', 'against');
    fc.assert(fc.property(fc.array(word, { maxLength: 60 }), (words) => checkAll(words.join(' '))), { numRuns: RUNS });
  });

  it('random bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => checkAll(bytes)), { numRuns: RUNS });
  });

  it('random mutations of a valid text mail', () => {
    fc.assert(fc.property(fc.array(mutation, { minLength: 1, maxLength: 6 }), (ms) => checkAll(ms.reduce(mutate, VALID_TEXT))), { numRuns: RUNS });
  });

  it('random mutations of a valid YAML file', () => {
    fc.assert(fc.property(fc.array(mutation, { minLength: 1, maxLength: 6 }), (ms) => checkAll(ms.reduce(mutate, VALID_YAML))), { numRuns: RUNS });
  });

  it('the unmutated sheets are all valid (so mutations start from a good place)', () => {
    expect(receiptOf(readTextSheet(VALID_TEXT)).problems).toEqual([]);
    expect(receiptOf(readYamlSheet(VALID_YAML)).problems).toEqual([]);
  });
});
