import { describe, expect, it } from 'vitest';
import { asNationId } from '../../src/core/ids.js';
import { nationView } from '../../src/report/nation-view.js';
import { gmView } from '../../src/report/gm-view.js';
import { fightAt82 } from '../core/warfare/turn-support.js';
import { builtInTemplateDir, loadTemplates, renderGmReport, renderNationReports } from '../../src/report/render.js';

/**
 * A Warfare battle a player can follow (docs/rules.md W16; issue 36): the
 * account reads as a story — each exchange opens with who holds the
 * strategic zone and how far off the other side is, each action in plain
 * words with its numbers under it, and at the end what turned the battle;
 * the terms (zone, minor advantage, free invoke) explained once, in a key.
 */
const fight = () => fightAt82({ enabled: true, minUnitsPerSide: 3, prepare: false });

describe('a Warfare battle told as a story', () => {
  const { campaign, state, result } = fight();
  const templates = loadTemplates([builtInTemplateDir()]);
  const txt = renderNationReports(nationView(campaign, state, result.state, result.events, asNationId('argenta')), campaign, templates, ['txt']).txt!;

  it('opens each exchange with who stands where', () => {
    expect(txt).toContain('\n  Exchange 1: the defenders hold the strategic zone with 3 units; 3 units of the attackers 4 zones off it.\n');
  });

  it('tells each action in words, with its numbers under it', () => {
    expect(txt).toContain(
      '\n    A novice commander of Duchy of Argenta marches from two zones out, in the centre to the strategic zone.\n' +
        '        a novice commander of Duchy of Argenta moves z2,1 → z0,1\n',
    );
    expect(txt).toContain('makes Set Defence on the strategic zone: two free invokes ready for the defenders there.\n');
    expect(txt).toMatch(/\n {4}Knights \(a-3\) and Marines \(a-1\) fall on Dwarven infantry \(d-1\), but it holds\.\n {8}Knights \(a-3\), Marines \(a-1\) \(\+5\) against Dwarven infantry \(d-1\)/);
  });

  it('ends with what turned the battle', () => {
    expect(txt).toContain('\n  What turned it: in exchange 3 the defenders went ahead, 3 units to 2, and kept the lead.\n');
  });

  it('explains the terms once, in a key before the first battle', () => {
    expect(txt.match(/Key: a battle over zones/g)).toHaveLength(1);
    expect(txt).toContain('A minor advantage lets a commander draw one roll again.');
    expect(txt).toContain('a free invoke costs nothing');
    expect(txt.indexOf('Key: a battle over zones')).toBeLessThan(txt.indexOf('Warfare at 8,2:'));
  });

  it('gives the GM the same story and key', () => {
    const gm = gmView(campaign, state, result.state, result.events);
    expect(gm.warfare?.[0]?.key?.[0]).toMatch(/^Key: a battle over zones/);
    const html = renderGmReport(gm, templates).html;
    expect(html).toContain('<p class="key">Key: a battle over zones');
    expect(html).toContain('What turned it: ');
  });
});
