import { offsetOf } from '../core/hex.js';
import { asHexKey, compareIds } from '../core/ids.js';
import { pushTo } from '../core/multimap.js';
import { escapeXml } from '../text/escape.js';
import type { MapModel } from './map-model.js';
import { num } from './svg-symbols.js';
import { cssName, terrainColour } from './svg-map.js';

/**
 * The GM's map of a world too big to draw hex by hex (more than DENSE_MAP
 * hexes): one small cell per hex, terrain in runs down each column (a
 * flat-topped map's columns are its straight lines), every hex holding units
 * dotted in the colour of the nation with most units there, settlements as
 * squares in their nation's colour. A 400×400 world is about a megabyte
 * instead of tens, small enough to sit inside the GM's page, and it shows
 * what a GM looks at a whole world for: who holds what, where armies gather.
 * The hex-by-hex view of any corner is a nation's own map.
 */

/** Pixels per hex column on the page: a 400-column world is about 900 pixels wide. */
const CELL = 2.25;
/** A flat-topped hex's height over its column step (√3 against 1.5). */
const ASPECT = Math.sqrt(3) / 1.5;
/** Legend entries per line: three fit the narrowest map (600 pixels). */
const LEGEND_COLUMNS = 3;

export function renderWorldMap(model: MapModel): string {
  const { window, rows, legend } = model.grid;
  const width = window.cols * CELL;
  const height = (window.rows + 0.5) * CELL * ASPECT;
  const legendTop = height + 8;
  const terrainsPresent = [...new Set(rows.join(''))].sort();
  const legendRows = Math.ceil((terrainsPresent.length + 2) / LEGEND_COLUMNS);
  const total = legendTop + legendRows * 16 + 6;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="fatecraft-map world" viewBox="0 0 ${num(Math.max(width, 600))} ${num(total)}" width="${num(Math.max(width, 600))}" height="${num(total)}" role="img" aria-label="${escapeXml(model.title)}">`,
    `<title>${escapeXml(model.title)}</title>`,
    '<style>.fatecraft-map text{font-family:Arial,Helvetica,sans-serif;font-size:10px}</style>',
    `<rect class="paper" width="${num(Math.max(width, 600))}" height="${num(total)}" fill="#fff"/>`,
    // Cells are drawn in hex units (a column wide, a row high, odd columns half a row lower) and scaled once.
    `<g transform="scale(${num4(CELL)} ${num4(CELL * ASPECT)})" shape-rendering="crispEdges">`,
  );

  // Terrain: per column, runs of one terrain, one path per terrain.
  const runs = new Map<string, string[]>();
  for (let c = 0; c < window.cols; c++) {
    const shift = (window.col + c) % 2 === 1 ? 0.5 : 0;
    let start = 0;
    for (let r = 1; r <= window.rows; r++) {
      const ch = rows[start]![c]!;
      if (r < window.rows && rows[r]![c] === ch) continue;
      pushTo(runs, ch, `M${c} ${start + shift}h1v${r - start}h-1z`);
      start = r;
    }
  }
  for (const ch of terrainsPresent) {
    const terrain = legend[ch] ?? 'unknown';
    out.push(`<path class="t-${cssName(terrain)}" fill="${terrainColour(terrain)}" d="${runs.get(ch)!.join('')}"/>`);
  }

  const colourOf = new Map(model.nations.map((n) => [n.id, n.colour]));
  const cellOf = (hex: string) => {
    const { col, row } = offsetOf(asHexKey(hex));
    const c = col - window.col;
    const r = row - window.row;
    if (c < 0 || r < 0 || c >= window.cols || r >= window.rows) return undefined;
    return { c, r: r + ((col % 2 === 1 ? 0.5 : 0)) };
  };

  // Units: the nation with most units in a hex (the first by id on a tie) colours its dot.
  const byHex = new Map<string, Map<string, number>>();
  for (const u of model.units) {
    let here = byHex.get(u.hex);
    if (!here) byHex.set(u.hex, (here = new Map()));
    here.set(u.nation, (here.get(u.nation) ?? 0) + 1);
  }
  const dots = new Map<string, string[]>();
  for (const hex of [...byHex.keys()].sort(compareIds)) {
    const at = cellOf(hex);
    if (!at) continue;
    let best = '';
    let most = 0;
    for (const [nation, n] of [...byHex.get(hex)!].sort(([a], [b]) => compareIds(a, b))) if (n > most) [best, most] = [nation, n];
    pushTo(dots, colourOf.get(best) ?? '#000000', `M${num(at.c + 0.2)} ${num(at.r + 0.2)}h0.6v0.6h-0.6z`);
  }
  out.push('<g class="units">');
  for (const [colour, list] of [...dots].sort(([a], [b]) => compareIds(a, b))) out.push(`<path fill="${colour}" d="${list.join('')}"/>`);
  out.push('</g>');

  // Settlements: a square three hexes wide with a white edge, so they stand out from the units around them.
  const squares = new Map<string, string[]>();
  for (const s of [...model.settlements].sort((a, b) => compareIds(a.hex, b.hex))) {
    const at = cellOf(s.hex);
    if (!at) continue;
    pushTo(squares, colourOf.get(s.nation) ?? '#000000', `M${num(at.c - 1)} ${num(at.r - 1)}h3v3h-3z`);
  }
  out.push('<g class="settlements" stroke="#fff" stroke-width="0.5">');
  for (const [colour, list] of [...squares].sort(([a], [b]) => compareIds(a, b))) out.push(`<path fill="${colour}" d="${list.join('')}"/>`);
  out.push('</g>', '</g>');

  // The legend: the terrains present, then what the squares and dots are.
  const items = [
    ...terrainsPresent.map((ch) => ({ swatch: `fill="${terrainColour(legend[ch] ?? 'unknown')}"`, text: legend[ch] ?? 'unknown' })),
    { swatch: 'fill="#555" stroke="#fff"', text: 'settlement (its nation\u2019s colour)' },
    { swatch: 'fill="#555"', text: 'units (the most numerous nation\u2019s colour)' },
  ];
  out.push(`<g class="legend">`);
  items.forEach((item, i) => {
    const x = 6 + (i % LEGEND_COLUMNS) * 200;
    const y = legendTop + Math.floor(i / LEGEND_COLUMNS) * 16;
    out.push(`<rect x="${num(x)}" y="${num(y)}" width="10" height="10" ${item.swatch}/><text x="${num(x + 14)}" y="${num(y + 9)}">${escapeXml(item.text)}</text>`);
  });
  out.push('</g>', '</svg>');
  return `${out.join('\n')}\n`;
}

const num4 = (n: number) => n.toFixed(4).replace(/0+$/, '').replace(/\.$/, '');
