import { beforeAll, describe, expect, it } from 'vitest';
import { buildReceipt, renderReceipt } from '../../src/orders/receipt.js';
import { interpretSheet, MAX_ORDERS, WHOLE_FILE, type OrderSheet } from '../../src/orders/sheet.js';
import { MAX_READ_PROBLEMS, readTextSheet } from '../../src/orders/text-sheet.js';
import { readYamlSheet, readYamlSheetStrict } from '../../src/orders/yaml-sheet.js';
import { ordersToYaml } from '../../src/orders/yaml-write.js';
import { ARGENTA, loadWorld, type World } from './world.js';
import { cpuTimeOf } from '../support/cpu-time.js';

/**
 * Whatever arrives — huge, hostile, binary, in the wrong encoding — the
 * readers answer with a clear, located refusal: never an exception, never a
 * hang, never a crash of the process.
 */
let world: World;
beforeAll(async () => {
  world = await loadWorld();
});

const readers = { text: readTextSheet, yaml: readYamlSheet } as const;

/** The sheet is refused whole: no orders, and one problem saying why. */
function refusedWhole(sheet: OrderSheet, reason: RegExp): void {
  expect(sheet.entries).toEqual([]);
  expect(sheet.problems.length).toBeGreaterThan(0);
  expect(sheet.problems[0]?.text).toBe(WHOLE_FILE);
  expect(sheet.problems.map((p) => p.reason).join('\n')).toMatch(reason);
}

const BILLION_LAUGHS = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
  'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
  'orders: [*g]',
].join('\n');

describe.each(Object.entries(readers))('%s reader', (_name, read) => {
  it('refuses a file over the size limit without reading it', () => {
    const huge = `rest argenta-2\n${'x'.repeat(300 * 1024)}`;
    const { result: sheet, ms } = cpuTimeOf(() => read(huge));
    refusedWhole(sheet, /the limit is 262144/);
    expect(sheet.problems[0]?.line).toBeUndefined();
    expect(ms, 'CPU time: refused without reading it').toBeLessThan(1000);
  });

  it('refuses binary garbage, naming the line', () => {
    const garbage = Buffer.from([0x72, 0x65, 0x73, 0x74, 0x0a, 0x00, 0x01, 0x02, 0xff, 0xfe, 0x13]);
    const sheet = read(garbage);
    refusedWhole(sheet, /not UTF-8|binary data/);
    expect(sheet.problems[0]?.line).toBe(2);
  });

  it('refuses control characters in otherwise valid UTF-8', () => {
    refusedWhole(read('nation: argenta\nturn: 4\u0000\n'), /binary data, not text \(control character U\+0000 on line 2\)/);
  });

  it('refuses latin-1 text with the line of the first bad byte', () => {
    const latin1 = Buffer.from('nation: argenta\nturn: 4\norders:\n  - note: Caf\xe9 au lait\n', 'latin1');
    const sheet = read(latin1);
    refusedWhole(sheet, /the text is not UTF-8 \(byte 0xE9 on line 4\)/);
    expect(sheet.problems[0]).toMatchObject({ line: 4, hint: 'save or send the orders as UTF-8 plain text' });
  });

  it('refuses a YAML bomb (anchors and aliases) at once', () => {
    const { result: sheet, ms } = cpuTimeOf(() => read(BILLION_LAUGHS));
    refusedWhole(sheet, /anchors and aliases \(\*name\) are not allowed here/);
    expect(ms, 'CPU time: refused before expanding the aliases').toBeLessThan(1000);
  });

  it('refuses deeply nested YAML before the parser can overflow its stack', () => {
    // In Node 20 a YAML parser stack overflow can abort the next parse in the process, so this runs twice.
    for (const deep of [`orders: ${'['.repeat(5000)}`, `orders:\n${'- '.repeat(3000)}a: x`, `orders: ${'['.repeat(5000)}`]) {
      refusedWhole(read(deep), /nested far deeper/);
    }
    expect(read('nation: argenta\norders:\n  - rest: argenta-2\n').entries).toHaveLength(1);
  });
});

