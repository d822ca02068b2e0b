/** "Did you mean": the closest candidates by edit distance, for misspelt names and keywords. */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] ?? 0;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] ?? 0;
      prev[j] = Math.min(up + 1, (prev[j - 1] ?? 0) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length] ?? 0;
}

/** Words longer than this get no suggestions: nothing is spelt that long, and the distance is quadratic. */
const LONGEST_WORD = 64;

export function closest(word: string, candidates: Iterable<string>, max = 3): string[] {
  const w = word.trim().toLowerCase();
  if (!w || w.length > LONGEST_WORD) return [];
  const limit = Math.max(2, Math.floor(w.length / 3));
  return oneSpellingEach(candidates)
    .filter((c) => c.length <= LONGEST_WORD)
    .map((c) => ({ c, d: editDistance(w, c.toLowerCase()) }))
    .filter((x) => x.d <= limit || x.c.toLowerCase().startsWith(w))
    .sort((a, b) => a.d - b.d || (a.c < b.c ? -1 : a.c > b.c ? 1 : 0))
    .slice(0, max)
    .map((x) => x.c);
}

export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  const best = closest(word, candidates);
  return best.length ? `did you mean ${best.map((b) => `"${b}"`).join(' or ')}?` : undefined;
}

/**
 * One spelling of each name, whatever its case: a settlement is offered as "Fenby", not as "Fenby" or
 * "fenby" (its id); the spelling with capitals, as the map and the reports write it, is the one kept.
 */
export function oneSpellingEach(candidates: Iterable<string>): string[] {
  const kept = new Map<string, string>();
  for (const c of candidates) {
    const key = c.toLowerCase();
    const had = kept.get(key);
    if (had === undefined || (had === key && c !== key)) kept.set(key, c);
  }
  return [...kept.values()];
}
