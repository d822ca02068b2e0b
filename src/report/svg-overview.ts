import { offsetOf } from '../core/hex.js';
import { asHexKey } from '../core/ids.js';
import { perCampaign } from '../core/memo.js';
import { num } from './svg-symbols.js';
import type { MapWindow } from './types.js';

/**
 * The whole map in small, beside a nation's detailed map, to show where its
 * area lies. Land and water only, in cells of k×k hexes (k grows with the
 * map, so the drawing is at most OVERVIEW_CELLS cells across whatever the
 * world's size). The map's geography is public, so the land is drawn once per
 * campaign and the same for every nation; only the frame around the area and
 * the dots of the nation's own units and settlements are the nation's.
 */

export const OVERVIEW_CELLS = 60;
/** The overview's largest width and height on the page, in pixels. */
export const OVERVIEW_SIZE = 170;

export interface OverviewBase {
  /** Hexes per cell, each way. */
  k: number;
  cols: number;
  rows: number;
  /** Drawn size in pixels, keeping the hex map's proportions. */
  width: number;
  height: number;
  /** The land cells as one path in cell units. */
  land: string;
}

/** The land mask of a campaign's map, made once per campaign (a thousand reports share it). */
export const overviewBase = perCampaign((campaign): OverviewBase => {
  const { width, height, terrain } = campaign.map;
  const rules = campaign.rules.terrain;
  const k = Math.max(1, Math.ceil(Math.max(width, height) / OVERVIEW_CELLS));
  const cols = Math.ceil(width / k);
  const rows = Math.ceil(height / k);
  const isWater = (col: number, row: number) => rules[terrain[row * width + col] ?? '']?.water === true;
  const path: string[] = [];
  for (let r = 0; r < rows; r++) {
    const row = Math.min(height - 1, r * k + (k >> 1));
    let start = -1;
    for (let c = 0; c <= cols; c++) {
      const land = c < cols && !isWater(Math.min(width - 1, c * k + (k >> 1)), row);
      if (land && start < 0) start = c;
      if (!land && start >= 0) {
        path.push(`M${start} ${r}h${c - start}v1h${start - c}z`);
        start = -1;
      }
    }
  }
  // A flat-topped hex map is 1.5 hex radii per column and √3 per row.
  const aspect = (Math.sqrt(3) * (height + 0.5)) / (1.5 * width + 0.5);
  const w = aspect > 1 ? OVERVIEW_SIZE / aspect : OVERVIEW_SIZE;
  return { k, cols, rows, width: w, height: w * aspect, land: path.join('') };
});

/** The overview at (x, y): land, water, the frame of the detailed map's window, and the reader's own hexes as dots. */
export function renderOverview(base: OverviewBase, window: MapWindow, own: readonly string[], colour: string, x: number, y: number): string {
  const sx = base.width / base.cols;
  const sy = base.height / base.rows;
  const dots = new Set<string>();
  for (const h of own) {
    const { col, row } = offsetOf(asHexKey(h));
    dots.add(`${Math.floor(col / base.k)},${Math.floor(row / base.k)}`);
  }
  const dot = Math.max(1, 3 / Math.min(sx, sy));
  const dotPath = [...dots]
    .sort()
    .map((d) => {
      const [c, r] = d.split(',').map(Number) as [number, number];
      return `M${num(c + 0.5 - dot / 2)} ${num(r + 0.5 - dot / 2)}h${num(dot)}v${num(dot)}h${num(-dot)}z`;
    })
    .join('');
  const k = base.k;
  return [
    `<g class="overview" transform="translate(${num(x)} ${num(y)})">`,
    `<g transform="scale(${sx.toFixed(4)} ${sy.toFixed(4)})">`,
    `<rect width="${base.cols}" height="${base.rows}" fill="#9cc6ec"/>`,
    `<path d="${base.land}" fill="#d9d2b4"/>`,
    dotPath ? `<path d="${dotPath}" fill="${colour}"/>` : '',
    `<rect class="area" x="${num(window.col / k)}" y="${num(window.row / k)}" width="${num(window.cols / k)}" height="${num(window.rows / k)}" fill="none" stroke="#000" stroke-width="2" vector-effect="non-scaling-stroke"/>`,
    '</g>',
    `<rect width="${num(base.width)}" height="${num(base.height)}" fill="none" stroke="#555" stroke-width="1"/>`,
    '</g>',
  ].join('');
}
