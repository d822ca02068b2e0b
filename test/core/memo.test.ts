import { describe, expect, it } from 'vitest';
import type { Campaign } from '../../src/core/campaign.js';
import { perCampaign, perCampaignAndState, perState } from '../../src/core/memo.js';
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
    made = 0;
    const per = perState(() => ++made);
    expect([per(s), per(t), per(s), per(t)]).toEqual([1, 2, 1, 2]);
  });

  it.each([
    ['campaign', perCampaign],
    ['state', perState],
  ] as const)('keeps a value that is undefined, without making it again (per %s)', (_, keep) => {
    let made = 0;
    const none = keep(() => {
      made++;
      return undefined;
    }) as (key: object) => undefined;
    const key = {};
    none(key);
    none(key);
    expect(made).toBe(1);
  });
});
