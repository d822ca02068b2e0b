import { describe, expect, it } from 'vitest';
import type { Campaign } from '../../src/core/campaign.js';
import { DECK, symbolsText } from '../../src/core/fate/deck.js';
import { asNationId } from '../../src/core/ids.js';
import type { NationState } from '../../src/core/state.js';
import { deckOf } from '../../src/report/deck-view.js';

/**
 * Issue 36: "any player may look through the discard pile at any time"
 * (seed 000 line 17) — a Deck of Fate campaign's report lists the nation's
 * discards, by result, each card with its symbols; other campaigns' reports
 * say nothing of it.
 */
const campaign = (randomiser: string) => ({ rules: { fate: { randomiser } } }) as unknown as Campaign;
const nation = (discards?: number[]) => ({ id: asNationId('argenta'), ...(discards ? { deck: { discards } } : {}) }) as unknown as NationState;

describe('the discard pile in the report', () => {
  it('lists the cards by result, best first, with their symbols and what is left to draw', () => {
    const cards = [0, 40, 41, 80];
    const view = deckOf(campaign('deck'), nation(cards))!;
    expect(view).toMatchObject({ discarded: 4, left: 77 });
    expect(view.lines[0]).toBe(`Great (+4): 1 — ${symbolsText(DECK[80]!) || 'no symbol'}`);
    expect(view.lines.at(-1)).toBe(`-4: 1 — ${symbolsText(DECK[0]!) || 'no symbol'}`);
    expect(view.lines.join('\n')).toContain(`Mediocre (+0): 1 — ${symbolsText(DECK[40]!)}`);
  });

  it('is there with an empty pile in a Deck of Fate campaign, and absent in others', () => {
    expect(deckOf(campaign('deck'), nation())).toEqual({ discarded: 0, left: 81, lines: [] });
    expect(deckOf(campaign('fateDice'), nation([1, 2]))).toBeUndefined();
    expect(deckOf(campaign('d6'), nation([1, 2]))).toBeUndefined();
  });
});
