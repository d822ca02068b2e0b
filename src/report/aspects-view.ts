import { holderOf, placeText, visibleAspects } from '../core/aspects/places.js';
import type { Campaign } from '../core/campaign.js';
import type { NationId } from '../core/ids.js';
import type { GameState } from '../core/state.js';
import type { AspectView, GmAspectView } from './types.js';

/**
 * The Fate aspects a nation's report lists (docs/rules.md A1): every public
 * aspect and its own secret ones, never another nation's secret ones, with
 * the free invokes and whose they are. Undefined when it sees none, so a
 * campaign without aspects renders exactly as before.
 */
export function aspectsOf(campaign: Campaign, state: GameState, nation: NationId): AspectView[] | undefined {
  if (!state.aspects?.length) return undefined;
  const seen = visibleAspects(state, nation);
  if (!seen.length) return undefined;
  return seen.map((a) => {
    const but = a.backfired ? ` but ${a.backfired === nation ? 'yours' : `${campaign.nations[a.backfired]?.name ?? a.backfired}'s`}` : '';
    const owner = a.owner ? (a.owner === nation ? 'yours' : `${campaign.nations[a.owner]?.name ?? a.owner}'s`) : `anyone's${but}`;
    const holder = holderOf(state, a.on);
    const free = a.boost ? 'a boost: adds fortune once, then gone' : a.free ? `${a.free} free invoke${a.free === 1 ? '' : 's'} (${owner})` : 'no free invokes';
    return {
      name: a.name,
      place: placeText(campaign, state, a.on),
      free: a.free,
      text: free,
      boost: a.boost === true,
      secret: a.secret === true,
      yours: a.owner === nation,
      onYou: holder === nation,
    };
  });
}

/** Every aspect in play, as the GM's page lists them: secret ones too, with whose free invokes they are. */
export function allAspects(campaign: Campaign, state: GameState): GmAspectView[] | undefined {
  if (!state.aspects?.length) return undefined;
  return state.aspects.map((a) => ({
    name: a.name,
    place: placeText(campaign, state, a.on),
    owner: a.owner ? (campaign.nations[a.owner]?.name ?? a.owner) : a.backfired ? `anyone but ${campaign.nations[a.backfired]?.name ?? a.backfired}` : 'anyone',
    free: a.free,
    boost: a.boost === true,
    secret: a.secret === true,
    since: a.since,
  }));
}
