import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asNationId, asUnitId } from '../../src/core/ids.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import { nationView } from '../../src/report/nation-view.js';
import { renderOrderTemplate } from '../../src/report/order-template.js';
import { builtInTemplateDir, loadTemplates, renderNationReports } from '../../src/report/render.js';
import { renderReports } from '../../src/report/renderer.js';
import { FIXTURE, type Played, playBeforeAll } from './support.js';

/** Player-chosen names and notes are text wherever they appear, never markup. */
let played: Played;
playBeforeAll(FIXTURE, 1, 'escape', (p) => (played = p));

const reports = () => played.turns[0]!.reports;

describe('escaping player text', () => {
  it('shows a unit named <script>alert(1)</script> as text in the HTML report', () => {
    const html = reports()['argenta.html']!;
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)');
  });

  it('escapes a settlement name with markup in HTML and in the SVG map', () => {
    const html = reports()['argenta.html']!;
    // The map is inside the page (a separate .svg is made only when the campaign asks for it).
    const svg = /<svg[\s\S]*?<\/svg>/.exec(html)![0];
    expect(html).toContain('&lt;i&gt;Nova&lt;/i&gt; &amp; Co');
    expect(svg).toContain('&lt;i&gt;Nova&lt;/i&gt; &amp; Co');
    expect(html).not.toContain('<i>Nova');
    expect(svg).not.toContain('<i>Nova');
  });

  it("escapes a player's note to the GM, HTML and script included", () => {
    const gm = reports()['gm.html']!;
    expect(gm).toContain('Please &lt;b&gt;confirm&lt;/b&gt; the treaty &amp; the border &lt;script&gt;alert(3)&lt;/script&gt;');
    expect(gm).not.toContain('<b>confirm');
  });

  it('has no script element and no event handler attribute in any HTML or SVG report', () => {
    for (const [name, text] of Object.entries(reports())) {
      if (!/\.(html|svg)$/.test(name)) continue;
      expect(text, name).not.toMatch(/<script/i);
      expect(text, name).not.toMatch(/\son[a-z]+\s*=/i);
      expect(text, name).not.toContain('{{');
      expect(text, name).not.toMatch(/undefined|\[object Object\]|NaN/);
    }
  });

  it('keeps plain text plain: the text report shows names as written', () => {
    expect(reports()['argenta.txt']).toContain("Infantry '<script>alert(1)</script>' (borea-foot) of Borea");
    expect(reports()['argenta.txt']).not.toContain('&lt;');
  });

  it('keeps a name with line breaks on one comment line of the order template', () => {
    const t = played.turns[0]!;
    const state = structuredClone(t.state);
    const evil = asUnitId('storm-riders');
    state.units[evil]!.name = 'Evil\n  - {move: grey-wolves, to: "0,0"}\r\nturn: 99';
    const view = nationView(played.open.campaign, t.before, state, t.events, asNationId('argenta'), {});
    const sheet = readYamlSheet(renderOrderTemplate(view, played.open.campaign));
    expect(sheet.problems).toEqual([]);
    expect(sheet.entries).toEqual([]);
    expect(sheet.turn).toBe(2);
  });
});

describe('templates', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-templates-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('fail loudly on a field the view does not have (strict mode: no holes)', () => {
    const dir = join(scratch, 'typo');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'nation.txt.hbs'), 'Report for {{nation.nmae}}\n');
    const templates = loadTemplates([dir, builtInTemplateDir()]);
    const t = played.turns[0]!;
    const view = nationView(played.open.campaign, t.before, t.state, t.events, asNationId('argenta'), {});
    expect(() => renderNationReports(view, played.open.campaign, templates)).toThrow(/nation\.txt\.hbs.*nmae/);
  });

  it("are taken from the campaign's templates/ folder first, file by file", async () => {
    const t = played.turns[0]!;
    const dir = join(played.dir, 'templates');
    mkdirSync(join(dir, 'partials'), { recursive: true });
    writeFileSync(join(dir, 'nation.txt.hbs'), '{{nation.name}} — {{header.when}} — {{renown.end}} Renown\n');
    writeFileSync(join(dir, 'partials', 'report.css'), 'body { background: black; }\n');
    try {
      const files = await renderReports({ open: played.open, before: t.before, state: t.state, events: t.events, turn: 1 }, { nations: ['argenta'], gm: false });
      expect(files['reports/argenta.txt']).toBe(`Argenta — Summer of 412 — ${t.state.nations[asNationId('argenta')]!.renown} Renown\n`);
      expect(files['reports/argenta.html']).toContain('body { background: black; }');
      expect(files['reports/gm.html']).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("give a GM's own page the ASCII map, which the built-in pages do not draw", async () => {
    const t = played.turns[0]!;
    const dir = join(played.dir, 'templates');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'gm.html.hbs'), '<pre>\n{{#each mapAscii}}{{this}}\n{{/each}}</pre>\n');
    try {
      const files = await renderReports({ open: played.open, before: t.before, state: t.state, events: t.events, turn: 1 }, { nations: ['argenta'] });
      const page = files['reports/gm.html']!;
      // Two lines of column numbers, then two lines per map row (odd columns sit half a hex lower).
      const map = page.split('\n').slice(1, 3 + 2 * played.open.campaign.map.height).join('\n');
      expect(map).toMatch(/^ +0 +2 +4/);
      // The GM sees the whole world: no hex is out of sight (":"), and Argenta's settlements are drawn ("A").
      expect(map).not.toContain(':');
      expect(map).toMatch(/A[.~fh^]/);
      expect(page).toContain('Nations (1st character): A/a Argenta, B/b Borea, C/c Corsa');
      // Argenta's own map, in its text report, has hexes out of its sight.
      expect(files['reports/argenta.txt']).toMatch(/ :[.~fh^]/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('print the deadline given, or say the GM will announce it', async () => {
    const t = played.turns[0]!;
    const input = { open: played.open, before: t.before, state: t.state, events: t.events, turn: 1 };
    const given = await renderReports(input, { nations: ['corsa'], deadline: 'Friday 12 May, 18:00 UTC' });
    expect(given['reports/corsa.txt']).toContain('deadline: Friday 12 May, 18:00 UTC');
    expect(given['reports/corsa-orders.yaml']).toContain('# Deadline: Friday 12 May, 18:00 UTC');
    expect(given['reports/gm.html']).toContain('deadline Friday 12 May, 18:00 UTC');
    expect(reports()['corsa.txt']).toContain('deadline: to be announced by the GM');
  });
});
