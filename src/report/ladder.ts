import { FATE_LADDER, ladderText, signed } from '../core/ladder.js';
import type { Campaign } from '../core/campaign.js';
import { ladderValue as coreLadderValue, rollName as coreRollName } from '../core/fate/words.js';
import type { Rated } from './types.js';

/**
 * The Fate ladder (src/core/ladder.ts), used to put a word beside indicator
 * values. Numbers beyond it (an indicator at -3) are shown bare rather than
 * given an invented word.
 */
export { FATE_LADDER, ladderText, signed };

/** A ladder value as the campaign writes it (src/core/fate/words.ts). */
export const ladderValue = (campaign: Campaign, n: number): string => coreLadderValue(campaign.rules, n);

/** What a roll of the rules is thrown with ("a d6", "four Fate dice on 3"). */
export const rollName = (campaign: Campaign, die: 'd6' | 'd3' = 'd6'): string => coreRollName(campaign.rules, die);

export function rated(value: number): Rated {
  const word = FATE_LADDER[value] ?? null;
  const s = signed(value);
  return { value, signed: s, word, text: word ? `${s} ${word}` : s };
}
