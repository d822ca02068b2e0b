import type { Campaign, MapDefinition } from './campaign.js';
import { hexKey, hexesWithin, neighbours, offsetOf, parseHex, type Offset } from './hex.js';
import type { HexKey } from './ids.js';
import { perCampaign } from './memo.js';
import type { TerrainRule } from './settings.js';

/** Which hexes a mover may enter: land units walk, naval units sail (and put in at ports). */
export type MoveDomain = 'land' | 'naval';

export interface Reach {
  /** Movement points spent to reach each hex (the start costs 0). */
  cost: Map<HexKey, number>;
  /** Predecessor of each reached hex on a cheapest path, for path reconstruction. */
  previous: Map<HexKey, HexKey>;
}

/**
 * The campaign map with its terrain rules resolved: bounds, terrain lookups,
 * movement costs and bounded shortest paths. Built once per turn.
 */
export class GameMap {
  readonly width: number;
  readonly height: number;
  private readonly terrain: string[];
  private readonly rules: Record<string, TerrainRule>;

  constructor(def: MapDefinition, rules: Record<string, TerrainRule>) {
    this.width = def.width;
    this.height = def.height;
    this.terrain = def.terrain;
    this.rules = rules;
  }

  /** One map per campaign, so its hex caches serve every look-up of a turn and its reports. */
  static of(campaign: Campaign): GameMap {
    return mapOf(campaign);
  }

  contains(key: string): key is HexKey {
    const at = parseHex(key);
    return at !== undefined && this.inBounds(at) && key === hexKey(at.col, at.row);
  }

  inBounds({ col, row }: Offset): boolean {
    return col >= 0 && row >= 0 && col < this.width && row < this.height;
  }

  private readonly offsets = new Map<HexKey, Offset>();

  /** Parsing "col,row" is the hot path of every search: each key is parsed once per map. */
  private offset(key: HexKey): Offset {
    let at = this.offsets.get(key);
    if (!at) this.offsets.set(key, (at = offsetOf(key)));
    return at;
  }

  terrainAt(key: HexKey): string {
    const { col, row } = this.offset(key);
    return this.terrain[row * this.width + col] ?? 'unknown';
  }

  ruleAt(key: HexKey): TerrainRule | undefined {
    return this.rules[this.terrainAt(key)];
  }

  isWater(key: HexKey): boolean {
    return this.ruleAt(key)?.water === true;
  }

  isLand(key: HexKey): boolean {
    const rule = this.ruleAt(key);
    return rule !== undefined && !rule.water && !rule.impassable;
  }

  /** A land hex with water next to it: where ports can be and landings happen. */
  isCoast(key: HexKey): boolean {
    return this.isLand(key) && this.adjacent(key).some((n) => this.isWater(n));
  }

  private readonly adjacency = new Map<HexKey, HexKey[]>();

  adjacent(key: HexKey): HexKey[] {
    let list = this.adjacency.get(key);
    if (!list) {
      list = neighbours(this.offset(key))
        .filter((o) => this.inBounds(o))
        .map((o) => hexKey(o.col, o.row));
      this.adjacency.set(key, list);
    }
    return list;
  }

  /**
   * Cost of entering `key`, or undefined when the domain cannot enter it.
   * `ports` lets naval units put in at friendly coastal settlements.
   */
  entryCost(key: HexKey, domain: MoveDomain, ports?: ReadonlySet<HexKey>): number | undefined {
    const rule = this.ruleAt(key);
    if (!rule || rule.impassable) return undefined;
    if (domain === 'naval') {
      if (rule.water) return rule.cost;
      return ports?.has(key) ? 1 : undefined;
    }
    return rule.water ? undefined : rule.cost;
  }

