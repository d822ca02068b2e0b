import { describe, expect, it } from 'vitest';
import type { Campaign } from '../../src/core/campaign.js';
import { findNation } from '../../src/orders/names.js';
import { nationNamed, pressRecipients } from '../../src/orders/press-recipients.js';

/** Only the nations' ids, names and the rebels' mark are read here. */
function campaignOf(nations: { id: string; name: string; rebels?: boolean }[]): Campaign {
  return { nations: Object.fromEntries(nations.map((n) => [n.id, n])) } as unknown as Campaign;
}

const campaign = campaignOf([
  { id: 'gondarahl', name: 'Kingdom of Gondarahl' },
  { id: 'borea', name: 'Free Cities of Borea' },
  { id: 'east-borea', name: 'East Borea' },
  { id: 'rebels', name: 'The Rebels', rebels: true },
]);

describe('a nation as a player names it', () => {
  it('is found by its id or its full name, whatever the case, spaces and quotes', () => {
    expect(nationNamed(campaign, 'gondarahl')).toEqual({ ok: true, id: 'gondarahl' });
    expect(nationNamed(campaign, 'Kingdom of Gondarahl')).toEqual({ ok: true, id: 'gondarahl' });
    expect(nationNamed(campaign, '  "kingdom   OF gondarahl" ')).toEqual({ ok: true, id: 'gondarahl' });
    expect(nationNamed(campaign, 'East_Borea')).toEqual({ ok: true, id: 'east-borea' });
  });

  it('is found by words of its name that fit it alone, and asked about when they fit several', () => {
    expect(nationNamed(campaign, 'cities borea')).toEqual({ ok: true, id: 'borea' });
    expect(nationNamed(campaign, 'free cities')).toEqual({ ok: true, id: 'borea' });
    expect(nationNamed(campaign, 'Borea')).toEqual({ ok: true, id: 'borea' });
    expect(nationNamed(campaign, 'of')).toMatchObject({ ok: false, reason: '"of" fits 2 nations', hint: 'say which: Free Cities of Borea, Kingdom of Gondarahl' });
  });

  it('never names the rebels, and suggests a spelling for a name it does not know', () => {
    expect(nationNamed(campaign, 'rebels')).toMatchObject({ ok: false, reason: 'there is no nation "rebels"' });
    expect(nationNamed(campaign, 'The Rebels')).toMatchObject({ ok: false });
    // Elsewhere (a sheet's own nation, a mail's claim) the rebels are a nation like any other.
    expect(findNation(campaign, 'The Rebels')).toBe('rebels');
    expect(findNation(campaign, 'The Rebels', { rebels: false })).toBeUndefined();
    const misspelt = nationNamed(campaign, 'Gondarahll');
    expect(misspelt.ok).toBe(false);
    expect(misspelt.ok ? undefined : misspelt.hint).toContain('gondarahl');
  });

  it('gives a spelling two nations share to the first listed', () => {
    const twins = campaignOf([
      { id: 'north', name: 'Twins' },
      { id: 'twins', name: 'Southern Twins' },
      { id: 'south', name: 'Twins' },
    ]);
    expect(nationNamed(twins, 'twins')).toEqual({ ok: true, id: 'north' });
    expect(nationNamed(twins, 'Southern Twins')).toEqual({ ok: true, id: 'twins' });
    // A rebel listed first keeps the spelling for itself, but not from those who may not address it.
    const rebelFirst = campaignOf([{ id: 'free', name: 'Free Folk', rebels: true }, { id: 'folk', name: 'Free Folk' }]);
    expect(findNation(rebelFirst, 'free folk')).toBe('free');
    expect(nationNamed(rebelFirst, 'free folk')).toEqual({ ok: true, id: 'folk' });
  });

  it('reads a letter\'s recipients the same way', () => {
    expect(pressRecipients(campaign, ['Gondarahl', 'east borea', 'gondarahl'])).toEqual({ ok: true, to: ['gondarahl', 'east-borea'] });
    expect(pressRecipients(campaign, ['all'])).toEqual({ ok: true, to: 'all' });
  });
});
