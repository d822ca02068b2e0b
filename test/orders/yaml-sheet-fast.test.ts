import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse } from 'yaml';
import jsyaml from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeYaml } from '../../src/campaign/yaml-io.js';
import { generateCampaign } from '../../src/generate/synthetic.js';
import { interpretSheet } from '../../src/orders/sheet.js';
import { readYamlFast } from '../../src/orders/yaml-sheet-fast.js';
import { readYamlSheet, readYamlSheetStrict } from '../../src/orders/yaml-sheet.js';
import { ordersToYaml } from '../../src/orders/yaml-write.js';
import { ARGENTA, FIXTURES, GONDARAHL, loadWorld, type World } from './world.js';
import { hangLimit, TEST_LIMIT_MS } from '../support/limits.js';
import { binaryString } from '../support/binary-string.js';

/**
 * readYamlSheet's fast path (js-yaml and a line walk) must give exactly the
 * strict reader's sheet whenever it does not step aside, and must not step
 * aside on the files a turn really reads.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const FIXTURE_ROOT = join(FIXTURES, '..');

/** The reader as the turn runs it equals the strict one; says whether the fast path was taken. */
function sameAsStrict(source: string): boolean {
  expect(readYamlSheet(source)).toStrictEqual(readYamlSheetStrict(source));
  return readYamlFast(source) !== undefined;
}

// ---- A generator of order files: the real variety, and broken ones ----

const pad = (n: number) => ' '.repeat(n);
type Lines = [indent: number, text: string][];

/** Values as players write them... */
const word = fc.constantFrom(
  'argenta', 'Iron Guard', 'argenta-4', 'n0001-u73', 'Grüne Garde', 'Тень Севера', '北風', "Duke's Pride", 'Sea Wolves', 'New town n0000-u0', 'Nova & Co',
  'rest argenta-2', 'hold Iron Guard', 'move Iron Guard to 6,5', 'attack gondarahl-3 with Iron Guard fate 2', 'build marines in Argentum', 'blah',
  '4,7', '12,7', '6,3, 6,4', 'No#1', 'a:b', '12:30', 'http://x.y/z', 'a,b', '-x', "it's", 'say "hi"', 'a  b', '<b>x</b>', 'x [y] {z}', 'a&b *c !d',
);
/** ...and values that are something else to YAML, or that the two readers may not agree on. */
const oddWord = fc.constantFrom('a #b', '&a', '*a', '!!str x', '!x', 'x: y', '[x]', '{a}', '- x', '-', '?x', '%x', '@x', '`x', '|', '>', ' lead', 'trail ', '', 'a:', '#x', 'back\\slash', '\\n');
/** Scalars whose type (string, number, boolean, null) depends on the schema. */
const tricky = fc.constantFrom(
  'yes', 'no', 'on', 'off', 'y', 'n', 'true', 'True', 'TRUE', 'tRue', 'false', 'FALSE', 'null', 'Null', 'NULL', 'nULL', '~', '0x1f', '0X1F', '0o7', '0o8', '012', '09',
  '+1', '-1', '+0', '-0', '1e3', '1E3', '1e+3', '1.5e-3', '1.5', '3.0', '.5', '-.5', '+.5', '1.', '.', '.inf', '-.INF', '+.Inf', '.NaN', '.nan', '1_000', '0b11',
  '12345678901234567890', '1e', '0x', 'e5', '+', '1,000', '2001-12-14', '1:20',
);
const fieldKey = fc.constantFrom('move', 'to', 'attack', 'target', 'support', 'fate', 'hold', 'rest', 'build', 'unit', 'name', 'carry', 'note', 'Move', 'TO', 'path', 'land', 'siege', 'action');
const spelling = fc.constantFrom((k: string) => k, (k: string) => k[0]!.toUpperCase() + k.slice(1), (k: string) => k.toUpperCase());
const headerKey = fc.tuple(fc.constantFrom('nation', 'turn', 'token', 'casualties', 'orders', 'player', 'nation', 'turn', 'orders'), spelling).map(([k, s]) => s(k));

