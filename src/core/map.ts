import type { Campaign, MapDefinition } from './campaign.js';
import { hexKey, hexesWithin, neighbours, offsetOf, parseHex, type Offset } from './hex.js';
import type { HexKey } from './ids.js';
import { perCampaign } from './memo.js';
import type { TerrainRule } from './settings.js';

/** Which hexes a mover may enter: land units walk, naval units sail (and put in at ports). */
export type MoveDomain = 'land' | 'naval';

/**
 * Where a mover can get to from one hex within its budget: the hexes reached
 * (the start first, then by cost) with what each costs and where a cheapest
 * path comes from. Held as arrays over hex numbers: a turn makes one for
 * nearly every unit, and the reports another, and most are asked a few
 * questions each, which a short scan answers faster than building maps.
 */
export class Reach {
  /**
   * @internal made by GameMap.reach. `data` holds three runs of `size`
   * numbers: the hexes reached, their costs, and each one's predecessor as a
   * place in the first run (-1 for the start): one allocation per search.
   */
  constructor(
    private readonly keys: readonly HexKey[],
    private readonly numberOf: (key: HexKey) => number,
    private readonly data: Int32Array,
    readonly size: number,
  ) {}

  private indexOf(key: HexKey): number {
    const n = this.numberOf(key);
    if (n < 0) return -1;
    for (let i = 0; i < this.size; i++) if (this.data[i] === n) return i;
    return -1;
  }

  has(key: HexKey): boolean {
    return this.indexOf(key) >= 0;
  }

  /** Movement points spent to get to a hex (the start costs 0), or undefined when it is out of reach. */
  costTo(key: HexKey): number | undefined {
    const i = this.indexOf(key);
    return i < 0 ? undefined : this.data[this.size + i];
  }

  /** Every hex reached with its cost, the start first, then by cost. */
  *entries(): IterableIterator<[HexKey, number]> {
    for (let i = 0; i < this.size; i++) yield [this.keys[this.data[i]!]!, this.data[this.size + i]!];
  }

  /** The i-th hex reached (0 ≤ i < size, in entries' order), without a pair made for it. */
  keyAt(i: number): HexKey {
    return this.keys[this.data[i]!]!;
  }

  /** What the i-th hex reached costs. */
  costAt(i: number): number {
    return this.data[this.size + i]!;
  }

  /** The hexes reached as hex numbers (GameMap.hexNumber: row * width + col), in entries' order: for GameMap.covered, and the order sheet's farthest hex. */
  numbers(): Int32Array {
    return this.data.subarray(0, this.size);
  }

  /** A cheapest path from the start to `to`, the start left out; undefined when `to` is out of reach. */
  pathTo(to: HexKey): HexKey[] | undefined {
    let i = this.indexOf(to);
    if (i < 0) return undefined;
    const path: HexKey[] = [];
    while (i > 0) {
      path.push(this.keys[this.data[i]!]!);
      i = this.data[2 * this.size + i]!;
    }
    return path.reverse();
  }
}

/**
 * The campaign map with its terrain rules resolved: bounds, terrain lookups,
 * movement costs and bounded shortest paths. Built once per turn.
 */
/**
 * The six neighbours' offsets (column, row) in neighbours' order, for a hex in
 * an even and in an odd column: the grid of a big map (170,000 hexes) is made
 * with them in a tenth of a second less than with twelve objects per hex.
 */
