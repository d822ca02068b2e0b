import { FATE_LADDER, ladderText, signed } from '../core/ladder.js';
import type { Rated } from './types.js';

/**
 * The Fate ladder (src/core/ladder.ts), used to put a word beside indicator
 * values. Numbers beyond it (an indicator at -3) are shown bare rather than
 * given an invented word.
 */
export { FATE_LADDER, ladderText, signed };

export function rated(value: number): Rated {
  const word = FATE_LADDER[value] ?? null;
  const s = signed(value);
  return { value, signed: s, word, text: word ? `${s} ${word}` : s };
}
