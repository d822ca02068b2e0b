import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareIds } from '../../src/core/ids.js';
import type { Campaign } from '../../src/core/campaign.js';
import { AREA_LIMIT, AREA_MINIMUM, areaOfInterest, compareHexes, sortedByHex } from '../../src/report/map-grid.js';

describe('sortedByHex', () => {
  it('gives the order of a sort by compareHexes, ties by the tie-breaker', () => {
    // Off-map keys (negative) and columns far beyond any map's (where the packed sort gives way to a comparator) too.
    const coordinate = fc.oneof(fc.integer({ min: -20, max: 500 }), fc.integer({ min: 0x3ffff00, max: 0x3ffffff }));
    const item = fc.record({ hex: fc.tuple(coordinate, fc.nat(500)).map(([c, r]) => `${c},${r}`), id: fc.constantFrom('a', 'b', 'n0001-u7', 'n0001-u10') });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), (items) => {
        const slow = [...items].sort((a, b) => compareHexes(a.hex, b.hex) || compareIds(a.id, b.id));
        expect(sortedByHex(items, (i) => i.hex, (a, b) => compareIds(a.id, b.id))).toEqual(slow);
        // Without a tie-breaker, a hex's items keep the order they came in.
        expect(sortedByHex(items, (i) => i.hex)).toEqual([...items].sort((a, b) => compareHexes(a.hex, b.hex)));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
  });

  it('lists hexes by column, then row, numerically', () => {
    expect(sortedByHex(new Set(['10,2', '2,10', '2,9', '0,0']), (h) => h)).toEqual(['0,0', '2,9', '2,10', '10,2']);
  });
});

describe('areaOfInterest', () => {
  const campaign = (width: number, height: number) => ({ map: { width, height } }) as unknown as Campaign;
  const hexes = (...list: [number, number][]) => list.map(([c, r]) => `${c},${r}`);

  it('frames what the nation knows with a margin, at least the minimum size, from an even column', () => {
    // Hexes 21..25 across, 10..12 down: with the margin 20..26 × 9..13, widened to the minimum.
    const w = areaOfInterest(campaign(60, 40), [hexes([21, 10], [25, 12])]);
    expect(w.col % 2).toBe(0);
    expect(w.cols - AREA_MINIMUM.cols).toBeGreaterThanOrEqual(0);
    expect(w.cols - AREA_MINIMUM.cols).toBeLessThanOrEqual(1); // one more to start on an even column
    expect(w.rows).toBe(AREA_MINIMUM.rows);
    expect(w.col).toBeLessThanOrEqual(20);
    expect(w.col + w.cols - 1).toBeGreaterThanOrEqual(26);
    expect(w.row).toBeLessThanOrEqual(9);
    expect(w.row + w.rows - 1).toBeGreaterThanOrEqual(13);
  });

  it('cuts a box bigger than the limit to the limit around the nation\'s own hexes, not a lone far one', () => {
    const own = hexes([10, 10], [11, 11], [12, 10]);
    const w = areaOfInterest(campaign(100, 100), [own, ['80,90']], own);
    expect(w.cols).toBeLessThanOrEqual(AREA_LIMIT.cols);
    expect(w.rows).toBe(AREA_LIMIT.rows);
    for (const [c, r] of [[10, 10], [12, 10]]) {
      expect(c).toBeGreaterThanOrEqual(w.col);
      expect(c).toBeLessThan(w.col + w.cols);
      expect(r).toBeGreaterThanOrEqual(w.row);
      expect(r).toBeLessThan(w.row + w.rows);
    }
  });

  it('never leaves the map, and is the whole map when the map is small', () => {
    expect(areaOfInterest(campaign(12, 9), [hexes([0, 0], [11, 8])])).toEqual({ col: 0, row: 0, cols: 12, rows: 9 });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(49), fc.nat(29)), { minLength: 1, maxLength: 20 }), (list) => {
        const w = areaOfInterest(campaign(50, 30), [hexes(...list)], hexes(...list.slice(0, 3)));
        expect(w.col).toBeGreaterThanOrEqual(0);
        expect(w.row).toBeGreaterThanOrEqual(0);
        expect(w.col + w.cols).toBeLessThanOrEqual(50);
        expect(w.row + w.rows).toBeLessThanOrEqual(30);
        expect(w.cols).toBeLessThanOrEqual(AREA_LIMIT.cols);
        expect(w.rows).toBeLessThanOrEqual(AREA_LIMIT.rows);
        expect(w.col % 2).toBe(0);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
  });
});