  /**
   * The map as arrays over hex numbers (row * width + col), made on the first
   * search: neighbours, and each hex's entry cost on land and at sea. A turn
   * runs a search for every unit that moves or attacks and every order sheet
   * another; with strings and maps each step cost several look-ups.
   */
  private grid?: {
    keys: HexKey[];
    /** Six neighbour numbers per hex, -1 off the map. */
    around: Int32Array;
    /** Entry cost for land units, -1 where they cannot go. */
    landCost: Float64Array;
    /** Entry cost for ships on water, -1 elsewhere (ports are decided per search). */
    seaCost: Float64Array;
    /** Scratch for one search or sight at a time: the hexes reached, and for a search their cost and predecessor. */
    seen: HexMarks;
    cost: Float64Array;
    from: Int32Array;
  };

  private gridOf(): NonNullable<GameMap['grid']> {
    if (this.grid) return this.grid;
    const n = this.width * this.height;
    const keys: HexKey[] = new Array<HexKey>(n);
    const around = new Int32Array(6 * n).fill(-1);
    const landCost = new Float64Array(n).fill(-1);
    const seaCost = new Float64Array(n).fill(-1);
    for (let row = 0; row < this.height; row++) {
      for (let col = 0; col < this.width; col++) {
        const i = row * this.width + col;
        keys[i] = hexKey(col, row);
        neighbours({ col, row }).forEach((o, d) => {
          if (this.inBounds(o)) around[6 * i + d] = o.row * this.width + o.col;
        });
        const rule = this.rules[this.terrain[i] ?? 'unknown'];
        if (rule && !rule.impassable) (rule.water ? seaCost : landCost)[i] = rule.cost;
      }
    }
    this.grid = { keys, around, landCost, seaCost, seen: new HexMarks(n), cost: new Float64Array(n), from: new Int32Array(n) };
    return this.grid;
  }

  /** Offsets (column, row) of the hexes within a range, for a centre in an even and an odd column, in hexesWithin's order. */
  private readonly rings = new Map<number, [Int32Array, Int32Array]>();

  /**
   * Every on-map hex within its range of any of the given hexes, each once,
   * in the order first seen. A nation's sight is a few thousand hexes around
   * its hundred units; done with hex numbers and the map's own keys, it makes
   * no strings and no set of strings for hexes seen twice.
   */
  sightFrom(sources: Iterable<readonly [HexKey, number]>): Set<HexKey> {
    const g = this.gridOf();
    g.seen.clear();
    const seen = new Set<HexKey>();
    for (const [hex, range] of sources) {
      const { col, row } = this.offset(hex);
      const ring = this.ringOf(range)[col & 1]!;
      for (let k = 0; k < ring.length; k += 2) {
        const c = col + ring[k]!;
        const r = row + ring[k + 1]!;
        if (c < 0 || r < 0 || c >= this.width || r >= this.height) continue;
        const i = r * this.width + c;
        if (g.seen.has(i)) continue;
        g.seen.add(i);
        seen.add(g.keys[i]!);
      }
    }
    return seen;
  }

  private ringOf(range: number): [Int32Array, Int32Array] {
    let ring = this.rings.get(range);
    if (!ring) {
      const around = (col: number) => Int32Array.from(hexesWithin({ col, row: 0 }, range).flatMap((o) => [o.col - col, o.row]));
      this.rings.set(range, (ring = [around(0), around(1)]));
    }
    return ring;
  }

