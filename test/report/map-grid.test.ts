import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareIds } from '../../src/core/ids.js';
import { compareHexes, sortedByHex } from '../../src/report/map-grid.js';

describe('sortedByHex', () => {
  it('gives the order of a sort by compareHexes, ties by the tie-breaker', () => {
    const item = fc.record({ hex: fc.tuple(fc.nat(500), fc.nat(500)).map(([c, r]) => `${c},${r}`), id: fc.constantFrom('a', 'b', 'n0001-u7', 'n0001-u10') });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), (items) => {
        const slow = [...items].sort((a, b) => compareHexes(a.hex, b.hex) || compareIds(a.id, b.id));
        expect(sortedByHex(items, (i) => i.hex, (a, b) => compareIds(a.id, b.id))).toEqual(slow);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
  });

  it('lists hexes by column, then row, numerically', () => {
    expect(sortedByHex(new Set(['10,2', '2,10', '2,9', '0,0']), (h) => h)).toEqual(['0,0', '2,9', '2,10', '10,2']);
  });
});
