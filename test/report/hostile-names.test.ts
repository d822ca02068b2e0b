import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { openCampaign, readState } from '../../src/campaign/store.js';
import { asNationId } from '../../src/core/ids.js';
import type { GameState } from '../../src/core/state.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import { readTurnOrders, reportRenderer } from '../../src/report/renderer.js';
import { CHROMIUM, withBrowser } from '../support/chromium.js';
import { xmlProblem } from '../support/xml.js';
import { FIXTURE, readReports, scratchCopy } from './support.js';
import { setReportSettings } from '../support/campaign-file.js';

/**
 * Hostile names through the whole pipeline: an order file naming a unit and a
 * settlement with terminal escapes and line breaks goes in, the turn runs,
 * and every report of every nation and of the GM comes out clean. Then a
 * hand-edited state.yaml carries such names anyway (the edge cannot refuse
 * what a GM types into the state), and the next turn's reports are still
 * clean: one line per value, no terminal code, SVG that parses as XML.
 */

/** Anything that is not visible text, a line feed or a tab. */
const UNSAFE = /(?![\n\t])[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\p{Noncharacter_Code_Point}]|(?![\u200c\u200d])\p{Cf}/u;
const FAKE_LINE = /^== GM NOTICE/m;
const EVIL = 'Evil\\e[2J\\e[31m\\n== GM NOTICE ==\\nArgenta wins\\u202E';

const HOSTILE_ORDERS = `nation: argenta
turn: 1
orders:
  - attack: Iron Guard
    target: Storm Riders
    fate: 2
  - found: Pathfinders
    name: "${EVIL}"
  - build: Argentum
    unit: infantry
    name: "${EVIL}"
  - note: "Hello\\e]0;pwned\\a"
  - note: |
      Dear GM,
      == GM NOTICE ==
      a note may span lines; the reports keep it on one.
  - hold: Grey Wolves
`;

let dir: string;
let cleanup: () => void;
let turn1: Record<string, string>;
let turn2: Record<string, string>;
let state1: GameState;

beforeAll(async () => {
  ({ dir, cleanup } = scratchCopy(FIXTURE, 'hostile'));
  writeFileSync(join(dir, 'orders', '0001', 'argenta.yaml'), HOSTILE_ORDERS);
  // The maps apart too (they are made only when asked for): each file that carries a name is checked.
  setReportSettings(dir, { formats: ['txt', 'html', 'yaml', 'svg', 'orders'] });
  await runTurn(dir, { renderers: [reportRenderer()] });
  turn1 = readReports(dir, 1);
  const open = await openCampaign(dir);
  state1 = await readState(dir, 1, open.campaign);
  // The GM edits the state by hand: a unit and a settlement get names the order readers would refuse.
  const path = join(dir, 'turns', '0001', 'state.yaml');
  const edited = readFileSync(path, 'utf8').replace(/name: Silver Lances\n/, `name: "${EVIL}"\n`).replace(/name: Argentum\n/, `name: "Argentum\\r\\n== GM NOTICE ==\\x9b\\u2066"\n`);
  expect(edited).not.toBe(readFileSync(path, 'utf8'));
  writeFileSync(path, edited);
  await runTurn(dir, { renderers: [reportRenderer()] });
  turn2 = readReports(dir, 2);
});
afterAll(() => cleanup?.());

/** Every report file: no raw control, line-break or direction character, no fake line, SVG and YAML that parse. */
function expectClean(files: Record<string, string>): void {
  expect(Object.keys(files)).toEqual(expect.arrayContaining(['argenta.txt', 'argenta.html', 'argenta.yaml', 'argenta.svg', 'argenta-orders.yaml', 'borea.txt', 'gm.html', 'gm.svg', 'nations.txt']));
  for (const [name, text] of Object.entries(files)) {
    expect(UNSAFE.exec(text)?.[0], name).toBeUndefined();
    expect(text, name).not.toMatch(FAKE_LINE);
    if (name.endsWith('.svg')) expect(xmlProblem(text), name).toBeUndefined();
    if (name.endsWith('.html')) {
      const svg = /<svg[\s\S]*?<\/svg>/.exec(text)?.[0];
      if (svg) expect(xmlProblem(svg), `${name}: its map`).toBeUndefined();
      expect(text, name).not.toMatch(/<script/i);
    }
    if (name.endsWith('-orders.yaml')) expect(readYamlSheet(text).problems, name).toEqual([]);
    else if (name.endsWith('.yaml')) expect((): unknown => parse(text), name).not.toThrow();
  }
}

describe('hostile names in an order file', () => {
  it('are refused on their lines; the rest of the orders run', async () => {
    const open = await openCampaign(dir);
    const before = await readState(dir, 0, open.campaign);
    const orders = (await readTurnOrders(open, before, 1)).nations[asNationId('argenta')]!;
    expect(orders.orders.map((o) => o.kind)).toEqual(['attack', 'note', 'hold']);
    expect(orders.refused?.map((r) => [r.line, r.reason.replace(/ at character.*/, '')])).toEqual([
      [7, '"name" holds U+001B (escape, which starts terminal codes)'],
      [9, '"name" holds U+001B (escape, which starts terminal codes)'],
      [12, '"note" holds U+001B (escape, which starts terminal codes)'],
    ]);
    const names = [...Object.values(state1.units).map((u) => u.name ?? ''), ...Object.values(state1.settlements).map((s) => s.name)];
    expect(names.filter((n) => UNSAFE.test(n) || n.includes('\n'))).toEqual([]);
  });

  it('leave every report of the turn clean, the multi-line note on one line', () => {
    expectClean(turn1);
    expect(turn1['argenta.txt']).toContain('- Dear GM, ↵ == GM NOTICE == ↵ a note may span lines; the reports keep it on one.');
  });
});

describe('hostile names in a hand-edited state', () => {
  it('reach the reports in a visible, harmless form', () => {
    expect(turn2['argenta.txt']).toContain('Evil\ufffd[2J\ufffd[31m ↵ == GM NOTICE == ↵ Argenta wins\ufffd');
    expect(turn2['argenta.txt']).toContain('Argentum ↵ == GM NOTICE ==\ufffd\ufffd');
    expect(turn2['argenta.svg']).toContain('Argentum ↵ == GM NOTICE ==\ufffd\ufffd');
  });

  it('leave every report of every nation and of the GM clean: one line per value, no terminal code, SVG that parses', () => {
    expectClean(turn2);
  });
});

/** The same maps in a real browser's XML parser, when Chromium is installed (as chromium.test.ts). */
describe.skipIf(!CHROMIUM)('hostile names in the SVG maps, in headless Chromium', () => {
  const browser = withBrowser();
  it.each(['argenta.svg', 'borea.svg', 'gm.svg'])('%s parses as XML', async (name) => {
    const dom = await browser().dumpDom(`file://${join(dir, 'turns', '0002', 'reports', name)}`);
    expect(dom).toMatch(/^<svg/);
    expect(dom).not.toContain('parsererror');
  });
});
