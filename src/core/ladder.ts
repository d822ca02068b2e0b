/**
 * The Fate ladder (seed 002 lines 1–23, seed 000 lines 29–43): the words for
 * +8 Legendary down to -2 Terrible. Core code reads ladder values written as
 * words ("Great"), as a word with its number ("Great (+4)") or as a number
 * ("+4", "4"); reports write them as "Great (+4)".
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

const BY_WORD: ReadonlyMap<string, number> = new Map(Object.entries(FATE_LADDER).map(([n, w]) => [w.toLowerCase(), Number(n)]));

export const signed = (n: number): string => (n > 0 ? `+${n}` : String(n));

/** "Great (+4)"; a number off the ladder stays a bare signed number ("-3"). */
export function ladderText(n: number): string {
  const word = FATE_LADDER[n];
  // Fate writes the middle of the ladder "+0 Mediocre" (seed 002 line 19).
  return word ? `${word} (${n === 0 ? '+0' : signed(n)})` : signed(n);
}

/**
 * A ladder value as written: a number, "+4", "Great", "great (+4)". A word and
 * number that disagree ("Great (+3)") or an unknown word is undefined, so the
 * caller can refuse it with its own message.
 */
export function parseLadder(given: unknown): number | undefined {
  if (typeof given === 'number') return Number.isInteger(given) ? given : undefined;
  if (typeof given !== 'string') return undefined;
  const text = given.trim().replace(/\u2212/g, '-');
  if (/^[+-]?\d+$/.test(text)) return Number(text);
  const m = /^([A-Za-z]+)\s*(?:\(\s*([+-]?\d+)\s*\))?$/.exec(text);
  if (!m) return undefined;
  const n = BY_WORD.get(m[1]!.toLowerCase());
  if (n === undefined) return undefined;
  if (m[2] !== undefined && Number(m[2]) !== n) return undefined;
  return n;
}

/** The words a refusal lists as valid. */
export const LADDER_HELP = 'a number (+4) or a ladder word (Great, Great (+4)): Legendary +8 … Terrible -2';