const NEIGHBOUR_STEPS: readonly [Int32Array, Int32Array] = [0, 1].map((col) => Int32Array.from(neighbours({ col, row: 0 }).flatMap((o) => [o.col - col, o.row]))) as [Int32Array, Int32Array];

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

  /** A hex key's number (row * width + col), or -1 off the map: the form `covered` takes. */
  hexNumber(key: HexKey): number {
    return this.numberOf(key);
  }

  private coverMarks?: HexMarks;

  /**
   * The places in `hexes` (hex numbers) that `reach` covers, in their order:
   * what stands within a unit's reach, for the order sheet's hundred units a
   * nation, in one pass over the reach and one over the things, instead of a
   * look-up of every hex reached in every list of things.
   */
  covered(reach: Reach, hexes: Int32Array): number[] {
    const marks = (this.coverMarks ??= new HexMarks(this.width * this.height));
    marks.clear();
    const reached = reach.numbers();
    for (let i = 0; i < reached.length; i++) marks.add(reached[i]!);
    const out: number[] = [];
    for (let i = 0; i < hexes.length; i++) if (hexes[i]! >= 0 && marks.has(hexes[i]!)) out.push(i);
    return out;
  }

  /** One map per campaign, so its hex caches serve every look-up of a turn and its reports. */
  static of(campaign: Campaign): GameMap {
    return mapOf(campaign);
  }

  /** Whether a hex key names a hex of this map (not a type guard: a HexKey may be off the map, and the callers say so). */
  contains(key: string): boolean {
    const at = parseHex(key);
    return at !== undefined && this.inBounds(at) && key === hexKey(at.col, at.row);
  }

  inBounds({ col, row }: Offset): boolean {
    return col >= 0 && row >= 0 && col < this.width && row < this.height;
  }

  terrainAt(key: HexKey): string {
    const { col, row } = offsetOf(key);
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
      list = neighbours(offsetOf(key))
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
    cost: Int32Array;
    from: Int32Array;
    /** Per search: hexes found at each cost (reused lists), and each listed hex's place in its Reach. */
    buckets: number[][];
    order: Int32Array;
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
        const steps = NEIGHBOUR_STEPS[col & 1]!;
        for (let d = 0; d < 6; d++) {
          const c = col + steps[2 * d]!;
          const r = row + steps[2 * d + 1]!;
          if (c >= 0 && r >= 0 && c < this.width && r < this.height) around[6 * i + d] = r * this.width + c;
        }
        const rule = this.rules[this.terrain[i] ?? 'unknown'];
        if (rule && !rule.impassable) (rule.water ? seaCost : landCost)[i] = rule.cost;
      }
    }
    this.grid = { keys, around, landCost, seaCost, seen: new HexMarks(n), cost: new Int32Array(n), from: new Int32Array(n), buckets: [], order: new Int32Array(n) };
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
      const { col, row } = offsetOf(hex);
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
    const g = this.gridOf();
    const start = this.numberOf(from);
    if (start < 0) return new Reach(g.keys, this.numberOf, new Int32Array(0), 0);
    this.search(start, budget, domain, ports, minimumMove);
    // Each hex reached sits in the bucket of its final cost once (a cheaper
    // find puts it in a lower bucket again, and the stale entry is skipped).
    let size = 0;
    for (let c = 0; c <= budget; c++) {
      const bucket = g.buckets[c]!;
      for (let b = 0; b < bucket.length; b++) if (g.cost[bucket[b]!] === c) size++;
    }
    const data = new Int32Array(3 * size);
    let k = 0;
    for (let c = 0; c <= budget; c++) {
      const bucket = g.buckets[c]!;
      for (let b = 0; b < bucket.length; b++) {
        const i = bucket[b]!;
        if (g.cost[i] !== c) continue;
        data[k] = i;
        data[size + k] = c;
        // Predecessors are reached at a lower cost (or earlier in the same bucket), so they are already placed.
        data[2 * size + k] = i === start ? -1 : g.order[g.from[i]!]!;
        g.order[i] = k++;
      }
    }
    return new Reach(g.keys, this.numberOf, data, size);
  }

  /**
   * The movement points from `from` to `to` when they are within `budget`,
   * else undefined: a search that stops once `to` is settled, for a refusal
   * that says how far off a destination is.
   */
  travelCost(from: HexKey, to: HexKey, budget: number, domain: MoveDomain, ports?: ReadonlySet<HexKey>): number | 'farther' | undefined {
    const start = this.numberOf(from);
    const goal = this.numberOf(to);
    if (start < 0 || goal < 0) return undefined;
    const g = this.gridOf();
    this.searchCut = false;
    this.search(start, budget, domain, ports, false, goal);
    if (g.seen.has(goal) && g.cost[goal]! <= budget) return g.cost[goal];
    // Routes the budget cut short may still lead there; with none cut, there is no way at all.
    return this.searchCut ? 'farther' : undefined;
  }

  /** Set by a search that passed over a step beyond its budget. */
  private searchCut = false;

  /**
   * A hex key's number (row * width + col), or -1 off the map. Keys are read
   * afresh each time: parsing "col,row" by hand is three to four times faster
   * than a map from every hex of a big world, whose cache misses cost more
   * than the digits.
   */
  private readonly numberOf = (key: HexKey): number => {
    const { col, row } = offsetOf(key);
    return this.inBounds({ col, row }) ? row * this.width + col : -1;
  };

  /**
   * The search behind reach and travelCost, into the grid's scratch arrays:
   * `seen` marks the hexes found, `cost` and `from` hold their best cost and
   * predecessor, `buckets[c]` the hexes found at cost c. Budgets are small
   * (unit speeds), so a bucket queue by cost beats a heap. With a goal it
   * stops once the goal's cost is final.
   */
  private search(start: number, budget: number, domain: MoveDomain, ports: ReadonlySet<HexKey> | undefined, minimumMove: boolean, goal = -1): void {
    const g = this.gridOf();
    g.seen.clear();
    const naval = domain === 'naval';
    const entry = (i: number): number => {
      if (!naval) return g.landCost[i]!;
      const sea = g.seaCost[i]!;
      return sea >= 0 ? sea : ports?.has(g.keys[i]!) && g.landCost[i]! >= 0 ? 1 : -1;
    };
    g.seen.add(start);
    g.cost[start] = 0;
    const buckets = g.buckets;
    for (let c = 0; c <= budget; c++) (buckets[c] ??= []).length = 0;
    buckets[0]!.push(start);
    for (let c = 0; c <= budget; c++) {
      const bucket = buckets[c]!;
      for (let b = 0; b < bucket.length; b++) {
        const here = bucket[b]!;
        if (g.cost[here] !== c) continue;
        if (here === goal) return;
        // A port ends a naval move: ships do not sail across land through it.
        if (naval && here !== start && g.seaCost[here]! < 0) continue;
        for (let d = 0; d < 6; d++) {
          const next = g.around[6 * here + d]!;
          if (next < 0) continue;
          const step = entry(next);
          if (step < 0) continue;
          // With minimumMove a unit can always take one step, whatever the terrain costs.
          const total = minimumMove && here === start && step > budget && budget > 0 ? budget : c + step;
          if (total > budget) {
            this.searchCut = true;
            continue;
          }
          if (g.seen.has(next) && g.cost[next]! <= total) continue;
          g.seen.add(next);
          g.cost[next] = total;
          g.from[next] = here;
          buckets[total]!.push(next);
        }
      }
    }
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
