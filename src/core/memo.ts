import type { Campaign } from './campaign.js';
import type { GameState } from './state.js';

/**
 * Values derived once from a campaign, a state, or both, and kept for as long
 * as those objects live: map look-ups, world indexes, name tables. Keyed
 * weakly by the objects themselves, so use them only on a campaign or state
 * that is not changing any more.
 */
function weaklyKept<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    const kept = made.get(key);
    // One look-up in the usual case; `has` only tells a value of undefined from none made yet.
    if (kept !== undefined || made.has(key)) return kept as V;
    const value = make(key);
    made.set(key, value);
    return value;
  };
}

export const perCampaign = <V>(make: (campaign: Campaign) => V): ((campaign: Campaign) => V) => weaklyKept(make);

export const perState = <V>(make: (state: GameState) => V): ((state: GameState) => V) => weaklyKept(make);

export function perCampaignAndState<V>(make: (campaign: Campaign, state: GameState) => V): (campaign: Campaign, state: GameState) => V {
  const forState = perState((state) => perCampaign((campaign) => make(campaign, state)));
  return (campaign, state) => forState(state)(campaign);
}
