import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import jsyaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { stateYaml, stateYamlBytes } from '../../src/campaign/store.js';
import { writeYaml, writeYamlBytes } from '../../src/campaign/yaml-write.js';
import type { GameState } from '../../src/core/state.js';
import { binaryString } from '../support/binary-string.js';
import { stateYamlBefore, writeYamlBefore } from '../support/yaml-write-before.js';

/**
 * The writer writes straight into bytes now; every file must stay byte for byte what the writer before it
 * wrote (test/support/yaml-write-before.ts), as a string and as the bytes written to disk.
 */
const same = (v: unknown) => {
  const before = writeYamlBefore(v);
  expect(writeYaml(v)).toBe(before);
  expect(writeYamlBytes(v).equals(Buffer.from(before, 'utf8'))).toBe(true);
};

/** Strings a plain scalar may not hold, or only in some places: indicators, look-alikes of other types, breaks. */
const hostile = fc.constantFrom(
  '', ' ', 'a ', 'a  ', ' a', 'a:', 'a:b', 'a: b', 'a :b', 'a::', 'a:\tb', 'a #b', 'a#b', 'a# b', 'a\t#b', "it's", "'a'", 'a"b', 'a\\b',
  'null', 'Null', 'NULL', 'nULL', 'nul', 'true', 'True', 'TRUE', 'tRUE', 'false', 'False', 'FALSE', 'y', 'Y', 'n', 'N', 'yes', 'Yes', 'YES', 'yES',
  'no', 'No', 'NO', 'on', 'On', 'ON', 'off', 'Off', 'OFF', 'o', 'of', 'nullx', 'trueish', 'False1', '~', '-', '?', ':', '#', '!a', '&a', '*a', '%a', '@a', '`a',
  '1', '-1', '+1', '0x1f', '0o17', '0b101', '1_000', '1.5', '.5', '1e5', '.inf', '-.Inf', '.nan', '12:30', '1:2:3.5', '1,2', '13,6', '1,2,3', '1, 2',
  'n0000', 'n0000-u16', 'attack: n0000-u16', 'move: n0000-u3 to: 1,2', 'a\nb', 'a\n', '\na', 'a\r\nb', 'tab\there', 'é', 'Ærø — 北京', '\u00a0x', 'x\u2028y',
  '\ufeffbom', 'emoji 🐉', 'bell\u0007', 'del\u007f', 'c1\u0085', '\ud800', 'a\udc00b', 'x'.repeat(1100), `k${'y'.repeat(1030)}`, '__proto__', 'constructor',
);
const text = fc.oneof(
  hostile,
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  binaryString({ maxLength: 8 }),
  fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9 ,.:#'()/_-]{0,14}$/),
  fc.stringMatching(/^[-+.0-9~nNtTfFyYoO][a-zA-Z0-9 ,.:_]{0,6}$/),
);
const numbers = fc.oneof(fc.integer(), fc.nat(), fc.double(), fc.constantFrom(0, -0, 9, 10, 99, 100, 4095, 4096, 1e15 - 1, 1e15, 1e21, 2 ** 53, 0.1, -1.5, NaN, Infinity, -Infinity, 1e-7));
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, text, numbers, fc.boolean(), fc.constant(null), fc.constant(undefined), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(text, tie('value'), { maxKeys: 5 }),
}));

describe('the byte writer against the writer before it', () => {
  it('writes any plain data the same', () => {
    fc.assert(fc.property(value, same), { numRuns: 4000 });
  });

  it('writes every hostile string the same, as a value, a key and a list item, at every depth, met once and again', () => {
    fc.assert(
      fc.property(hostile, text, (s, t) => {
        for (const v of [s, { [s]: s }, [s], { a: { b: [s, { c: s }] } }, [[s], [[s]]], [{ [s]: 1, [t]: s }, { [s]: [s], [t]: {} }, { [t]: t, [s]: { [s]: s } }]]) same(v);
      }),
      { numRuns: 600 },
    );
  });

  it('writes many mappings of the same keys and big lists the same (keys met again, blocks filled)', () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.constantFrom('id', 'hex', 'a b', 'y', '1', 'é', 'k: v'), value, { maxKeys: 4 }), { minLength: 1, maxLength: 40 }), (list) => {
        same(list);
        same({ events: list, again: list });
      }),
      { numRuns: 200 },
    );
    const big = Array.from({ length: 30_000 }, (_, i) => ({ seq: i, id: `n${i}-u${i % 7}`, reason: `Ærø ${'x'.repeat(i % 300)}: ${i}`, hex: `${i % 13},${i % 17}`, f: i / 7 }));
    same({ turn: 1, events: big });
  });

  it('writes a state the same, its records in sorted order, array-index ids and undefined entries included', () => {
    const record = fc.dictionary(fc.oneof(text, fc.constantFrom('0', '1', '10', '2', '01', '-1', '4294967294', '4294967295', 'a1')), fc.oneof(value, fc.constant(undefined)), { maxKeys: 12 });
    fc.assert(
      fc.property(record, record, record, record, fc.option(fc.array(value, { maxLength: 2 })), (nations, settlements, externals, units, aspects) => {
        const state = { turn: 3, seq: 41, nations, settlements, externals, units, builds: [], ...(aspects ? { aspects, tradeRoutes: aspects } : {}) };
        const before = stateYamlBefore(state);
        expect(stateYaml(state as unknown as GameState)).toBe(before);
        expect(stateYamlBytes(state as unknown as GameState).equals(Buffer.from(before, 'utf8'))).toBe(true);
      }),
      { numRuns: 800 },
    );
  });

  it('hands what is not plain data to js-yaml the same', () => {
    for (const v of [{ when: 1.5e300 }, { n: -0 }, [NaN], { [`a\nb`]: 1 }, { ['k'.repeat(1025)]: 1 }]) same(v);
    for (const v of [{ f: () => 1 }, { d: new Date(0) }, [Symbol('s')]]) {
      expect(() => writeYamlBefore(v)).toThrow(/unacceptable kind/);
      expect(() => writeYaml(v)).toThrow(/unacceptable kind/);
      expect(() => writeYamlBytes(v)).toThrow(/unacceptable kind/);
    }
  });

  it('writes every YAML file under campaigns/ and test/ the same', () => {
    const root = join(import.meta.dirname, '../..');
    let written = 0;
    for (const dir of ['campaigns', 'test']) {
      for (const file of yamlFiles(join(root, dir))) {
        let data: unknown;
        try {
          data = jsyaml.load(readFileSync(file, 'utf8'), { schema: jsyaml.CORE_SCHEMA });
        } catch {
          continue; // a test's deliberately broken file
        }
        expect(writeYaml(data), relative(root, file)).toBe(writeYamlBefore(data));
        expect(writeYamlBytes(data).equals(Buffer.from(writeYamlBefore(data), 'utf8')), relative(root, file)).toBe(true);
        written++;
      }
    }
    expect(written).toBeGreaterThan(100);
  });
});

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}
