import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { CampaignError } from '../../src/campaign/problems.js';
import { openCampaign } from '../../src/campaign/store.js';
import { gmView, GM_IN_FULL } from '../../src/report/gm-view.js';
import { gmMapModel } from '../../src/report/map-model.js';
import { renderReports } from '../../src/report/renderer.js';
import { renderSvgMap } from '../../src/report/svg-map.js';
import { writeReports } from '../../src/report/write.js';
import { FIXTURE, htmlText, readReports, type Played, playBeforeAll } from './support.js';

/**
 * The GM's page of a big campaign: beyond reports.gm.nationsInFull nations
 * and reports.gm.eventsInFull events it keeps the table of nations, the
 * items for the GM's judgement and the siege actions, and links the nations'
 * own reports and events.yaml for the rest.
 */
let played: Played;
playBeforeAll(FIXTURE, 1, 'gm-detail', (p) => (played = p));

const turn = () => played.turns[0]!;
const viewWith = (limits: { nationsInFull?: number; eventsInFull?: number }, nationReport?: 'html' | 'txt') =>
  gmView(played.open.campaign, turn().before, turn().state, turn().events, { orders: turn().orders, ...limits, ...(nationReport ? { nationReport } : {}) });

/** Sets campaign.yaml's reports block of the played copy. */
function setReports(reports: unknown): void {
  const file = join(played.dir, 'campaign.yaml');
  const doc = parseDocument(readFileSync(file, 'utf8'));
  doc.set('reports', reports);
  writeFileSync(file, doc.toString());
}

describe("the GM's page within its limits", () => {
  it('carries every nation, every roll and the event log, with the table of nations linking each section', () => {
    const view = viewWith({});
    expect(view.detail).toEqual({ nations: true, events: true, nationsInFull: GM_IN_FULL.nations, eventsInFull: GM_IN_FULL.events });
    expect(view.nations.map((n) => n.id)).toEqual(['argenta', 'borea', 'corsa']);
    expect(view.table.map((r) => r.link)).toEqual(['#nation-argenta', '#nation-borea', '#nation-corsa']);
    expect(view.log).toHaveLength(turn().events.length);
    expect(view.battles).toHaveLength(1);
    const html = turn().reports['gm.html']!;
    expect(html).toContain('<a href="#nation-borea">Borea</a>');
    expect(html).toContain('id="nation-borea"');
  });

  it('has a row per nation that agrees with its full section', () => {
    const view = viewWith({});
    for (const row of view.table) {
      const full = view.nations.find((n) => n.id === row.id)!;
      expect(row.renown).toEqual({ start: full.renown.start, end: full.renown.end });
      expect(row.fate).toEqual({ start: full.fate.start, end: full.fate.end });
      expect(row.prosperity).toEqual(full.prosperity.end);
      expect(row.units).toBe(full.units.length);
      expect(row.settlements).toBe(full.settlements.length);
      expect(row.goalsDone).toBe(full.goals.filter((g) => g.done).length);
      expect(row.refused).toBe(full.rejected.length);
      // The row counts every order received once, lines that could not be read as orders among the refused
      // (issue 34's tally); the full section lists the orders that were read.
      if (!full.sentOrders) expect(row.orders).toBeNull();
      else {
        const unread = row.orders! - full.orders.length;
        expect(unread).toBeGreaterThanOrEqual(0);
        expect(unread).toBeLessThanOrEqual(full.rejected.length);
      }
    }
    // Corsa sent nothing: the row says so rather than "0".
    expect(view.table.find((r) => r.id === 'corsa')!.orders).toBeNull();
  });
});

