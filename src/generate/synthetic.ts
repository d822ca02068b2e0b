import seedrandom from 'seedrandom';
import { hexKey, hexesWithin, offsetOf } from '../core/hex.js';
import { asHexKey, asNationId, asSettlementId, asUnitId, type HexKey, type NationId } from '../core/ids.js';
import type { GameState } from '../core/state.js';

/**
 * A synthetic campaign for benchmarks and load tests: N nations laid out on a
 * grid of regions, each with a capital, villages and U units around it, and
 * plausible orders for turn 1 (attacks across borders with support, sieges,
 * moves, builds, settlements, mines). Deterministic for a seed, and linear in
 * units: neighbours are found through a hex index, never by scanning.
 */
export interface SyntheticOptions {
  nations: number;
  unitsPerNation: number;
  width: number;
  height: number;
  seed: string;
  /**
   * Diplomats at work (issue 22's benchmark): each nation's first worker stands in its capital and
   * preaches there or opens a trade route to its village, its second stands by the next nation's
   * village and spies on it. Without it the campaign is byte for byte what it always was.
   */
  actions?: boolean;
}

/**
 * The same world with every player silent (`fatecraft generate --silent`, the benchmark's caretaker run):
 * no orders for turn 1, each nation already `rules.nmrFlagAfter` turns without orders, and the campaign's
 * missing-player policy `caretaker`, so the turn plays every nation by its caretaker (issue 35).
 */
export function silenced(generated: SyntheticCampaign): SyntheticCampaign {
  const state = structuredClone(generated.state);
  for (const n of Object.values(state.nations)) n.missedTurns = 2;
  return { campaign: { ...generated.campaign, seats: { policy: 'caretaker' } }, state, orders: {} };
}

export interface SyntheticCampaign {
  campaign: Record<string, unknown>;
  state: GameState;
  /** Order sheets for turn 1, by nation, in the YAML order file format. */
  orders: Record<string, Record<string, unknown>>;
}

const TYPES = {
  infantry: { name: 'Infantry', class: 'infantry', speed: 2 },
  veterans: { name: 'Veterans', class: 'infantry', speed: 2, bonuses: [{ value: 1 }] },
  cavalry: { name: 'Cavalry', class: 'cavalry', speed: 3 },
  siege: { name: 'Siege engine', class: 'siege', speed: 1 },
  worker: { name: 'Worker', class: 'diplomatic', speed: 3, canFound: true, canConstruct: ['mine'] },
} as const;
const MILITARY = ['infantry', 'infantry', 'veterans', 'cavalry', 'siege'] as const;

