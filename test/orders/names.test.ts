import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normName } from '../../src/orders/names.js';

/** The normalisation written out in full, as it was before ids took a shortcut. */
const slowNorm = (s: string) =>
  s
    .trim()
    .replace(/^["“”]+|["“”]+$/g, '')
    .toLowerCase()
    .replace(/[\s_]+/g, ' ')
    .trim();

describe('normName', () => {
  it('gives what the full normalisation gives, ids and names alike', () => {
    const pieces = fc.constantFrom('a', 'Z', '7', '-', '_', ' ', '  ', '\t', '"', '“', 'é', 'n0001-u7', 'Iron Guard');
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(pieces).map((p) => p.join(''))), (s) => {
        expect(normName(s)).toBe(slowNorm(s));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
  });

  it('reads names in any case and spacing', () => {
    expect(normName('  "Iron_Guard"  ')).toBe('iron guard');
    expect(normName('n0001-u7')).toBe('n0001-u7');
  });
});
