import type { Battlefield, Zone } from './types.js';
import { KeptMap } from '../kept-map.js';

/**
 * The zone battlefield (seed 001 lines 143–146): fifteen zones, one of them
 * the strategic zone, built out in three directions from it and never below
 * it. Our default layout is three zones wide and five deep, the strategic
 * zone in the middle of the bottom row ("z0,1" is row 0, column 1), so its
 * far corners are five zones off and the top row is where attackers must
 * start (four or more away, line 148). Zones are linked to the zones beside,
 * above and below them.
 */
export const FIELD_COLUMNS = 3;
export const FIELD_ROWS = 5;

export const zoneId = (row: number, col: number) => `z${row},${col}`;

export interface FieldTerrain {
  /** Aspects per zone id (the terrain of the hexes around the battle). */
  aspects?: Record<string, string[]>;
  /** Zones with a physical obstacle (marsh, hill, forest); the defender places up to four (line 144). */
  obstacles?: string[];
}

export function defaultBattlefield(terrain: FieldTerrain = {}): Battlefield {
  const zones: Zone[] = [];
  const links: [string, string][] = [];
  const obstacles = new Set(terrain.obstacles ?? []);
  const edge: string[] = [];
  for (let r = 0; r < FIELD_ROWS; r++) {
    for (let c = 0; c < FIELD_COLUMNS; c++) {
      const id = zoneId(r, c);
      zones.push({ id, aspects: [...(terrain.aspects?.[id] ?? [])], obstacle: obstacles.has(id), advantages: [] });
      if (c + 1 < FIELD_COLUMNS) links.push([id, zoneId(r, c + 1)]);
      if (r + 1 < FIELD_ROWS) links.push([id, zoneId(r + 1, c)]);
      if (r === FIELD_ROWS - 1 || c === 0 || c === FIELD_COLUMNS - 1) edge.push(id);
    }
  }
  return { zones, links, strategic: zoneId(0, 1), edge };
}

/**
 * Neighbours of each zone, sorted, for the distance and path searches. A battle asks for them at every move and
 * its links never change, so they are made once per list of links (callers only read them).
 */
export function neighbours(field: Battlefield): ReadonlyMap<string, readonly string[]> {
  const kept = neighboursOf.get(field.links);
  if (kept) return kept;
  const out = new Map<string, string[]>(field.zones.map((z) => [z.id, []]));
  for (const [a, b] of field.links) {
    out.get(a)!.push(b);
    out.get(b)!.push(a);
  }
  for (const list of out.values()) list.sort();
  neighboursOf.set(field.links, out);
  return out;
}

const neighboursOf = new WeakMap<Battlefield['links'], ReadonlyMap<string, readonly string[]>>();

/** Zones between two zones (0 for the same zone), counting each step as one whatever its terrain (range, line 160). */
export function distances(field: Battlefield, from: string): Map<string, number> {
  const next = neighbours(field);
  const dist = new Map<string, number>([[from, 0]]);
  const queue = [from];
  while (queue.length) {
    const z = queue.shift()!;
    for (const n of next.get(z) ?? []) {
      if (!dist.has(n)) {
        dist.set(n, dist.get(z)! + 1);
        queue.push(n);
      }
    }
  }
  return dist;
}

/**
 * Every zone pair's distance. Each battle gets a copy of its field, but the fields of a campaign come in a few
 * shapes: the table is kept by the shape (its zones and links), a few dozen shapes at most.
 */
export function distanceTable(field: Battlefield): (a: string, b: string) => number {
  const shape = `${field.zones.map((z) => z.id).join(' ')}|${field.links.map(([a, b]) => `${a}-${b}`).join(' ')}`;
  let table = distanceTables.get(shape);
  if (!table) {
    table = new Map(field.zones.map((z) => [z.id, distances(field, z.id)]));
    distanceTables.set(shape, table);
  }
  const kept = table;
  return (a, b) => kept.get(a)?.get(b) ?? Infinity;
}

const distanceTables = new KeptMap<string, ReadonlyMap<string, ReadonlyMap<string, number>>>({ entries: 64 });

/** A picture of the field, the strategic zone at the bottom: each zone's marks (e.g. "A3 D2"), "*" for the strategic zone, "~" for an obstacle. */
export function zoneMap(field: Battlefield, marks: (zone: string) => string): string[] {
  const { rows, cols, byId } = layoutOf(field);
  const lines: string[] = [];
  for (let r = rows; r >= 0; r--) {
    const cells: string[] = [];
    for (let c = cols[0]; c <= cols[1]; c++) {
      const id = zoneId(r, c);
      const z = byId.get(id);
      if (!z) {
        cells.push(' '.repeat(13));
        continue;
      }
      const flag = (id === field.strategic ? '*' : ' ') + (z.obstacle ? '~' : ' ');
      cells.push(`[${flag}${marks(id).padEnd(9)}]`);
    }
    lines.push(cells.join(' ').trimEnd());
  }
  return lines;
}

interface Layout {
  rows: number;
  cols: readonly [number, number];
  byId: ReadonlyMap<string, Zone>;
}

/** The rows and columns a field's zones span, and its zones by id: drawn at every exchange, the same zones each time. */
function layoutOf(field: Battlefield): Layout {
  const kept = layouts.get(field.zones);
  if (kept) return kept;
  // Any shape a built field takes (W23): rows from the top down, columns left to right, a gap where no zone is.
  const at = field.zones.map((z) => z.id.slice(1).split(',').map(Number) as [number, number]);
  const rows = Math.max(FIELD_ROWS - 1, ...at.map(([r]) => r));
  const cols = [Math.min(0, ...at.map(([, c]) => c)), Math.max(FIELD_COLUMNS - 1, ...at.map(([, c]) => c))] as const;
  // The first zone of an id, as a search from the front would find it.
  const byId = new Map<string, Zone>();
  for (const z of [...field.zones].reverse()) byId.set(z.id, z);
  const layout = { rows, cols, byId };
  layouts.set(field.zones, layout);
  return layout;
}

const layouts = new WeakMap<Battlefield['zones'], Layout>();
