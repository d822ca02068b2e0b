import { FIELD_COLUMNS, FIELD_ROWS, zoneId, type FieldTerrain } from './battlefield.js';
import type { Battlefield, Side, Zone } from './types.js';

/**
 * The battlefield built by its two sides (seed 001 lines 142–146, 150;
 * docs/rules.md W23). The defender places the strategic zone; then the
 * attacker and the defender take turns placing one zone each, next to one
 * already placed and never below the strategic zone, until fifteen are down;
 * zones bought by burning free invokes follow, each side's in turn. Each
 * side places by its plan's `field`:
 * - `grid`: the next zone of the default field (three wide, five deep), so
 *   two grid plans build exactly that field;
 * - `deep`: the farthest from the strategic zone it can reach — a long
 *   approach, more exchanges before a clash;
 * - `wide`: out to the flanks on the lowest rows — room to go round.
 * Ties go to the zone nearest the middle column, then the lower row.
 */
export type FieldShape = 'grid' | 'deep' | 'wide';

/** The default field's fifteen zones, in the order `grid` places them (row by row from the strategic zone). */
const GRID_ORDER: [number, number][] = [];
for (let r = 0; r < FIELD_ROWS; r++) for (let c = 0; c < FIELD_COLUMNS; c++) GRID_ORDER.push([r, c]);
const MIDDLE = 1;
export const FIELD_SIZE = FIELD_ROWS * FIELD_COLUMNS;

const key = (r: number, c: number) => `${r},${c}`;

/** The cells each side places, in order: the defender's strategic zone, then the attacker and the defender in turn. */
export function placeZones(shapes: Record<Side, FieldShape>, extra: Record<Side, number> = { attacker: 0, defender: 0 }): [number, number][] {
  const placed: [number, number][] = [[0, MIDDLE]];
  const taken = new Set([key(0, MIDDLE)]);
  const legal = (): [number, number][] => {
    const out: [number, number][] = [];
    const seen = new Set<string>();
    for (const [r, c] of placed) {
      for (const [dr, dc] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const) {
        const nr = r + dr;
        const nc = c + dc;
        const k = key(nr, nc);
        // Never below the bottom of the strategic zone (line 145).
        if (nr < 0 || taken.has(k) || seen.has(k)) continue;
        seen.add(k);
        out.push([nr, nc]);
      }
    }
    return out;
  };
  const pick = (shape: FieldShape): [number, number] => {
    const options = legal();
    if (shape === 'grid') {
      const next = GRID_ORDER.find(([r, c]) => !taken.has(key(r, c)) && options.some(([or, oc]) => or === r && oc === c));
      if (next) return next;
    }
    const score = ([r, c]: [number, number]): number[] => (shape === 'wide' ? [-Math.abs(c - MIDDLE), r] : [-r, Math.abs(c - MIDDLE)]);
    return options.sort((a, b) => {
      const sa = score(a);
      const sb = score(b);
      return sa[0]! - sb[0]! || sa[1]! - sb[1]! || Math.abs(a[1] - MIDDLE) - Math.abs(b[1] - MIDDLE) || a[0] - b[0] || a[1] - b[1];
    })[0]!;
  };
  const place = (cell: [number, number]) => {
    placed.push(cell);
    taken.add(key(cell[0], cell[1]));
  };
  for (let i = 1; i < FIELD_SIZE; i++) place(pick(i % 2 === 1 ? shapes.attacker : shapes.defender));
  // Zones bought by burning (line 150): the attacker's, then the defender's, each by its own shape.
  for (let i = 0; i < Math.max(extra.attacker, extra.defender); i++) {
    if (i < extra.attacker) place(pick(shapes.attacker));
    if (i < extra.defender) place(pick(shapes.defender));
  }
  return placed;
}

/** The field from the cells placed: zones linked to those beside, above and below; the edge where a side is open. */
export function fieldOf(cells: [number, number][], terrain: FieldTerrain = {}): Battlefield {
  const have = new Set(cells.map(([r, c]) => key(r, c)));
  const sorted = [...cells].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const obstacles = new Set(terrain.obstacles ?? []);
  const zones: Zone[] = sorted.map(([r, c]) => {
    const id = zoneId(r, c);
    return { id, aspects: [...(terrain.aspects?.[id] ?? [])], obstacle: obstacles.has(id), advantages: [] };
  });
  const links: [string, string][] = [];
  const edge: string[] = [];
  for (const [r, c] of sorted) {
    if (have.has(key(r, c + 1))) links.push([zoneId(r, c), zoneId(r, c + 1)]);
    if (have.has(key(r + 1, c))) links.push([zoneId(r, c), zoneId(r + 1, c)]);
    // Off the top or a side is off the battlefield (line 193); below the strategic zone there is none.
    if (!have.has(key(r + 1, c)) || !have.has(key(r, c - 1)) || !have.has(key(r, c + 1))) edge.push(zoneId(r, c));
  }
  return { zones, links, strategic: zoneId(0, MIDDLE), edge };
}

/**
 * Where the defender's obstacles go (line 144), by its plan's `obstacles`:
 * `ahead`, on the zones nearest the strategic zone (the attackers' way in);
 * `flanks`, beside it first; `far`, where the attackers form up. Four at most,
 * plus those bought by burning. (`map`, the default, takes them from the
 * terrain around the battle.)
 */
export type ObstaclePlan = 'map' | 'ahead' | 'flanks' | 'far' | 'none';

export function placeObstacles(field: Battlefield, distance: (a: string, b: string) => number, plan: Exclude<ObstaclePlan, 'map'>, count: number): string[] {
  if (plan === 'none' || count <= 0) return [];
  const col = (id: string) => Number(id.split(',')[1]);
  const d = (id: string) => distance(field.strategic, id);
  const zones = field.zones.map((z) => z.id).filter((id) => id !== field.strategic);
  const order =
    plan === 'ahead'
      ? (a: string, b: string) => d(a) - d(b) || Math.abs(col(a) - MIDDLE) - Math.abs(col(b) - MIDDLE) || (a < b ? -1 : 1)
      : plan === 'flanks'
        ? (a: string, b: string) => Math.abs(col(b) - MIDDLE) - Math.abs(col(a) - MIDDLE) || d(a) - d(b) || (a < b ? -1 : 1)
        : (a: string, b: string) => d(b) - d(a) || Math.abs(col(a) - MIDDLE) - Math.abs(col(b) - MIDDLE) || (a < b ? -1 : 1);
  return zones.sort(order).slice(0, count);
}

/** Where each side forms up on a built field (line 148): attackers as far off as they can be, defenders on and around the strategic zone. */
export function startZones(field: Battlefield, distance: (a: string, b: string) => number, side: Side): string[] {
  const col = (id: string) => Number(id.split(',')[1]);
  const d = (id: string) => distance(field.strategic, id);
  const ids = field.zones.map((z) => z.id);
  if (side === 'defender') return ids.filter((id) => d(id) <= 2).sort((a, b) => d(a) - d(b) || Math.abs(col(a) - MIDDLE) - Math.abs(col(b) - MIDDLE) || (a < b ? -1 : 1));
  return ids.sort((a, b) => d(b) - d(a) || Math.abs(col(a) - MIDDLE) - Math.abs(col(b) - MIDDLE) || (a < b ? -1 : 1));
}
