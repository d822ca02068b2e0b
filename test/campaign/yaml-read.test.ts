import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import jsyaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { GM_LIMITS, readBulkYaml, readYaml } from '../../src/campaign/yaml-io.js';
import { YAML_CORE_IMPLICIT, YAML_CORE_SCHEMA } from '../../src/campaign/yaml-core-schema.js';
import { readOwnYaml } from '../../src/campaign/yaml-read.js';
import { writeYaml } from '../../src/campaign/yaml-write.js';
import { binaryString } from '../support/binary-string.js';

/**
 * The reader of the processor's own files must give exactly js-yaml's value (its core schema), key order
 * included, or hand the file to js-yaml (undefined): never another value, and never a value where js-yaml
 * refuses the file.
 */
type Reference = { ok: true; value: unknown } | { ok: false; message: string };
function reference(text: string, schema: jsyaml.Schema = jsyaml.CORE_SCHEMA): Reference {
  try {
    return { ok: true, value: jsyaml.load(text, { schema }) };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}

/** Each object's keys in order, all the way down (toStrictEqual and isDeepStrictEqual ignore key order). */
function keyOrder(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(keyOrder);
  if (v && typeof v === 'object') return Object.entries(v).map(([k, x]) => [k, keyOrder(x)]);
  return null;
}

/** The order files' typing (yaml-sheet-fast.ts) instead of js-yaml's core schema. */
let orderTyping = false;
function sameAsJsYaml(text: string): 'read' | 'handed over' {
  const own = orderTyping ? readOwnYaml(text, YAML_CORE_IMPLICIT) : readOwnYaml(text);
  const ref = orderTyping ? reference(text, YAML_CORE_SCHEMA) : reference(text);
  if (own === undefined) return 'handed over';
  expect(ref.ok, `js-yaml refuses this text (${ref.ok ? '' : ref.message}), the own reader read it:\n${text}`).toBe(true);
  if (!ref.ok) return 'read';
  expect(isDeepStrictEqual(own.value, ref.value), `a different value for:\n${text}`).toBe(true);
  expect(keyOrder(own.value)).toEqual(keyOrder(ref.value));
  return 'read';
}

// Strings that look like something else, or hold what a plain scalar may not: quotes, colons, "#", leading
// and trailing spaces, indicators, numbers and words of other types, line breaks, tabs, other scripts.
const hostile = fc.constantFrom(
  '', ' ', 'a ', ' a', '  lead', 'a:', 'a: b', 'a:b', 'a :b', 'a #b', 'a#b', '#a', '# a', '-', '- a', '-a', '--', '---', '...', '?', '? a', ':a', ': a', '!x', '&a', '*a', '|', '|-', '>', '>-',
  "'", "''", "'a'", "it's", "a''b", '"', '"a"', 'a"b', '%', '@', '`', '{}', '[]', '[a]', '{a: b}', 'a, b', 'a]', 'a}', ',a',
  'null', 'Null', 'NULL', '~', 'true', 'True', 'TRUE', 'false', 'FALSE', 'yes', 'No', 'on', 'OFF', 'y', 'n', 'nul', 'truex',
  '0', '-0', '+0', '00', '012', '1', '-1', '+1', '0x1f', '0X1F', '0o17', '0b101', '1_000', '1.5', '1.', '.5', '-.5', '1e5', '1E+5', '.inf', '-.Inf', '+.INF', '.nan', '.NaN',
  '12:30', '1:2:3.5', '123456789012345', '1234567890123456', '12345678901234567890', '9007199254740993', '-9007199254740993',
  '13,6', '0,0', '01,2', 'n0000-u16', 'attack: n0000-u16 target: n0001-u3', 'a\nb', 'a\n', '\na', ' a\nb', 'a\n\nb\n\n', 'tab\there', 'cr\rlf', 'crlf\r\n',
  'é', 'Ærø — 北京', '\u00a0x', 'x\u00a0', 'x\u2028y', 'x\u0085y', '\ufeffbom', 'emoji 🐉', 'bell\u0007', 'del\u007f', 'lone \ud800', 'x'.repeat(1100), '__proto__', 'constructor', 'toString',
);
const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/);
const text = fc.oneof(hostile, word, fc.string(), fc.string({ unit: 'grapheme' }), binaryString({ maxLength: 8 }), fc.stringMatching(/^[a-z ,:#'"-]{0,12}$/));
const numbers = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 1e21, 2 ** 53, 0.1, -1.5, 1e-7, NaN, Infinity, -Infinity));
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, text, numbers, fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(text, tie('value'), { maxKeys: 4 }),
}));

