import type { Campaign } from './campaign.js';
import type { GameState } from './state.js';

/**
 * Values derived once from a campaign, or from a campaign and a state, and
 * kept for as long as those objects live: map look-ups, world indexes, name
 * tables. Keyed weakly by the objects themselves, so use them only on a
 * campaign or state that is not changing any more.
 */
export function perCampaign<V>(make: (campaign: Campaign) => V): (campaign: Campaign) => V {
  const made = new WeakMap<Campaign, V>();
  return (campaign) => {
    if (made.has(campaign)) return made.get(campaign) as V;
    const value = make(campaign);
    made.set(campaign, value);
    return value;
  };
}

export function perCampaignAndState<V>(make: (campaign: Campaign, state: GameState) => V): (campaign: Campaign, state: GameState) => V {
  const made = new WeakMap<GameState, (campaign: Campaign) => V>();
  return (campaign, state) => {
    let forState = made.get(state);
    if (!forState) made.set(state, (forState = perCampaign((c) => make(c, state))));
    return forState(campaign);
  };
}