describe('YAML tags', () => {
  it.each(['!!js/function "function () { return 1 }"', '!!python/object:os.system ls', '!custom x', '!!binary aGVsbG8=', '!!timestamp 2001-12-14'])('refuses %s', (tagged) => {
    const sheet = readYamlSheet(`nation: argenta\norders:\n  - note: ${tagged}\n`);
    refusedWhole(sheet, /unknown tag !/);
    expect(sheet.problems[0]?.line).toBe(3);
  });

  it('refuses them in a YAML sheet pasted into a mail too', () => {
    refusedWhole(readTextSheet(`Hello\n\nnation: argenta\norders:\n  - note: !!js/function "x"\n`), /unknown tag !!js\/function/);
  });

  it('accepts the plain core tags', () => {
    expect(readYamlSheet('nation: !!str argenta\norders:\n  - rest: argenta-2\n').problems).toEqual([]);
  });
});

describe('limits on what is read', () => {
  it(`reads at most ${MAX_ORDERS} orders and says so`, () => {
    const sheet = readTextSheet(Array.from({ length: MAX_ORDERS + 20 }, () => 'rest argenta-2').join('\n'));
    const { orders } = interpretSheet(sheet, ARGENTA, world.open.campaign, world.state);
    expect(orders.orders).toHaveLength(MAX_ORDERS);
    expect(orders.refused).toEqual([{ line: MAX_ORDERS + 1, text: 'rest argenta-2', reason: `only the first ${MAX_ORDERS} orders are read; this one and the rest are ignored` }]);
  });

  it(`stops reading after ${MAX_READ_PROBLEMS} problems`, () => {
    const sheet = readTextSheet(Array.from({ length: 5000 }, (_, i) => `gibberish ${i}`).join('\n'));
    expect(sheet.problems).toHaveLength(MAX_READ_PROBLEMS + 1);
    expect(sheet.problems.at(-1)).toMatchObject({ line: MAX_READ_PROBLEMS + 1, reason: `stopped reading at line ${MAX_READ_PROBLEMS + 1} after ${MAX_READ_PROBLEMS} problems` });
  });

  it('refuses an overlong line, keeping the others', () => {
    const sheet = readTextSheet(`rest argenta-2\nmove ${'Iron Guard '.repeat(200)} to 6,5\nhold argenta-5`);
    expect(sheet.entries.map((e) => e.line)).toEqual([1, 3]);
    expect(sheet.problems[0]?.line).toBe(2);
    expect(sheet.problems[0]?.reason).toMatch(/^the line is \d+ characters long; an order fits in 1000$/);
  });

  it('clips what it echoes', () => {
    const { receipt } = buildReceipt({ campaign: world.open.campaign, state: world.state, sheet: readTextSheet(`rest ${'x'.repeat(900)}`), nation: ARGENTA });
    expect(receipt.problems[0]?.text.length).toBeLessThanOrEqual(200);
    expect(receipt.problems[0]?.reason.length).toBeLessThan(120);
  });

  it('reads an unreadable character as a problem on its line only', () => {
    const sheet = readTextSheet('rest argenta-2\nnote Caf\ufffd\nhold argenta-5');
    expect(sheet.entries).toHaveLength(2);
    expect(sheet.problems).toEqual([{ line: 2, text: 'note Caf\ufffd', reason: 'the line has characters that could not be read (�)', hint: 'send the orders as UTF-8 plain text' }]);
  });
});

describe('ordinary odd input', () => {
  it.each([
    ['empty', ''],
    ['blank lines', '\n\n   \n\t\n'],
    ['only a signature', '-- \nDuke Cristoval\n'],
    ['only comments', '# nothing this turn\n# really\n'],
  ])('%s: no orders, no problems', (_what, body) => {
    const sheet = readTextSheet(body);
    expect(sheet.entries).toEqual([]);
    expect(sheet.problems).toEqual([]);
  });

  it('reads CRLF and CR line ends and a byte-order mark', () => {
    const sheet = readTextSheet(Buffer.from('\ufeffTurn: 4\r\nrest argenta-2\rhold argenta-5\r\n', 'utf8'));
    expect(sheet.turn).toBe(4);
    expect(sheet.entries.map((e) => [e.line, e.text])).toEqual([
      [2, 'rest argenta-2'],
      [3, 'hold argenta-5'],
    ]);
  });

  it('keeps line numbers through quoted replies and a wrapped "wrote:" line', () => {
    const sheet = readTextSheet('rest argenta-2\nOn Mon, 2 Mar 2026 at 10:00, The GM\n<gm@example.org> wrote:\n> move all\nhold argenta-5\n');
    expect(sheet.problems).toEqual([]);
    expect(sheet.entries.map((e) => e.line)).toEqual([1, 5]);
  });
});

