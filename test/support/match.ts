/**
 * Partial structural match for expectations written by hand: every key the
 * expectation names must match; keys it leaves out are ignored. `null` means
 * "absent". Returns readable mismatches ([] when it matches).
 */
export function mismatches(actual: unknown, expected: unknown, path = ''): string[] {
  if (expected === null) return actual === undefined || actual === null ? [] : [`${path}: expected absent, got ${show(actual)}`];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected a list, got ${show(actual)}`];
    if (actual.length !== expected.length) return [`${path}: expected ${expected.length} items, got ${actual.length}: ${show(actual)}`];
    return expected.flatMap((e, i) => mismatches(actual[i], e, `${path}[${i}]`));
  }
  if (typeof expected === 'object' && expected !== undefined) {
    if (typeof actual !== 'object' || actual === null) return [`${path}: expected an object, got ${show(actual)}`];
    return Object.entries(expected).flatMap(([k, v]) => mismatches((actual as Record<string, unknown>)[k], v, path ? `${path}.${k}` : k));
  }
  return actual === expected ? [] : [`${path}: expected ${show(expected)}, got ${show(actual)}`];
}

const show = (v: unknown) => JSON.stringify(v);

/** Finds expected events in order (a subsequence of the log); returns what was not found. */
export function missingEvents(events: readonly unknown[], expected: readonly unknown[]): string[] {
  let from = 0;
  const missing: string[] = [];
  for (const want of expected) {
    const at = events.findIndex((e, i) => i >= from && mismatches(e, want).length === 0);
    if (at < 0) missing.push(`event not found (in order): ${show(want)}`);
    else from = at + 1;
  }
  return missing;
}