// Data of the shape the processor writes: ids and names, hexes, integers, flags, nested maps and lists.
const plainText = fc.oneof(word, fc.stringMatching(/^[A-Z][a-z]{1,8}(?: [A-Z]?[a-z]{1,8}){0,3}$/), fc.tuple(fc.nat(400), fc.nat(400)).map(([c, r]) => `${c},${r}`));
const { plain } = fc.letrec((tie) => ({
  plain: fc.oneof({ depthSize: 'small' }, plainText, fc.integer(), fc.boolean(), fc.constant(null), tie('list'), tie('map')),
  list: fc.array(tie('plain'), { maxLength: 4 }),
  map: fc.dictionary(word, tie('plain'), { maxKeys: 5 }),
}));

describe('readOwnYaml', () => {
  it('reads what the writer writes exactly as js-yaml does, for any data', () => {
    let read = 0;
    fc.assert(
      fc.property(fc.dictionary(text, value, { minKeys: 1, maxKeys: 5 }), (v) => {
        if (sameAsJsYaml(writeYaml(v)) === 'read') read++;
      }),
      { numRuns: 1000 },
    );
    // Most of these hold something the reader leaves to js-yaml (a line break, a tab...), but not all.
    expect(read).toBeGreaterThan(100);
  });

  it('reads every hostile string as a value, a key and a list item, at every depth, as js-yaml does', () => {
    for (const s of fc.sample(hostile, { numRuns: 600 }).concat(['a', '1'])) {
      for (const v of [{ s }, { [s]: s }, { l: [s] }, { a: { b: [s, { c: s }] } }, { l: [[s], [[s]]] }, { [s]: { [s]: [s] } }]) sameAsJsYaml(writeYaml(v));
    }
  });

  it('reads the data the processor writes itself, without handing it to js-yaml', () => {
    fc.assert(
      fc.property(fc.dictionary(word, plain, { minKeys: 1, maxKeys: 6 }), (v) => {
        expect(sameAsJsYaml(writeYaml(v))).toBe('read');
      }),
      { numRuns: 2000 },
    );
  });

  it('hands edited text to js-yaml whenever it is not what the writer makes: comments, tabs, flow style, anchors, bad indentation... (with the order files\' typing too)', () => {
    const inserted = fc.constantFrom(
      '# a comment', '  # indented comment', '', '   ', '\t', 'x: 1\t', '---', '...', '--- x', '%YAML 1.2', 'key: dup', 'turn: 2', '- x', '  - x', 'a: b: c', "x: 'unterminated", "x: 'a'b", 'x: "dq \\u00e9"',
      'x: &a 1', 'y: *a', 'x: !!str 1', 'x: !!js/function f', '? k', ': v', 'k: |', 'k: >-', '  continuation', '    deeper: 1', ' odd: 1', 'x: [1, 2]', 'x: {a: 1}', 'x: -', 'x: :', 'x: a #c', 'x: a:', 'x:a', '"k": 1',
      "'k': 1", "'k':1", 'k : 1', '__proto__: 1', 'constructor: 1', '-', '- ', 'x: \r', '\ufeffx: 1', 'x: \u0007',
      // Hand-written scalars and keys of other types, as js-yaml's core schema reads them.
      'x: -0', 'x: +5', 'x: 012', 'x: 0x1F', 'x: 0o17', 'x: 0b11', 'x: 1_000', 'x: ~', 'x: Null', 'x: TRUE', 'x: .5', 'x: 1e3', 'x: -.inf', 'x: 12345678901234567890', 'x: 3,4', 'x: 03,04',
      '1: a', '-1: a', '0x10: a', '1.50: a', '~: a', 'null: b', 'true: c', 'False: d', '.nan: e', "'1': f",
    );
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), line: inserted }),
      fc.record({ kind: fc.constant('indent' as const), at: fc.nat(), by: fc.integer({ min: -3, max: 3 }) }),
      fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('swap' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('char' as const), at: fc.nat(), char: fc.constantFrom(...' :#\'"-?[]{},&*!|>%@`\t\r\n\\é'), replace: fc.boolean() }),
    );
    for (const typing of [false, true]) {
    orderTyping = typing;
    let handed = 0;
    fc.assert(
      fc.property(fc.dictionary(word, plain, { minKeys: 1, maxKeys: 6 }), fc.array(edit, { minLength: 1, maxLength: 3 }), (v, edits) => {
        let lines = writeYaml(v).split('\n');
        for (const e of edits) {
          const at = e.at % lines.length;
          if (e.kind === 'insert') lines.splice(at, 0, e.line);
          else if (e.kind === 'indent') lines[at] = e.by >= 0 ? ' '.repeat(e.by) + lines[at] : lines[at]!.replace(new RegExp(`^ {0,${-e.by}}`), '');
          else if (e.kind === 'duplicate') lines.splice(at, 0, lines[at]!);
          else if (e.kind === 'swap' && at + 1 < lines.length) lines = [...lines.slice(0, at), lines[at + 1]!, lines[at]!, ...lines.slice(at + 2)];
          else if (e.kind === 'char') {
            const line = lines[at]!;
            const i = line.length ? (e.at >> 4) % line.length : 0;
            lines[at] = line.slice(0, i) + e.char + line.slice(e.replace ? i + 1 : i);
          }
        }
        const text = lines.join('\n');
        if (sameAsJsYaml(text) === 'handed over') handed++;
        // readBulkYaml gives js-yaml's value as before this reader; where js-yaml refuses a small file, the
        // strict reader's answer, also as before.
        if (orderTyping) return;
        const bulk = readBulkYaml(Buffer.from(text), GM_LIMITS);
        const ref = reference(text);
        if (ref.ok) expect(bulk.ok && isDeepStrictEqual(bulk.value, ref.value)).toBe(true);
        else expect(bulk.ok).toBe(readYaml(text, GM_LIMITS).ok);
      }),
      { numRuns: 1000 },
    );
    // Some edits leave the writer's layout (a blank line, a key moved), and are still read here.
    expect(handed).toBeGreaterThan(300);
    expect(handed).toBeLessThan(1000);
    }
    orderTyping = false;
  });

  it('reads turn files as js-yaml does, and those the writer made without handing them over', () => {
    const root = join(import.meta.dirname, '..', '..');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.yaml')) files.push(path);
      }
    };
    walk(join(root, 'campaigns'));
    walk(join(root, 'test', 'fixtures'));
    walk(join(root, 'test', 'cases'));
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) sameAsJsYaml(readFileSync(file, 'utf8'));
    for (const own of ['campaigns/silversheen/turns/0000/state.yaml', 'test/fixtures/orders/world/turns/0003/state.yaml']) {
      expect(sameAsJsYaml(readFileSync(join(root, own), 'utf8')), own).toBe('read');
    }
  });

  it('hands over what js-yaml alone decides: an empty file, a list or a scalar at the top, indentation at the top, nesting past its depth', () => {
    for (const t of ['', '\n', '- a\n', 'a\n', '  a: 1\n', 'a: 1\n  b: 2\n']) {
      expect(readOwnYaml(t)).toBeUndefined();
      sameAsJsYaml(t);
    }
    const deep = (n: number): unknown => (n === 0 ? 1 : { k: deep(n - 1) });
    for (const n of [30, 45, 60, 120]) sameAsJsYaml(writeYaml(deep(n)));
    expect(readOwnYaml(writeYaml(deep(30)))).toBeDefined();
    expect(readOwnYaml(writeYaml(deep(120)))).toBeUndefined();
  });
});
