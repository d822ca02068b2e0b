import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Campaign } from '../../src/core/campaign.js';
import { playedNations } from '../../src/core/campaign.js';
import type { GameState } from '../../src/core/state.js';
import { gmView } from '../../src/report/gm-view.js';
import { nationView } from '../../src/report/nation-view.js';
import { loadTemplates, NATION_FORMATS, renderGmReport, renderNationReports } from '../../src/report/render.js';
import { templateDirs } from '../../src/report/renderer.js';
import { FIXTURE, play, type Played } from './support.js';

/**
 * The compiled report templates against Handlebars on hostile names: every
 * unit, settlement and nation of the played fixture renamed with what HTML,
 * a terminal, YAML and Handlebars itself would take for markup, so every
 * value the templates print goes through both engines' escaping.
 */
const HOSTILE = ['<script>alert("x")</script>', "O'Brien & \"Sons\"", '{{nation.name}} {{{x}}}', 'Evil\u001b[2J\u001b[31m', 'two\nlines\r\n== GM NOTICE ==', 'back\u202Ewards', '`=`\u0000\u2028', '   spaced   ', ''];

function hostile<T>(value: T, i: number): T & { name: string } {
  return { ...value, name: HOSTILE[i % HOSTILE.length]! + String(i) };
}

function renamed(state: GameState): GameState {
  const copy = structuredClone(state);
  Object.keys(copy.units).forEach((id, i) => ((copy.units as Record<string, unknown>)[id] = hostile(copy.units[id as keyof typeof copy.units], i)));
  Object.keys(copy.settlements).forEach((id, i) => ((copy.settlements as Record<string, unknown>)[id] = hostile(copy.settlements[id as keyof typeof copy.settlements], i + 3)));
  return copy;
}

describe('the compiled templates on hostile names', () => {
  let run: Played;
  beforeAll(async () => {
    run = await play(FIXTURE, 1, 'compiled-hostile');
  }, 120_000);
  afterAll(() => run.cleanup());

  it('make Handlebars\' bytes for every nation and the GM', () => {
    const campaign: Campaign = structuredClone(run.open.campaign);
    Object.keys(campaign.nations).forEach((id, i) => (campaign.nations[id as keyof typeof campaign.nations] = hostile(campaign.nations[id as keyof typeof campaign.nations]!, i + 5)));
    const dirs = templateDirs(run.open);
    const compiled = loadTemplates(dirs, 'compiled only');
    const handlebars = loadTemplates(dirs, 'handlebars');
    const legend = run.open.file.map.legend;
    let checked = 0;
    let escaped = 0;
    for (const t of run.turns) {
      const before = renamed(t.before);
      const state = renamed(t.state);
      for (const nation of playedNations(campaign)) {
        if (!state.nations[nation]) continue;
        const view = nationView(campaign, before, state, t.events, nation, { orders: t.orders, legend });
        const fast = renderNationReports(view, campaign, compiled, NATION_FORMATS);
        expect(fast).toEqual(renderNationReports(view, campaign, handlebars, NATION_FORMATS));
        // The names reached the reports (escaped): the comparison is not of plain names only.
        if (fast.html?.includes('&lt;script&gt;')) escaped++;
        checked++;
      }
      const gm = gmView(campaign, before, state, t.events, { orders: t.orders, legend, nationReport: 'html' });
      expect(renderGmReport(gm, compiled).html).toBe(renderGmReport(gm, handlebars).html);
    }
    expect(checked).toBeGreaterThan(1);
    expect(escaped).toBeGreaterThan(0);
  });
});