export function generateCampaign(opts: SyntheticOptions): SyntheticCampaign {
  const rng = seedrandom(opts.seed);
  const { width, height } = opts;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;

  // Terrain: mostly plains with forests, hills and mountains; a sea border.
  const legendOf = (): string => {
    const r = rng();
    return r < 0.62 ? '.' : r < 0.8 ? 'f' : r < 0.93 ? 'h' : 'm';
  };
  const grid: string[][] = [];
  for (let row = 0; row < height; row++) {
    const line: string[] = [];
    for (let col = 0; col < width; col++) line.push(col === 0 || row === 0 || col === width - 1 || row === height - 1 ? '~' : legendOf());
    grid.push(line);
  }

  const per = Math.ceil(Math.sqrt(opts.nations));
  const cellW = Math.max(4, Math.floor((width - 2) / per));
  const cellH = Math.max(4, Math.floor((height - 2) / per));
  const state: GameState = { turn: 0, seq: 0, nations: {}, units: {}, settlements: {}, externals: {}, builds: [] };
  const nations: Record<string, unknown> = {};
  const resources: { hex: string; kind: string; name: string }[] = [];
  const occupied = new Map<HexKey, NationId>();
  /** With `actions`: the worker who spies, and on whom. */
  const spying = new Map<string, NationId>();
  const nationIds: NationId[] = [];

  for (let i = 0; i < opts.nations; i++) {
    const nation = asNationId(`n${String(i).padStart(4, '0')}`);
    nationIds.push(nation);
    const cx = 1 + (i % per) * cellW + Math.floor(cellW / 2);
    const cy = 1 + Math.floor(i / per) * cellH + Math.floor(cellH / 2);
    const capital = clampHex(cx, cy, width, height);
    setPlains(grid, capital);
    const settlements = [
      { id: `${nation}-cap`, name: `Capital ${i}`, level: 'capital' as const, hex: capital },
      { id: `${nation}-v1`, name: `Village ${i}a`, level: 'village' as const, hex: clampHex(cx - 2, cy + 1, width, height) },
      { id: `${nation}-v2`, name: `Village ${i}b`, level: 'village' as const, hex: clampHex(cx + 2, cy - 1, width, height) },
    ];
    for (const s of settlements) {
      setPlains(grid, s.hex);
      const id = asSettlementId(s.id);
      state.settlements[id] = { id, name: s.name, nation, level: s.level, hex: s.hex, home: true, captured: false, structures: [], battlements: s.level === 'capital' ? [1] : [] };
    }
    const silver = clampHex(cx + 1, cy + 2, width, height);
    setPlains(grid, silver);
    resources.push({ hex: silver, kind: 'silver', name: `Silver ${i}` });

    // Units spread over the region, the workers near the capital.
    const spots = hexesWithin(offsetOf(capital), Math.max(2, Math.floor(Math.min(cellW, cellH) / 2)));
    const neighbour = (i % per) < per - 1 && i + 1 < opts.nations ? asNationId(`n${String(i + 1).padStart(4, '0')}`) : undefined;
    // By the next nation's first village (two hexes west of its capital): within an espionage's reach.
    const byNeighbour = clampHex(cx + cellW - 4, cy + 1, width, height);
    for (let u = 0; u < opts.unitsPerNation; u++) {
      const spot = pick(spots);
      let hex = clampHex(spot.col, spot.row, width, height);
      if (opts.actions && (u === 0 || (u === 1 && !neighbour))) hex = capital;
      if (opts.actions && u === 1 && neighbour) {
        hex = byNeighbour;
        spying.set(asUnitId(`${nation}-u${u}`), neighbour);
      }
      setPlains(grid, hex);
      const type = u < 2 ? 'worker' : pick(MILITARY);
      const id = asUnitId(`${nation}-u${u}`);
      state.units[id] = { id, nation, type, hex, health: rng() < 0.1 ? 'bloodied' : 'healthy' };
      occupied.set(hex, nation);
    }
    state.nations[nation] = { id: nation, renown: 60 + Math.floor(rng() * 80), fate: Math.floor(rng() * 8), prosperity: 0, happiness: 0, goals: [{ id: 'expand', done: false }], battlesWon: 0, missedTurns: 0, unitSeq: opts.unitsPerNation, alive: true };
    nations[nation] = {
      name: `Nation ${i}`,
      leader: `Leader ${i}`,
      caps: { military: opts.unitsPerNation + 10, diplomatic: 6 },
      start: { renown: 60, fate: 4, prosperity: 0, happiness: 0 },
      goals: [{ id: 'expand', text: `Hold five settlements (${i})`, condition: { kind: 'hold_settlements', count: 5 }, reward: { renown: 30 } }],
    };
  }

  const orders = planOrders(state, nationIds, rng, (col, row) => (grid[row]?.[col] ?? '~') !== '~', opts.actions ? spying : undefined);
  const campaign = {
    name: 'synthetic',
    title: `Synthetic campaign: ${opts.nations} nations, ${opts.unitsPerNation} units each`,
    seed: opts.seed,
    calendar: { seasons: ['Summer', 'Winter'], startYear: 1 },
    map: { width, height, legend: { '.': 'plains', f: 'forest', h: 'hills', m: 'mountains', '~': 'sea' }, rows: grid.map((r) => r.join('')), resources },
    structures: { market: { name: 'Market', cost: 20, perTurn: { renown: 2 } } },
    externals: { mine: { name: 'Mine', requiresResource: 'silver', onComplete: { prosperity: 1 }, perTurn: { renown: 3 } } },
    unitTypes: TYPES,
    nations,
  };
  return { campaign, state, orders };
}