describe("the GM's page beyond its limits", () => {
  it('keeps the table and the counts, and leaves out the nations in full, the rolls and the log', () => {
    const view = viewWith({ nationsInFull: 2, eventsInFull: 10 });
    expect(view.detail).toMatchObject({ nations: false, events: false });
    expect(view.nations).toEqual([]);
    expect(view.battles).toEqual([]);
    expect(view.pursuits).toEqual([]);
    expect(view.log).toEqual([]);
    expect(view.table.map((r) => r.link)).toEqual(['argenta.html', 'borea.html', 'corsa.html']);
    expect(view.totals).toEqual({ events: turn().events.length, battles: 1, units: Object.keys(turn().state.units).length, nations: 3 });
    expect(view.eventCounts.reduce((sum, c) => sum + c.count, 0)).toBe(turn().events.length);
    expect(view.eventCounts[0]).toEqual({ type: 'resource', count: turn().events.filter((e) => e.type === 'resource').length });
    // What the GM must judge does not depend on the size of the page.
    expect(view.attention).toEqual(viewWith({}).attention);
    expect(view.nmr).toEqual(viewWith({}).nmr);
    expect(view.notes.length).toBeGreaterThan(0);
    expect(view.notes).toEqual(viewWith({}).notes);
  });

  it('is at the limit still in full: the limit is the largest size carried whole', () => {
    const view = viewWith({ nationsInFull: 3, eventsInFull: turn().events.length });
    expect(view.detail).toMatchObject({ nations: true, events: true });
  });

  it('draws the same world map either way', () => {
    const full = renderSvgMap(gmMapModel(viewWith({})));
    const summary = renderSvgMap(gmMapModel(viewWith({ nationsInFull: 0, eventsInFull: 0 })));
    expect(summary).toBe(full);
  });

  it('reads its limits from campaign.yaml and links the text reports when the campaign makes no HTML', async () => {
    setReports({ formats: ['txt', 'orders'], gm: { nationsInFull: 1, eventsInFull: 5 } });
    try {
      const open = await openCampaign(played.dir);
      const files = await renderReports({ open, before: turn().before, state: turn().state, events: turn().events, turn: 1, orders: turn().orders });
      const gm = files['reports/gm.html']!;
      expect(gm).toContain('<a href="argenta.txt">Argenta</a>');
      expect(gm).toContain('<a href="../events.yaml">events.yaml</a>');
      expect(gm).toContain('<code>reports.gm.nationsInFull</code>');
      expect(gm).not.toContain('id="nation-argenta"');
      const text = htmlText(gm);
      expect(text).toContain(`${turn().events.length} events: the whole log is`);
      // The notes players sent stay on the page: they are read by the GM only.
      expect(text).toContain('Please <b>confirm</b> the treaty');
      expect(gm).not.toMatch(/<tr><td class="num">1<\/td><td>[a-z]+<\/td>/);
    } finally {
      setReports({});
    }
  });

  it('is re-rendered by `fatecraft report` with the setting in force', async () => {
    setReports({ gm: { nationsInFull: 0 } });
    try {
      await writeReports(played.dir, { turn: 1 });
      const gm = readReports(played.dir, 1)['gm.html']!;
      expect(gm).toContain('<a href="borea.html">Borea</a>');
      expect(gm).not.toContain('<article class="nation"');
      // Events stay in full: only the nations are beyond their limit.
      expect(gm).toContain('<h2>The turn, event by event</h2>\n<table>');
    } finally {
      setReports({});
      await writeReports(played.dir, { turn: 1 });
    }
  });

  it('refuses a limit that is not a whole number of zero or more, naming the setting', async () => {
    setReports({ gm: { eventsInFull: -1 } });
    try {
      await expect(writeReports(played.dir, { turn: 1 })).rejects.toSatisfy((e: unknown) => e instanceof CampaignError && e.problems.some((p) => p.path === 'reports.gm.eventsInFull'));
      setReports({ gm: { eventsInFul: 10 } });
      await expect(writeReports(played.dir, { turn: 1 })).rejects.toSatisfy((e: unknown) => e instanceof CampaignError && e.problems.some((p) => p.path?.startsWith('reports.gm') === true && /eventsInFul/.test(p.message)));
    } finally {
      setReports({});
    }
  });
});