  /** Bounded Dijkstra: every hex reachable from `from` within `budget` movement points. */
  reach(from: HexKey, budget: number, domain: MoveDomain, ports?: ReadonlySet<HexKey>, minimumMove = false): Reach {
    const cost = new Map<HexKey, number>([[from, 0]]);
    const previous = new Map<HexKey, HexKey>();
    const { col, row } = this.offset(from);
    if (!this.inBounds({ col, row })) return { cost, previous };
    const g = this.gridOf();
    g.seen.clear();
    const start = row * this.width + col;
    const naval = domain === 'naval';
    const entry = (i: number): number => {
      if (!naval) return g.landCost[i]!;
      const sea = g.seaCost[i]!;
      return sea >= 0 ? sea : ports?.has(g.keys[i]!) && g.landCost[i]! >= 0 ? 1 : -1;
    };
    g.seen.add(start);
    g.cost[start] = 0;
    // Budgets are small (unit speeds), so a bucket queue by cost beats a heap.
    const buckets: number[][] = [[start]];
    for (let c = 0; c <= budget; c++) {
      for (const here of buckets[c] ?? []) {
        if (g.cost[here] !== c) continue;
        // A port ends a naval move: ships do not sail across land through it.
        if (naval && here !== start && g.seaCost[here]! < 0) continue;
        for (let d = 0; d < 6; d++) {
          const next = g.around[6 * here + d]!;
          if (next < 0) continue;
          const step = entry(next);
          if (step < 0) continue;
          // With minimumMove a unit can always take one step, whatever the terrain costs.
          const total = minimumMove && here === start && step > budget && budget > 0 ? budget : c + step;
          if (total > budget) continue;
          if (g.seen.has(next) && g.cost[next]! <= total) continue;
          g.seen.add(next);
          g.cost[next] = total;
          g.from[next] = here;
          (buckets[total] ??= []).push(next);
        }
      }
    }
    // Every hex the search touched is in some bucket (once or more).
    for (const bucket of buckets) {
      for (const i of bucket ?? []) {
        const key = g.keys[i]!;
        if (i === start || cost.has(key)) continue;
        cost.set(key, g.cost[i]!);
        previous.set(key, g.keys[g.from[i]!]!);
      }
    }
    return { cost, previous };
  }

  /** The cheapest path from the start of `reach` to `to`, excluding the start. */
  pathTo(reach: Reach, to: HexKey): HexKey[] | undefined {
    if (!reach.cost.has(to)) return undefined;
    const path: HexKey[] = [];
    for (let at: HexKey | undefined = to; at !== undefined && reach.previous.has(at); at = reach.previous.get(at)) {
      path.push(at);
    }
    return path.reverse();
  }

  /**
   * Checks a path the player wrote out; returns its cost or the first problem.
   */
  walk(
    from: HexKey,
    path: readonly HexKey[],
    domain: MoveDomain,
    ports?: ReadonlySet<HexKey>,
    minimumMoveBudget?: number,
  ): { cost: number } | { problem: string; at: HexKey } {
    let cost = 0;
    let here = from;
    for (const next of path) {
      if (!this.contains(next)) return { problem: `${next} is off the map`, at: next };
      if (!this.adjacent(here).includes(next)) return { problem: `${next} is not next to ${here}`, at: next };
      if (domain === 'naval' && here !== from && !this.isWater(here)) {
        return { problem: `a ship cannot sail on from the port at ${here}`, at: next };
      }
      const step = this.entryCost(next, domain, ports);
      if (step === undefined) {
        return { problem: `${domain === 'naval' ? 'ships' : 'land units'} cannot enter ${this.terrainAt(next)} at ${next}`, at: next };
      }
      const capped = minimumMoveBudget !== undefined && here === from && step > minimumMoveBudget && minimumMoveBudget > 0 ? minimumMoveBudget : step;
      cost += capped;
      here = next;
    }
    return { cost };
  }
}

const mapOf = perCampaign((campaign) => new GameMap(campaign.map, campaign.rules.terrain));

/**
 * Marks on hex numbers, all cleared at once by moving to a new stamp instead
 * of writing every cell: a search touches a few dozen hexes of a map of
 * 160,000.
 */
class HexMarks {
  private readonly marks: Uint32Array;
  private stamp = 0;

  constructor(size: number) {
    this.marks = new Uint32Array(size);
  }

  clear(): void {
    if (++this.stamp === 0xffffffff) {
      this.marks.fill(0);
      this.stamp = 1;
    }
  }

  has(i: number): boolean {
    return this.marks[i] === this.stamp;
  }

  add(i: number): void {
    this.marks[i] = this.stamp;
  }
}
