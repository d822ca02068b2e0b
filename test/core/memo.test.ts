import { describe, expect, it } from 'vitest';
import type { Campaign } from '../../src/core/campaign.js';
import { perCampaign, perCampaignAndState } from '../../src/core/memo.js';
import type { GameState } from '../../src/core/state.js';

describe('memo', () => {
  it('makes a value once per campaign, and once per campaign and state', () => {
    const [a, b] = [{} as Campaign, {} as Campaign];
    const [s, t] = [{} as GameState, {} as GameState];
    let made = 0;
    const one = perCampaign(() => ++made);
    expect([one(a), one(a), one(b), one(b)]).toEqual([1, 1, 2, 2]);
    made = 0;
    const two = perCampaignAndState(() => ++made);
    expect([two(a, s), two(a, s), two(b, s), two(a, t), two(b, s)]).toEqual([1, 1, 2, 3, 2]);
  });

  it('keeps a value that is undefined, without making it again', () => {
    let made = 0;
    const none = perCampaign(() => {
      made++;
      return undefined;
    });
    const c = {} as Campaign;
    none(c);
    none(c);
    expect(made).toBe(1);
  });
});