/** Anything that is neither visible text nor, in a note, a line feed or a tab. */
/** The same, a line feed allowed: for whole files. */
const UNSAFE_OUTPUT_LINES = /(?!\n)[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\p{Noncharacter_Code_Point}]|(?![\u200c\u200d])\p{Cf}/u;
const UNSAFE_OUTPUT = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\p{Noncharacter_Code_Point}]|(?![\u200c\u200d])\p{Cf}/u;

describe('hostile characters in names and texts', () => {
  // Each is written as a YAML double-quoted escape, which the byte gate never sees.
  const classes: [string, string, RegExp][] = [
    ['a terminal escape (C0)', '\\e[2J\\e[31mRed', /U\+001B \(escape, which starts terminal codes\) at character 1/],
    ['a line break', 'Evil\\n== GM NOTICE ==', /U\+000A \(a line break\) at character 5/],
    ['a carriage return', 'Evil\\r== GM NOTICE ==', /U\+000D \(a line break\)/],
    ['a tab', 'Sea\\tWolves', /U\+0009 \(a tab\)/],
    ['a C1 control', 'Sea\\x9bWolves', /U\+009B \(a control character\)/],
    ['a next-line (C1)', 'Sea\\NWolves', /U\+0085 \(a line break\)/],
    ['a line separator', 'Sea\\LWolves', /U\+2028 \(a line break\)/],
    ['a right-to-left override', 'Sea\\u202Esevlow', /U\+202E \(a direction override, which reorders the text shown\)/],
    ['a direction isolate', 'Sea\\u2066Wolves', /U\+2066 \(a direction override/],
    ['a zero-width space', 'Sea\\u200BWolves', /U\+200B \(an invisible formatting character\)/],
    ['a soft hyphen', 'Sea\\u00ADWolves', /U\+00AD \(an invisible soft hyphen\)/],
    ['half a surrogate pair', 'Sea\\uD800Wolves', /U\+D800 \(half of a character\)/],
    ['a noncharacter', 'Sea\\uFFFEWolves', /U\+FFFE \(not a character\)/],
  ];

  const sheet = (name: string) =>
    ['nation: argenta', 'orders:', '  - rest: argenta-2', '  - build: Argentum', '    unit: marines', `    name: "${name}"`, `  - found: argenta-8`, `    name: "${name}"`, '  - hold: argenta-5', ''].join('\n');

  it.each(classes)('refuses %s in a unit or settlement name, on its line, and keeps the other orders', (_what, name, reason) => {
    const { receipt, orders } = buildReceipt({ campaign: world.open.campaign, state: world.state, sheet: readYamlSheet(sheet(name)), nation: ARGENTA });
    expect(receipt.accepted.map((a) => a.line)).toEqual([3, 9]);
    expect(receipt.problems.map((p) => p.line)).toEqual([4, 7]);
    for (const p of receipt.problems) {
      expect(p.reason).toMatch(/^"name" holds /);
      expect(p.reason).toMatch(reason);
      expect(p.valid).toBe('"name" is one line of plain visible text: letters, digits, spaces and punctuation');
    }
    expect(orders.orders.map((o) => o.kind)).toEqual(['rest', 'hold']);
    const printed = renderReceipt(receipt);
    expect(printed.replace(/\n/g, '')).not.toMatch(UNSAFE_OUTPUT);
    expect(printed).not.toMatch(/^== GM NOTICE/m);
  });

  it.each(classes)('gives the same sheet from the fast and the strict YAML reader with %s', (_what, name) => {
    expect(readYamlSheet(sheet(name))).toEqual(readYamlSheetStrict(sheet(name)));
  });

  it('refuses direction overrides written as they are in a plain-text mail, on their line only', () => {
    const { receipt } = buildReceipt({ campaign: world.open.campaign, state: world.state, sheet: readTextSheet('rest argenta-2\nbuild marines "Sea\u202EWolves" in Argentum\nfound "New\u200BTown" with argenta-8\nnote all is \u2066well\nhold argenta-5\n'), nation: ARGENTA });
    expect(receipt.accepted.map((a) => a.line)).toEqual([1, 5]);
    expect(receipt.problems.map((p) => [p.line, /U\+[0-9A-F]{4}/.exec(p.reason)?.[0]])).toEqual([
      [2, 'U+202E'],
      [3, 'U+200B'],
      [4, 'U+2066'],
    ]);
    expect(renderReceipt(receipt).replace(/\n/g, '')).not.toMatch(UNSAFE_OUTPUT);
  });

  it('lets a note span lines (a YAML block) and keep tabs, but nothing else', () => {
    const yaml = 'nation: argenta\norders:\n  - note: |\n      Dear GM,\n      \tplease tell Gondarahl we want peace.\n  - note: "Hello\\e]0;pwned\\a"\n  - note: "a\\u202Eb"\n';
    const { receipt, orders } = buildReceipt({ campaign: world.open.campaign, state: world.state, sheet: readYamlSheet(yaml), nation: ARGENTA });
    expect(orders.orders).toEqual([{ kind: 'note', text: 'Dear GM,\n\tplease tell Gondarahl we want peace.' }]);
    expect(receipt.problems.map((p) => [p.line, p.valid])).toEqual([
      [6, 'a note is plain visible text; it may span lines'],
      [7, 'a note is plain visible text; it may span lines'],
    ]);
    expect(receipt.problems[0]?.reason).toMatch(/U\+001B/);
  });

  it('refuses them inside a bonus written as a map and in the casualty list', () => {
    const yaml = 'nation: argenta\ncasualties: ["Iron\\u202EGuard"]\norders:\n  - build: Argentum\n    unit: marines\n    bonuses: [{value: 2, vs: {affiliation: "elves\\e[0m"}}]\n  - rest: argenta-2\n';
    const { receipt } = buildReceipt({ campaign: world.open.campaign, state: world.state, sheet: readYamlSheet(yaml), nation: ARGENTA });
    expect(receipt.accepted.map((a) => a.line)).toEqual([7]);
    expect(receipt.problems.map((p) => [p.line, /U\+[0-9A-F]{4}/.exec(p.reason)?.[0]])).toEqual([
      [2, 'U+202E'],
      [4, 'U+001B'],
    ]);
  });

  it('accepts ordinary names in any script, joiners included', () => {
    const yaml = 'nation: argenta\norders:\n  - build: Argentum\n    unit: marines\n    name: "Ørnulf’s Wölfe — 海狼 — گرگ\u200Cها 👩\u200D🚀"\n';
    const { receipt } = buildReceipt({ campaign: world.open.campaign, state: world.state, sheet: readYamlSheet(yaml), nation: ARGENTA });
    expect(receipt.problems).toEqual([]);
    expect(receipt.accepted).toHaveLength(1);
  });
});

describe('what a player wrote, echoed', () => {
  it('files an order whose comment holds hidden characters with what was written made plain', () => {
    const sheet = readTextSheet('hold argenta-5 # fine\u202Eenif\nrest argenta-2 # \u001b');
    expect(sheet.problems.map((p) => p.reason)).toEqual([expect.stringMatching(/binary data/)]);
    const { orders, texts } = interpretSheet(readTextSheet('hold argenta-5 # fine\u202Eenif\nrest argenta-2 # \u2066x'), ARGENTA, world.open.campaign, world.state);
    expect(orders.orders).toHaveLength(2);
    const filed = ordersToYaml(orders, { written: texts });
    expect(filed).toContain('written: "hold argenta-5 # fine\ufffdenif"\n');
    expect(filed).toContain('written: "rest argenta-2 # \ufffdx"\n');
    expect(filed).not.toMatch(UNSAFE_OUTPUT_LINES);
  });
});

describe('hidden characters written as they are in a YAML file', () => {
  it.each([
    ['a right-to-left override', '\u202E'],
    ['a zero-width space', '\u200B'],
    ['a line separator', '\u2028'],
    ['a paragraph separator', '\u2029'],
    ['a word joiner', '\u2060'],
    ['a vertical tab', '\u000B'],
    ['a form feed', '\u000C'],
  ])('%s: the fast and the strict reader agree, and the name is refused on its line', (_what, char) => {
    const yaml = `nation: argenta\norders:\n  - rest: argenta-2\n  - build: Argentum\n    unit: marines\n    name: Sea${char}Wolves\n  - hold: argenta-5\n`;
    const fast = readYamlSheet(yaml);
    expect(fast).toEqual(readYamlSheetStrict(yaml));
    const { receipt } = buildReceipt({ campaign: world.open.campaign, state: world.state, sheet: fast, nation: ARGENTA });
    expect(receipt.accepted.map((a) => a.line)).toEqual([3, 7]);
    expect(receipt.problems.map((p) => p.line)).toEqual([4]);
    expect(receipt.problems[0]?.reason).toContain(`U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  });
});