/**
 * Order files: ordinary ones (the layout the fast reader knows, with comment
 * and blank lines anywhere, which is where the strict reader's idea of an
 * order's text is subtle), or wild ones, with values, items and edits that
 * are something else to YAML or not YAML at all.
 */
function orderFiles(wild: boolean): fc.Arbitrary<string> {
  const scalarText = wild
    ? fc.oneof({ weight: 4, arbitrary: word }, { weight: 2, arbitrary: oddWord }, { weight: 2, arbitrary: tricky }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) }, { weight: 1, arbitrary: binaryString({ maxLength: 4 }) })
    : fc.oneof({ weight: 8, arbitrary: word }, { weight: 2, arbitrary: tricky }, { weight: 1, arbitrary: fc.integer({ min: -5, max: 300 }).map(String) });
  const single = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const scalar = fc.oneof(
    { weight: 5, arbitrary: scalarText },
    { weight: 1, arbitrary: scalarText.map(single) },
    { weight: 1, arbitrary: scalarText.map((s) => (wild || !s.includes('"') ? `"${s}"` : single(s))) },
  );
  /** In a flow list or map, what would end or nest a plain scalar is quoted (unless wild). */
  const flowScalar = wild ? scalar : scalar.map((s) => (/^['"]/.test(s) || !/[[\]{},:#]/.test(s) ? s : single(s)));
  const gap = fc.constantFrom(' ', ' ', '  ', '');
  const innerMap = fc.uniqueArray(fc.tuple(fieldKey, flowScalar), { minLength: 1, maxLength: 2, selector: ([k]) => k }).map((ps) => `{${ps.map(([k, v]) => `${k}: ${v}`).join(', ')}}`);
  const flowList = fc.tuple(fc.array(fc.oneof({ weight: 4, arbitrary: flowScalar }, { weight: 1, arbitrary: innerMap }), { maxLength: 4 }), gap, fc.boolean()).map(([xs, g, comma]) => `[${g}${xs.join(`,${g || ' '}`)}${wild && comma && xs.length ? ',' : ''}${g}]`);
  const pairs = fc.tuple(fieldKey, fc.oneof(flowScalar, flowList));
  const flowMap = (wild ? fc.array(pairs, { minLength: 1, maxLength: 3 }) : fc.uniqueArray(pairs, { minLength: 1, maxLength: 3, selector: ([k]) => k }))
    .map((ps) => `{${ps.map(([k, v]) => `${k}: ${v}`).join(', ')}}`);
  const comment = fc
    .tuple(wild ? fc.constantFrom(' ', '  ', '') : fc.constantFrom(' ', '  ', '   '), fc.constantFrom('east', 'there', '- {hold: a}', 'x: y', '"q"', '# twice', ''))
    .map(([s, t]) => `${s}# ${t}`);
  const trailing = fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constant('   ') }, { weight: 2, arbitrary: comment });
  /** Between "key:" or "-" and the value. */
  const space = fc.constantFrom(' ', ' ', ' ', '   ');

  /** A field's value: one line, empty, or a block list on the lines below (indent relative to the key). */
  const fieldValue = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(space, scalar, trailing).map(([g, v, c]) => ({ inline: `${g}${v}${c}`, below: [] as Lines })) },
    { weight: 2, arbitrary: fc.tuple(flowList, trailing).map(([v, c]) => ({ inline: ` ${v}${c}`, below: [] as Lines })) },
    { weight: 1, arbitrary: fc.tuple(flowMap, trailing).map(([v, c]) => ({ inline: ` ${v}${c}`, below: [] as Lines })) },
    { weight: 1, arbitrary: trailing.map((c) => ({ inline: c, below: [] as Lines })) },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(0, 2, 4), fc.array(fc.tuple(scalar, trailing), { minLength: 1, maxLength: 3 }), trailing).map(([indent, xs, c]) => ({
        inline: c,
        below: xs.map(([x, t]): Lines[number] => [indent, `- ${x}${t}`]),
      })),
    },
  );

  /** One item of a block list, as lines [indent relative to the dash, text]. */
  const mapItem = fc.tuple(fc.uniqueArray(fc.tuple(fieldKey, fieldValue), { minLength: 1, maxLength: 4, selector: ([k]) => k }), fc.constantFrom(' ', ' ', '   ')).map(([fields, after]) => {
    const col = 1 + after.length;
    const lines: Lines = [];
    fields.forEach(([k, v], i) => {
      lines.push(i === 0 ? [0, `-${after}${k}:${v.inline}`] : [col, `${k}:${v.inline}`]);
      for (const [indent, text] of v.below) lines.push([col + indent, text]);
    });
    return lines;
  });
  const notThisLayout = fc.constantFrom<Lines>([[0, '-']], [[0, '- move: a'], [2, 'move: b']], [[0, '- # nothing']], [[0, '- - a']], [[0, '-'], [2, 'hold: a']], [[0, '- |'], [2, 'rest a']], [[0, '- rest a'], [2, 'more words']], [[0, '- move: a'], [2, 'to:'], [4, 'x: 1']]);
  const item = fc.oneof(
    { weight: 6, arbitrary: mapItem },
    { weight: 2, arbitrary: fc.tuple(space, scalar, trailing).map(([g, s, c]): Lines => [[0, `-${g}${s}${c}`]]) },
    { weight: 1, arbitrary: fc.tuple(fc.oneof(flowMap, flowList), trailing).map(([s, c]): Lines => [[0, `- ${s}${c}`]]) },
    { weight: wild ? 1 : 0, arbitrary: notThisLayout },
  );
  const blockList = fc.tuple(fc.constantFrom(0, 2, 4), fc.array(item, { maxLength: 5 })).map(([indent, items]) => items.flat().map(([i, t]): Lines[number] => [indent + i, t]));

  /** A top-level key with its value: one line, empty, or a block list below it. */
  const top = fc
    .tuple(headerKey, fc.oneof({ weight: 3, arbitrary: fieldValue }, { weight: 3, arbitrary: blockList.map((below) => ({ inline: '', below })) }), trailing)
    .map(([key, v, c]): Lines => [[0, `${key}:${v.inline || c}`], ...v.below]);

  /** Edits by hand and mail client: comment and blank lines anywhere; when wild, an indent off, a tab, YAML that is not this layout. */
  const edit = fc.oneof(
    { weight: 4, arbitrary: fc.record({ op: fc.constant('comment' as const), at: fc.nat(), indent: fc.nat({ max: 8 }), text: comment }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('blank' as const), at: fc.nat(), indent: fc.nat({ max: 6 }) }) },
    ...(wild
      ? [
          { weight: 1, arbitrary: fc.record({ op: fc.constant('indent' as const), at: fc.nat(), by: fc.constantFrom(-2, -1, 1, 2) }) },
          { weight: 1, arbitrary: fc.record({ op: fc.constant('dup' as const), at: fc.nat() }) },
          { weight: 1, arbitrary: fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom('\t', '&a ', '*a', '!!str ', '| ', '> ', '\\', '"', "'", '#', ': ', ',', '[', '}', '\u00a0', '\ufeff', '\r') }) },
          { weight: 1, arbitrary: fc.record({ op: fc.constant('line' as const), at: fc.nat(), text: fc.constantFrom('---', '...', '%YAML 1.2', '? nation', ': argenta', 'nation : a', 'turn:1', '  more words', '<<: {a: 1}', 'a: &x 1', 'b: *x', 'true: 1', '1: a', '__proto__: {a: 1}') }) },
        ]
      : []),
  );

  return fc
    .record({
      // Keys spelt differently ("Nation", "nation") may repeat; the same key twice comes from the edits.
      tops: fc.uniqueArray(top, { minLength: 1, maxLength: 5, selector: (lines) => lines[0]![1].split(':')[0] }),
      edits: fc.array(edit, { maxLength: 4 }),
      eol: fc.constantFrom('\n', '\n', '\r\n'),
      end: fc.constantFrom('', 'eol', 'eol', '# done'),
    })
    .map(({ tops, edits, eol, end }) => {
      const lines = edits.reduce(applyEdit, tops.flat());
      const body = lines.map(([indent, text]) => pad(indent) + text).join(eol);
      return body + (end === 'eol' ? eol : end === '' ? '' : `${eol}${end}`);
    });
}

