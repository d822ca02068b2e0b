import type { Campaign } from '../core/campaign.js';
import { asHexKey, compareIds } from '../core/ids.js';
import { offsetOf } from '../core/hex.js';
import { perCampaign } from '../core/memo.js';
import { pushTo } from '../core/multimap.js';
import type { MapWindow, TerrainGrid } from './types.js';

/**
 * The terrain of a window of the map as rows of one character per hex, with
 * its legend: compact in the YAML report and the input of both map drawings.
 * The map's geography is public (every player has the campaign map); only
 * what stands on it is subject to sight.
 */

const PREFERRED: Record<string, string> = {
  plains: '.',
  grass: '.',
  forest: 'f',
  woods: 'f',
  hills: 'n',
  mountains: '^',
  water: '~',
  lake: '~',
  sea: '=',
  ocean: '=',
  swamp: ',',
  marsh: ',',
  desert: '_',
  tundra: '-',
  jungle: 'j',
};
const POOL = 'abcdeghijklmopqrstuvwxyz+-_,;"\'`|/\\()[]{}<>?!$%&0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * One character per terrain on the map, stable for a campaign: the GM's own
 * map legend (campaign.yaml) first, then preferred symbols, then the
 * terrain's initial, then a pool.
 */
export function terrainLegend(campaign: Campaign, fileLegend: Readonly<Record<string, string>> = {}): Record<string, string> {
  const terrains = terrainsOf(campaign);
  const used = new Set<string>();
  const byTerrain: Record<string, string> = {};
  const claim = (t: string, ch: string | undefined) => {
    if (ch === undefined || ch.length !== 1 || used.has(ch) || ch === ' ' || ch === ':') return false;
    used.add(ch);
    byTerrain[t] = ch;
    return true;
  };
  for (const [ch, t] of Object.entries(fileLegend).sort(([a], [b]) => compareIds(a, b))) if (terrains.includes(t) && !byTerrain[t]) claim(t, ch);
  for (const t of terrains) if (!byTerrain[t]) claim(t, PREFERRED[t]);
  for (const t of terrains) if (!byTerrain[t] && !claim(t, t[0]?.toLowerCase())) [...POOL].some((c) => claim(t, c));
  const legend: Record<string, string> = {};
  for (const t of terrains) {
    const ch = byTerrain[t];
    if (ch !== undefined) legend[ch] = t;
  }
  return legend;
}

// A 400x400 map has 160,000 hexes; every report needs their few distinct terrains.
const terrainsOf = perCampaign((campaign): readonly string[] => [...new Set(campaign.map.terrain)].sort(compareIds));

/** The map's resources by hex, made once per campaign: reports look them up per hex, never scan them all. */
export const resourcesByHex = perCampaign((campaign): ReadonlyMap<string, Campaign['map']['resources']> => {
  const byHex = new Map<string, Campaign['map']['resources']>();
  for (const r of campaign.map.resources) pushTo(byHex, r.hex, r);
  return byHex;
});

export function terrainGrid(campaign: Campaign, window: MapWindow, fileLegend?: Readonly<Record<string, string>>): TerrainGrid {
  const legend = terrainLegend(campaign, fileLegend);
  const charOf = new Map(Object.entries(legend).map(([ch, t]) => [t, ch]));
  const { width, height } = campaign.map;
  const rows: string[] = [];
  for (let r = window.row; r < window.row + window.rows; r++) {
    let line = '';
    for (let c = window.col; c < window.col + window.cols; c++) line += charOf.get(campaign.map.terrain[r * width + c] ?? '') ?? '?';
    rows.push(line);
  }
  return { width, height, window, legend, rows };
}

export function wholeWindow(campaign: Campaign): MapWindow {
  return { col: 0, row: 0, cols: campaign.map.width, rows: campaign.map.height };
}

/**
 * The largest window a nation's map draws: at the map's readable scale
 * (svg-map.ts, AREA_RADIUS) 19 columns are 638 pixels wide, the width of a
 * mail reader's or a printed page's text; 16 rows are about as tall.
 */
export const AREA_LIMIT = { cols: 19, rows: 16 } as const;
/** The smallest: a nation that sees little still sees its neighbourhood. */
export const AREA_MINIMUM = { cols: 13, rows: 9 } as const;
/** Hexes of context around what the nation knows. */
export const AREA_MARGIN = 1;

