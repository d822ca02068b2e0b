import type { Rated } from './types.js';

/**
 * The Fate ladder (Fate Core, p. 9), used to put a word beside indicator
 * values. It runs from +8 Legendary down to -2 Terrible; numbers beyond it
 * (an indicator at -3) are shown bare rather than given an invented word.
 */
export const FATE_LADDER: Readonly<Record<number, string>> = {
  8: 'Legendary',
  7: 'Epic',
  6: 'Fantastic',
  5: 'Superb',
  4: 'Great',
  3: 'Good',
  2: 'Fair',
  1: 'Average',
  0: 'Mediocre',
  [-1]: 'Poor',
  [-2]: 'Terrible',
};

export const signed = (n: number): string => (n > 0 ? `+${n}` : String(n));

export function rated(value: number): Rated {
  const word = FATE_LADDER[value] ?? null;
  const s = signed(value);
  return { value, signed: s, word, text: word ? `${s} ${word}` : s };
}
