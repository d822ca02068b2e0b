import { describe, expect, it } from 'vitest';
import { asNationId } from '../../src/core/ids.js';
import { nationView } from '../../src/report/nation-view.js';
import { gmView } from '../../src/report/gm-view.js';
import { fightAt82 } from '../core/warfare/turn-support.js';
import { builtInTemplateDir, loadTemplates, renderGmReport, renderNationReports } from '../../src/report/render.js';

/**
 * A Warfare battle in the reports (docs/rules.md W16): both sides read the
 * whole account — each exchange's zone map, every action with its draws and
 * shifts — and the GM's log has it too.
 */
// The attacker marches straight in (written before prepare became the default, W14).
const fight = (enabled: boolean) => fightAt82({ enabled, minUnitsPerSide: 3, prepare: false });

describe('a Warfare battle in the reports', () => {
  it('is told in full in both sides’ text reports and in the GM’s log', () => {
    const { campaign, state, result } = fight(true);
    const templates = loadTemplates([builtInTemplateDir()]);
    for (const nation of ['argenta', 'gondarahl']) {
      const view = nationView(campaign, state, result.state, result.events, asNationId(nation));
      const txt = renderNationReports(view, campaign, templates, ['txt']).txt!;
      expect(txt).toContain('Warfare at 8,2: Duchy of Argenta attacked Kingdom of Gondarahl; Kingdom of Gondarahl won after 5 exchanges (no attacking unit is left on the field)');
      expect(txt).toContain('\n-- Warfare --\n');
      expect(txt).toContain('\n  Exchange 2: the defenders hold the strategic zone with 3 units; 3 units of the attackers 2 zones off it.\n');
      expect(txt).toContain('\n    [           ] [* D3       ] [           ]\n');
      // The map marks the battle and the units lost in it, as for any battle.
      expect(view.changes.marks.find((m) => m.kind === 'battle')).toMatchObject({ hex: '8,2', text: 'Warfare at 8,2: Duchy of Argenta attacked Kingdom of Gondarahl; Kingdom of Gondarahl won.' });
      expect(view.changes.marks.filter((m) => m.kind === 'lost').length).toBeGreaterThan(0);
      const html = renderNationReports(view, campaign, templates, ['html']).html!;
      expect(html).toContain('<h3>Warfare</h3>');
      expect(txt).toContain('Knights (a-3), Marines (a-1) (+5) against Dwarven infantry (d-1) (Armor +4): drew +0 against +0; the defence invoked Set Defence for +2; +5 vs +6; failure');
      expect(txt).toContain('creates an advantage with 3 unit(s): drew +0 + fighting +2 + 2 helping = +4 against +0: success with style: Set Defence on z0,1 with 2 free invokes');
    }
    const gm = gmView(campaign, state, result.state, result.events);
    expect(gm.warfare?.[0]?.headline).toMatch(/^Warfare at 8,2: /);
    // Each action in words, its numbers under it (the story, issue 36).
    expect(gm.warfare?.[0]?.lines).toContain('      a novice commander of Duchy of Argenta moves z2,1 → z0,1');
    const html = renderGmReport(gm, templates).html;
    expect(html).toContain('<h3>Warfare</h3>\n<p class="key">Key: a battle over zones');
    expect(html).toContain('</p>\n<p>Warfare at 8,2: ');
    expect(html).toContain('  a novice commander of Duchy of Argenta moves z2,1 → z0,1\n');
    // The only battle was fought as Warfare: the page does not say there were none.
    expect(html).not.toContain('No battles.');
  });

  it('is off by default: the same attack is an ordinary battle', () => {
    const { result } = fight(false);
    expect(result.events.some((e) => e.type === 'warfare')).toBe(false);
    expect(result.events.some((e) => e.type === 'battle')).toBe(true);
  });
});