function clampHex(col: number, row: number, width: number, height: number): HexKey {
  return hexKey(Math.min(width - 2, Math.max(1, col)), Math.min(height - 2, Math.max(1, row)));
}

function setPlains(grid: string[][], hex: HexKey): void {
  const { col, row } = offsetOf(hex);
  const line = grid[row];
  if (line) line[col] = '.';
}

/** Orders a player might plausibly give, found through a hex index of units. */
function planOrders(state: GameState, nationIds: NationId[], rng: () => number, isLand: (col: number, row: number) => boolean, spying?: ReadonlyMap<string, NationId>): Record<string, Record<string, unknown>> {
  const byHex = new Map<string, string[]>();
  const push = <K>(m: Map<K, string[]>, k: K, v: string) => {
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  };
  for (const u of Object.values(state.units)) push(byHex, u.hex as string, u.id);
  const settlementAt = new Map(Object.values(state.settlements).map((s) => [s.hex as string, s]));
  const out: Record<string, Record<string, unknown>> = {};
  const unitsOf = new Map<NationId, string[]>();
  for (const u of Object.values(state.units)) push(unitsOf, u.nation, u.id);

  for (const nation of nationIds) {
    const orders: Record<string, unknown>[] = [];
    const busy = new Set<string>();
    const mine = unitsOf.get(nation) ?? [];
    orders.push({ build: `${nation}-cap`, unit: rng() < 0.5 ? 'infantry' : 'cavalry' });
    orders.push({ build: `${nation}-v1`, unit: 'infantry' });
    if (rng() < 0.3) orders.push({ build: `${nation}-cap`, battlement: 2 });
    for (const id of mine) {
      if (busy.has(id)) continue;
      const u = state.units[id as keyof typeof state.units];
      if (!u) continue;
      const speed = TYPES[u.type as keyof typeof TYPES].speed;
      if (u.type === 'worker') {
        // One draw either way, so the orders after it are the same with and without actions.
        const r = rng();
        if (spying) orders.push(workerAction(id, nation, spying.get(id), r < 0.5));
        else orders.push(r < 0.5 ? { found: id, name: `New town ${id}` } : { hold: id });
        busy.add(id);
        continue;
      }
      const near = hexesWithin(offsetOf(u.hex), speed);
      let target: string | undefined;
      for (const h of near) {
        const key = `${h.col},${h.row}`;
        const enemy = (byHex.get(key) ?? []).find((other) => state.units[other as keyof typeof state.units]?.nation !== nation);
        if (enemy) {
          target = enemy;
          break;
        }
        const s = settlementAt.get(key);
        if (s && s.nation !== nation) {
          target = s.id;
          break;
        }
      }
      if (target && rng() < 0.8) {
        const support = (byHex.get(u.hex) ?? []).filter((o) => o !== id && !busy.has(o) && state.units[o as keyof typeof state.units]?.nation === nation && state.units[o as keyof typeof state.units]?.type !== 'worker').slice(0, 2);
        for (const s of support) busy.add(s);
        orders.push({ attack: id, target, ...(support.length ? { support } : {}), ...(rng() < 0.2 ? { fate: 2 } : {}) });
      } else if (u.health === 'bloodied') {
        orders.push({ rest: id });
      } else if (rng() < 0.6) {
        const land = near.filter((h) => isLand(h.col, h.row) && `${h.col},${h.row}` !== u.hex);
        const dest = land[Math.floor(rng() * land.length)];
        if (dest) orders.push({ move: id, to: `${dest.col},${dest.row}` });
      } else {
        orders.push({ hold: id });
      }
      busy.add(id);
    }
    out[nation] = { nation, turn: 1, orders };
  }
  return out;
}

/** A worker's action with `actions`: spy on the neighbour it stands by, else preach in its capital or open a route from it. */
function workerAction(id: string, nation: NationId, neighbour: NationId | undefined, preach: boolean): Record<string, unknown> {
  if (neighbour) return { act: id, action: 'espionage', target: neighbour };
  return preach ? { act: id, action: 'preach', target: `${nation}-cap` } : { act: id, action: 'trade', target: [`${nation}-cap`, `${nation}-v1`] };
}