/**
 * The nation's area of interest: the box around the hexes it knows, given in groups (its
 * sight, its units and settlements, this turn's moves and battles) with a
 * margin, at least AREA_MINIMUM where the map allows. A box bigger than
 * AREA_LIMIT is cut to it around `focus` (the nation's own units and
 * settlements): the median of their columns and rows, so a lone scout far
 * away does not pull the window off the nation's heart. The first column is
 * kept even so odd columns stay shifted down as on the real map.
 */
export function areaOfInterest(campaign: Campaign, hexes: readonly Iterable<string>[], focus: Iterable<string> = []): MapWindow {
  const { width, height } = campaign.map;
  // A few hundred hexes per report, a thousand reports: bounds kept as they come, no arrays of them.
  const box = { c0: Infinity, c1: -Infinity, r0: Infinity, r1: -Infinity };
  const take = (h: string) => {
    const { col, row } = offsetOf(asHexKey(h));
    if (col < box.c0) box.c0 = col;
    if (col > box.c1) box.c1 = col;
    if (row < box.r0) box.r0 = row;
    if (row > box.r1) box.r1 = row;
  };
  for (const group of hexes) for (const h of group) take(h);
  if (box.c0 === Infinity) return clampWindow({ col: 0, row: 0, cols: AREA_MINIMUM.cols, rows: AREA_MINIMUM.rows }, width, height);
  const focusCols: number[] = [];
  const focusRows: number[] = [];
  for (const h of focus) {
    const { col, row } = offsetOf(asHexKey(h));
    focusCols.push(col);
    focusRows.push(row);
  }
  const span = (min: number, max: number, centres: number[], size: number, minimum: number, limit: number): [number, number] => {
    let lo = Math.max(0, min - AREA_MARGIN);
    let hi = Math.min(size - 1, max + AREA_MARGIN);
    if (hi - lo + 1 > limit) {
      // Without own hexes to centre on, the middle of what is known.
      const centre = centres.length ? median(centres) : Math.floor((min + max) / 2);
      lo = Math.min(Math.max(lo, centre - Math.floor(limit / 2)), hi - limit + 1);
      hi = lo + limit - 1;
    }
    while (hi - lo + 1 < Math.min(minimum, size)) {
      if (lo > 0) lo--;
      if (hi - lo + 1 < minimum && hi < size - 1) hi++;
    }
    return [lo, hi];
  };
  const [c0, c1] = span(box.c0, box.c1, focusCols, width, AREA_MINIMUM.cols, AREA_LIMIT.cols);
  const [r0, r1] = span(box.r0, box.r1, focusRows, height, AREA_MINIMUM.rows, AREA_LIMIT.rows);
  return clampWindow({ col: c0, row: r0, cols: c1 - c0 + 1, rows: r1 - r0 + 1 }, width, height);
}

/** An even first column (one column more to the left, or the window moved left by one at the limit), inside the map. */
function clampWindow(w: MapWindow, width: number, height: number): MapWindow {
  let cols = Math.min(w.cols, width);
  const rows = Math.min(w.rows, height);
  let col = Math.max(0, Math.min(w.col, width - cols));
  if (col % 2 === 1) {
    col -= 1;
    if (cols < AREA_LIMIT.cols) cols += 1;
  }
  const row = Math.max(0, Math.min(w.row, height - rows));
  return { col, row, cols, rows };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}

/** Sorts hex keys by column, then row: the order every report lists hexes in. */
export function compareHexes(a: string, b: string): number {
  const x = offsetOf(asHexKey(a));
  const y = offsetOf(asHexKey(b));
  return x.col - y.col || x.row - y.row;
}

/** A hex's place in compareHexes' order as one number (columns and rows below 2^26 each). */
function hexRank(hex: string): number {
  const { col, row } = offsetOf(asHexKey(hex));
  return col * 0x4000000 + row;
}

/**
 * Items in compareHexes' order of their hex, ties by `tie`; the same order as
 * sorting with compareHexes, but each hex is read once rather than at every
 * comparison (a nation's sight is a thousand hexes or more).
 */
export function sortedByHex<T>(items: Iterable<T>, hexOf: (item: T) => string, tie?: (a: T, b: T) => number): T[] {
  const list = [...items];
  const ranks = new Float64Array(list.length);
  for (let i = 0; i < list.length; i++) ranks[i] = hexRank(hexOf(list[i]!));
  const order = Array.from({ length: list.length }, (_, i) => i);
  order.sort((a, b) => ranks[a]! - ranks[b]! || (tie ? tie(list[a]!, list[b]!) : 0));
  return order.map((i) => list[i]!);
}
