import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import jsyaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DUMP_OPTIONS, writeYaml } from '../../src/campaign/yaml-write.js';
import { binaryString } from '../support/binary-string.js';

/**
 * The fast writer must give exactly js-yaml's bytes: turn files written
 * before and after it stay the same, and readers see no difference.
 */
const reference = (v: unknown) => jsyaml.dump(v, DUMP_OPTIONS);

// Strings the writer must decide like js-yaml: look-alikes of other types,
// indicators, ": " and " #", YAML 1.1 words, line breaks, tabs, other scripts.
const tricky = fc.constantFrom(
  '', ' ', 'a ', ' a', 'a:', 'a: b', 'a:b', 'a #b', 'a#b', '#a', '-', '- a', '-a', '?', ':a', '!x', '&a', '*a', '|', '>', "'", '"', '%', '@', '`', '{}', '[a]', 'a, b',
  'null', 'Null', 'NULL', '~', 'true', 'True', 'FALSE', 'yes', 'No', 'on', 'OFF', 'y', 'n', '1', '-1', '+1', '0x1f', '0o17', '0b101', '1_000', '1.5', '.5', '1e5', '.inf', '-.Inf', '.nan', '12:30', '1:2:3.5',
  '13,6', '0,0', 'n0000-u16', 'attack:n0000-u16', 'a\nb', 'a\n', '\na', ' a\nb', 'a\n\nb\n\n', 'tab\there', 'é', 'Ærø — 北京', '\u00a0x', 'x\u2028y', '\ufeffbom', 'emoji 🐉', 'bell\u0007', 'x'.repeat(1100),
);
const text = fc.oneof(tricky, fc.string(), fc.string({ unit: 'grapheme' }), binaryString({ maxLength: 8 }), fc.stringMatching(/^[a-z][a-z0-9 ,:#-]{0,12}$/));
const numbers = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 1e21, 2 ** 53, 0.1, -1.5, NaN, Infinity, -Infinity, 1e-7));
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, text, numbers, fc.boolean(), fc.constant(null), fc.constant(undefined), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(text, tie('value'), { maxKeys: 4 }),
}));

describe('writeYaml', () => {
  it('writes exactly what js-yaml writes, for any plain data', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(writeYaml(v)).toBe(reference(v));
      }),
      { numRuns: 3000 },
    );
  });

  it('writes every tricky string like js-yaml, as a value, a key and a list item, at every depth', () => {
    fc.assert(
      fc.property(tricky, (s) => {
        for (const v of [s, { [s]: s }, [s], { a: { b: [s, { c: s }] } }, [[s], [[s]]]]) expect(writeYaml(v)).toBe(reference(v));
      }),
      { numRuns: 500 },
    );
  });

  it('writes big lists and mappings (joined in chunks) the same way, undefined entries included', () => {
    const entry = fc.oneof(value, fc.constant(undefined), fc.constant(undefined));
    fc.assert(
      fc.property(fc.array(entry, { minLength: 60, maxLength: 300 }), fc.dictionary(text, entry, { minKeys: 60, maxKeys: 300 }), (list, object) => {
        for (const v of [list, object, { list, object }, [object, list]]) expect(writeYaml(v)).toBe(reference(v));
      }),
      { numRuns: 60 },
    );
    const blank = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, undefined]));
    for (const v of [blank, { a: blank }, [blank], { ...blank, last: 1 }]) expect(writeYaml(v)).toBe(reference(v));
  });

  it('writes a real turn the same way', () => {
    const state = jsyaml.load(readFileSync(join(import.meta.dirname, '../../campaigns/silversheen/turns/0000/state.yaml'), 'utf8'), { schema: jsyaml.CORE_SCHEMA });
    expect(writeYaml(state)).toBe(reference(state));
    expect(parse(writeYaml(state))).toEqual(state);
  });

  it('hands what is not plain data to js-yaml, errors included', () => {
    expect(writeYaml({ when: 1.5e300 })).toBe(reference({ when: 1.5e300 }));
    expect(() => writeYaml({ f: () => 1 })).toThrow(/unacceptable kind/);
    expect(() => writeYaml({ d: new Date(0) })).toThrow(/unacceptable kind/);
  });
});
