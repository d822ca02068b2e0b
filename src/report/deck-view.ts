import type { Campaign } from '../core/campaign.js';
import { DECK, DECK_SIZE, symbolsText } from '../core/fate/deck.js';
import { ladderText } from '../core/ladder.js';
import type { NationState } from '../core/state.js';
import type { DeckView } from './types.js';

/**
 * The nation's Deck of Fate discard pile (docs/rules.md F4, F8): "any player
 * may look through the discard pile at any time" (seed 000 line 17). Listed
 * by result, each card with its symbols; absent outside a Deck of Fate
 * campaign, so other reports read as before.
 */
export function deckOf(campaign: Campaign, ns: NationState): DeckView | undefined {
  if (campaign.rules.fate.randomiser !== 'deck') return undefined;
  const discards = ns.deck?.discards ?? [];
  const byResult = new Map<number, string[]>();
  for (const id of discards) {
    const card = DECK[id];
    if (!card) continue;
    byResult.set(card.result, [...(byResult.get(card.result) ?? []), symbolsText(card) || 'no symbol']);
  }
  const results = [...byResult.keys()].sort((a, b) => b - a);
  return {
    discarded: discards.length,
    left: DECK_SIZE - discards.length,
    lines: results.map((r) => `${ladderText(r)}: ${byResult.get(r)!.length} — ${byResult.get(r)!.join('; ')}`),
  };
}