type Edit =
  | { op: 'comment'; at: number; indent: number; text: string }
  | { op: 'blank'; at: number; indent: number }
  | { op: 'indent'; at: number; by: number }
  | { op: 'dup'; at: number }
  | { op: 'insert' | 'line'; at: number; text: string };

function applyEdit(lines: Lines, e: Edit): Lines {
  const out = [...lines];
  const i = out.length ? e.at % (out.length + 1) : 0;
  const j = out.length ? e.at % out.length : 0;
  const line = out[j];
  switch (e.op) {
    case 'comment':
      out.splice(i, 0, [e.indent, e.text.trimStart()]);
      break;
    case 'blank':
      out.splice(i, 0, [e.indent, '']);
      break;
    case 'indent':
      if (line) out[j] = [Math.max(0, line[0] + e.by), line[1]];
      break;
    case 'dup':
      if (line) out.splice(j, 0, line);
      break;
    case 'insert':
      if (line) {
        const k = e.at % (line[1].length + 1);
        out[j] = [line[0], line[1].slice(0, k) + e.text + line[1].slice(k)];
      }
      break;
    case 'line':
      out.splice(i, 0, [0, e.text]);
      break;
  }
  return out;
}

// ---- The tests ----

describe('the fast YAML order reader', () => {
  for (const wild of [false, true]) {
    it(`gives the strict sheet for every file it reads (${wild ? 'wild' : 'ordinary'} random order files)`, () => {
      let taken = 0;
      let runs = 0;
      fc.assert(
        fc.property(orderFiles(wild), (source) => {
          runs++;
          if (sameAsStrict(source)) taken++;
        }),
        { numRuns: RUNS * 10 },
      );
      // The property says little if the fast path steps aside from nearly everything.
      expect(taken / runs).toBeGreaterThan(wild ? 0.02 : 0.5);
    }, hangLimit(Math.max(TEST_LIMIT_MS, RUNS * 60)));
  }

  it('types plain scalars exactly as the strict reader does', () => {
    const plain = fc.oneof(tricky, fc.stringMatching(/^[-+.0-9eEoxXa-fA-F_~nNulLtTrRsS]{1,8}$/));
    fc.assert(
      fc.property(plain, (s) => {
        const line = `v: ${s}\n`;
        const fast = readYamlFast(`nation: ${s}\n`);
        let strict: unknown;
        try {
          strict = parse(line, { strict: true, uniqueKeys: true });
        } catch {
          return;
        }
        if (fast) expect((fast.value as { nation: unknown }).nation).toStrictEqual((strict as { v: unknown }).v);
      }),
      { numRuns: RUNS * 10 },
    );
  });

  it('is taken for every order file the benchmark generator writes', () => {
    const generated = generateCampaign({ nations: 9, unitsPerNation: 40, width: 60, height: 60, seed: 'fast-yaml' });
    const files = Object.values(generated.orders).map((sheet) => writeYaml(sheet));
    expect(files.length).toBe(9);
    for (const file of files) expect(sameAsStrict(file), file).toBe(true);
  });

  describe('on the order files in the repository', () => {
    let world: World;
    beforeAll(async () => {
      world = await loadWorld();
    });

    const orderFixtures = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true, recursive: true })
        .filter((e) => e.isFile() && e.name.endsWith('.yaml') && (e.parentPath.includes(`${join('orders', '0')}`) || e.name.endsWith('-orders.yaml') || e.parentPath.endsWith('equivalence')))
        .map((e) => join(e.parentPath, e.name));

    it('is taken for the ordinary valid fixtures', () => {
      const files = orderFixtures(FIXTURE_ROOT);
      expect(files.length).toBeGreaterThanOrEqual(17);
      // A block scalar (a letter of several lines) is outside the fast reader's subset: the strict reader takes those.
      const ordinary = files.filter((file) => !/:\s*[|>]-?\s*$/m.test(readFileSync(file, 'utf8')));
      expect(files.length - ordinary.length).toBeLessThanOrEqual(1);
      for (const file of ordinary) expect(sameAsStrict(readFileSync(file, 'utf8')), file).toBe(true);
    });

    it('is taken for the order templates with their lines uncommented, as players fill them in', () => {
      const templates = orderFixtures(FIXTURE_ROOT).filter((f) => f.includes('demo-golden'));
      expect(templates.length).toBeGreaterThan(0);
      for (const file of templates) {
        const filled = readFileSync(file, 'utf8').replace(/^( *)# (- \{)/gm, '$1$2').replace(/^# casualties:/m, 'casualties:');
        expect(filled).toMatch(/^ {2}- \{/m);
        expect(sameAsStrict(filled), file).toBe(true);
      }
    });

    it('is taken for the files the mail loop writes from text orders', () => {
      for (const nation of [ARGENTA, GONDARAHL]) {
        const sheet = readYamlSheet(readFileSync(join(FIXTURES, 'equivalence', `${nation}.yaml`)));
        const all = interpretSheet(sheet, nation, world.open.campaign, world.state).orders;
        // A unit built with bonuses is written as maps within a list within a map: left to the strict reader.
        const kept = all.orders.flatMap((o, i) => (o.kind === 'build_unit' && o.bonuses?.length ? [] : [{ order: o, text: all.texts?.[i] ?? '' }]));
        const orders = { ...all, orders: kept.map((k) => k.order), texts: kept.map((k) => k.text) };
        const file = ordersToYaml(orders, { token: 's3cret', written: orders.texts });
        expect(file).toMatch(/^ {4}written: /m);
        expect(sameAsStrict(file), file).toBe(true);
      }
    });
  });

  it('steps aside for tags, anchors and duplicate keys, and the strict problems come back', () => {
    const cases: [string, RegExp][] = [
      ['nation: argenta\nturn: !!binary 4\n', /unknown tag !!binary/],
      ['nation: !custom argenta\n', /unknown tag !custom/],
      ['nation: &n argenta\norders:\n  - hold: *n\n', /anchor|alias/],
      ['nation: argenta\nnation: borea\n', /unique|duplicate/i],
      ['orders:\n  - move: a\n    move: b\n', /unique|duplicate/i],
      ['nation: argenta\norders:\n  - hold: a\n\tfate: 1\n', /tab|indent/i],
    ];
    for (const [source, reason] of cases) {
      expect(readYamlFast(source), source).toBeUndefined();
      const sheet = readYamlSheet(source);
      expect(sheet).toStrictEqual(readYamlSheetStrict(source));
      expect(sheet.problems.map((p) => p.reason).join('; '), source).toMatch(reason);
    }
  });

  it('reads headers in any case and reports what is wrong with them itself', () => {
    const source = 'Nation: Argenta\nTURN: 4\nnation: borea\nplayer: me\ntoken:\ncasualties: a, b\norders:\n  - rest a\n  - {move: b, to: "3,4"}  # east\n  - to: 1,2\n    move: c   # c\n  # between\n  - 7\n';
    expect(readYamlFast(source)).toBeDefined();
    const sheet = readYamlSheet(source);
    expect(sheet).toStrictEqual(readYamlSheetStrict(source));
    expect(sheet.entries.map((e) => [e.line, e.text])).toEqual([
      [8, 'rest a'],
      [9, '{move: b, to: "3,4"}'],
      [10, 'to: 1,2 move: c   # c'],
    ]);
    expect(sheet.headerLines).toEqual({ nation: 1, turn: 2, token: 5, casualties: 6 });
  });

  it('js-yaml alone would type some plain scalars differently (why the fast reader has its own schema)', () => {
    expect(jsyaml.load('0b11', { schema: jsyaml.CORE_SCHEMA })).not.toStrictEqual(parse('0b11'));
  });
});
