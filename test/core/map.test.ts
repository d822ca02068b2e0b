import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hexKey, hexesWithin } from '../../src/core/hex.js';
import type { HexKey } from '../../src/core/ids.js';
import { GameMap, type MoveDomain } from '../../src/core/map.js';
import type { TerrainRule } from '../../src/core/settings.js';

/**
 * GameMap.reach searches over arrays of hex numbers for speed; it must find
 * exactly the costs of a plain Dijkstra written with the map's own rules.
 */
const RULES: Record<string, TerrainRule> = {
  plains: { cost: 1, water: false, impassable: false },
  hills: { cost: 2, water: false, impassable: false },
  mountains: { cost: 3, water: false, impassable: false },
  peaks: { cost: 1, water: false, impassable: true },
  sea: { cost: 1, water: true, impassable: false },
};

function plainReach(map: GameMap, from: HexKey, budget: number, domain: MoveDomain, ports: ReadonlySet<HexKey> | undefined, minimumMove: boolean): Map<HexKey, number> {
  const best = new Map<HexKey, number>([[from, 0]]);
  const open = new Set<HexKey>([from]);
  while (open.size) {
    const here = [...open].sort((a, b) => best.get(a)! - best.get(b)!)[0]!;
    open.delete(here);
    if (domain === 'naval' && here !== from && !map.isWater(here)) continue;
    for (const next of map.adjacent(here)) {
      const step = map.entryCost(next, domain, ports);
      if (step === undefined) continue;
      const total = minimumMove && here === from && step > budget && budget > 0 ? budget : best.get(here)! + step;
      if (total > budget || (best.has(next) && best.get(next)! <= total)) continue;
      best.set(next, total);
      open.add(next);
    }
  }
  return best;
}

describe('GameMap.reach', () => {
  it('finds the same costs as a plain Dijkstra, on land and at sea, with ports and the minimum move', () => {
    const world = fc.record({
      width: fc.integer({ min: 1, max: 9 }),
      height: fc.integer({ min: 1, max: 9 }),
      seed: fc.array(fc.constantFrom(...Object.keys(RULES)), { minLength: 81, maxLength: 81 }),
      col: fc.nat(8),
      row: fc.nat(8),
      budget: fc.integer({ min: 0, max: 5 }),
      naval: fc.boolean(),
      minimumMove: fc.boolean(),
      portEvery: fc.integer({ min: 2, max: 5 }),
    });
    fc.assert(
      fc.property(world, (w) => {
        const terrain = w.seed.slice(0, w.width * w.height);
        const map = new GameMap({ width: w.width, height: w.height, terrain, resources: [], places: {} }, RULES);
        const from = hexKey(w.col % w.width, w.row % w.height);
        const ports = w.naval ? new Set(terrain.map((_, i) => hexKey(i % w.width, Math.floor(i / w.width))).filter((_, i) => i % w.portEvery === 0)) : undefined;
        const domain: MoveDomain = w.naval ? 'naval' : 'land';
        // Twice, so the second search runs on the scratch arrays the first one left behind.
        for (let i = 0; i < 2; i++) {
          const found = map.reach(from, w.budget, domain, ports, w.minimumMove);
          expect(new Map([...found.entries()].sort())).toEqual(new Map([...plainReach(map, from, w.budget, domain, ports, w.minimumMove)].sort()));
          for (const [hex] of found.entries()) {
            const path = found.pathTo(hex)!;
            expect(path.at(-1) ?? from).toBe(hex);
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('GameMap.sightFrom', () => {
  it('is every on-map hex within range of some source, each once, in the order first seen', () => {
    const source = fc.tuple(fc.nat(11), fc.nat(9), fc.integer({ min: 0, max: 4 }));
    fc.assert(
      fc.property(fc.array(source, { maxLength: 6 }), (sources) => {
        const map = new GameMap({ width: 12, height: 10, terrain: new Array<string>(120).fill('plains'), resources: [], places: {} }, RULES);
        const expected: HexKey[] = [];
        for (const [col, row, range] of sources) {
          for (const o of hexesWithin({ col, row }, range)) {
            const key = hexKey(o.col, o.row);
            if (o.col >= 0 && o.row >= 0 && o.col < 12 && o.row < 10 && !expected.includes(key)) expected.push(key);
          }
        }
        // Twice: the second call runs on the marks the first one left behind.
        for (let i = 0; i < 2; i++) expect([...map.sightFrom(sources.map(([c, r, range]) => [hexKey(c, r), range] as const))]).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
