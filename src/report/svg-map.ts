import { ChunkedText } from '../core/chunked-text.js';
import { offsetOf } from '../core/hex.js';
import { asHexKey, compareIds } from '../core/ids.js';
import { pushTo } from '../core/multimap.js';
import { escapeXml } from './escape.js';
import type { MapModel, MapUnit } from './map-model.js';

/**
 * The hex map as a standalone SVG: flat-topped hexes in odd-q columns (odd
 * columns shifted down half a hex, as on the campaign map), terrain coloured,
 * hexes out of sight dimmed, settlements and units in their nation's colour.
 * Every piece of text is escaped here (escape.ts); the result is safe to embed in HTML.
 * Colours are presentation attributes, so a stylesheet (the HTML template's)
 * can restyle them by class: .t-<terrain>, .n-<nation>, .fog, .settlement...
 */

export const HEX_RADIUS = 26;
const SQRT3 = Math.sqrt(3);

export const TERRAIN_COLOURS: Record<string, string> = {
  plains: '#dfe8b0',
  grass: '#cfe3a0',
  forest: '#7fae6b',
  woods: '#7fae6b',
  hills: '#cdb27a',
  mountains: '#a39a8e',
  water: '#9cc6ec',
  lake: '#9cc6ec',
  sea: '#6f9fd8',
  ocean: '#5a8bcc',
  swamp: '#9fb59a',
  marsh: '#9fb59a',
  desert: '#ecd9a0',
  tundra: '#e4e8ea',
};

/** A class-name-safe form of an id. */
export const cssName = (s: string) => s.toLowerCase().replace(/[^a-z0-9_-]/g, '-');

const num = (n: number) => {
  const s = n.toFixed(1);
  return s.endsWith('.0') ? s.slice(0, -2) : s;
};

/** A stable colour for a terrain the palette does not know. */
function terrainColour(terrain: string): string {
  const known = TERRAIN_COLOURS[terrain];
  if (known) return known;
  let h = 0;
  for (const c of terrain) h = (h * 31 + c.charCodeAt(0)) % 360;
  return `hsl(${h}, 35%, 72%)`;
}

export interface SvgOptions {
  radius?: number;
  /** Draw "col,row" and a tooltip in each hex (default: yes, unless the window is bigger than DENSE_MAP hexes). */
  coordinates?: boolean;
}

/** Above this many hexes the map leaves out per-hex labels and tooltips, to stay a reasonable size. */
export const DENSE_MAP = 40 * 40;

/** A short id prefix of this map's own, so that two maps inlined in one HTML page never share a <defs> id. */
function mapToken(model: MapModel, radius: number): string {
  let h = 0x811c9dc5; // FNV-1a: deterministic, so the same map is the same bytes every run
  for (const c of `${radius}|${model.reader ?? ''}|${model.title}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return `m${(h >>> 0).toString(36)}`;
}

export function renderSvgMap(model: MapModel, opts: SvgOptions = {}): string {
  const R = opts.radius ?? HEX_RADIUS;
  const { window, rows, legend } = model.grid;
  const labels = opts.coordinates ?? window.cols * window.rows <= DENSE_MAP;
  const colour = new Map(model.nations.map((n) => [n.id, n.colour]));
  const nationName = new Map(model.nations.map((n) => [n.id, n.name]));
  const xAt = (col: number) => R + 1.5 * R * (col - window.col);
  const yAt = (col: number, row: number) => (SQRT3 / 2) * R + SQRT3 * R * (row - window.row) + (col % 2 === 1 ? (SQRT3 / 2) * R : 0);
  const centre = (hex: string) => {
    const { col, row } = offsetOf(asHexKey(hex));
    return { x: xAt(col), y: yAt(col, row) };
  };
  const inWindow = (hex: string) => {
    const { col, row } = offsetOf(asHexKey(hex));
    return col >= window.col && row >= window.row && col < window.col + window.cols && row < window.row + window.rows;
  };

  const mapWidth = 2 * R + 1.5 * R * Math.max(0, window.cols - 1);
  const mapHeight = SQRT3 * R * (window.rows + 0.5);
  const legendLines = model.nations.length;
  const legendTop = mapHeight + 8;
  const height = legendTop + 18 * legendLines + 6;
  const width = Math.max(mapWidth, 260);

  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" class="fatecraft-map" viewBox="0 0 ${num(width)} ${num(height)}" width="${num(width)}" height="${num(height)}" role="img" aria-label="${escapeXml(model.title)}">`);
  out.push(`<title>${escapeXml(model.title)}</title>`);
  out.push(
    '<style>.fatecraft-map text{font-family:sans-serif}.fatecraft-map .coord{font-size:7px;fill:#333;opacity:.55}.fatecraft-map .fog{fill-opacity:.35}' +
      '.fatecraft-map .hex{stroke:#777;stroke-width:.6}.fatecraft-map .site-name{font-size:8px;font-weight:bold;paint-order:stroke;stroke:#fff;stroke-width:2px}' +
      '.fatecraft-map .count{font-size:8px;fill:#fff;font-weight:bold}.fatecraft-map .legend{font-size:11px}</style>',
  );

  // Terrain. A map is nearly all hexes, so each terrain's hex is drawn once in
  // <defs> and every hex is a <use> of it; fog goes on the <use>, whose
  // fill-opacity the shape inherits. Plain href (SVG 2) rather than xlink:href:
  // every browser the HTML report is read in takes it, and it costs no namespace.
  const token = mapToken(model, R);
  const shape = [0, 1, 2, 3, 4, 5].map((i) => `${num(R * Math.cos((Math.PI / 3) * i))},${num(R * Math.sin((Math.PI / 3) * i))}`).join(' ');
  const defs: string[] = [];
  const hrefOf = new Map<string, string>();
  const ids = new Set<string>();
  // Per terrain character, the fixed text around a hex: its <use> up to "x" and its tooltip's ending, escaped once.
  const byChar = new Map<string, { use: string; tail: string; fogTail: string }>();
  const lookUp = (ch: string) => {
    const terrain = legend[ch] ?? 'unknown';
    let href = hrefOf.get(terrain);
    if (!href) {
      // Terrains that differ only in case or punctuation share a class name but not a colour, so not an id either.
      let id = `${token}-${cssName(terrain)}`;
      for (let n = 2; ids.has(id); n++) id = `${token}-${cssName(terrain)}-${n}`;
      ids.add(id);
      defs.push(`<polygon id="${id}" class="hex t-${cssName(terrain)}" points="${shape}" fill="${terrainColour(terrain)}"/>`);
      href = `#${id}`;
      hrefOf.set(terrain, href);
    }
    const t = { use: `<use href="${href}" x="`, tail: `${escapeXml(` ${terrain}`)}</title></use>`, fogTail: `${escapeXml(` ${terrain} (not in sight)`)}</title></use>` };
    byChar.set(ch, t);
    return t;
  };
  // A hex's position depends only on its column, row and column parity: format each once, not once per hex.
  const xs = Array.from({ length: window.cols }, (_, c) => num(xAt(window.col + c)));
  const ys = [0, 1].map((odd) => Array.from({ length: window.rows }, (_, r) => yAt(odd, window.row + r)));
  const hexYs = ys.map((col) => col.map((y) => `" y="${num(y)}`));
  const labelYs = ys.map((col) => col.map((y) => `" y="${num(y - R * 0.55)}">`));
  // A world's map is 160,000 hexes, built in chunks (see ChunkedText); the defs, complete only after the loop, go before them.
  const hexes = new ChunkedText('\n');
  const coords = new ChunkedText('\n');
  const cols = Array.from({ length: window.cols }, (_, c) => `${window.col + c},`);
  const seenHexes = model.seen;
  for (let r = 0; r < rows.length; r++) {
    const line = rows[r]!;
    const row = window.row + r;
    for (let c = 0; c < line.length; c++) {
      const ch = line[c]!;
      const piece = byChar.get(ch) ?? lookUp(ch);
      const odd = (window.col + c) % 2 === 1 ? 1 : 0;
      const at = `${piece.use}${xs[c]}${hexYs[odd]![r]}`;
      if (labels) {
        const hex = cols[c]! + row;
        if (seenHexes === null || seenHexes.has(hex)) hexes.add(`${at}"><title>${hex}${piece.tail}`);
        else hexes.add(`${at}" class="fog"><title>${hex}${piece.fogTail}`);
        coords.add(`<text x="${xs[c]}${labelYs[odd]![r]}${hex}</text>`);
      } else if (seenHexes === null || seenHexes.has(cols[c]! + row)) hexes.add(`${at}"/>`);
      else hexes.add(`${at}" class="fog"/>`);
    }
  }
  out.push(`<defs>${defs.join('')}</defs>`, '<g class="hexes">');
  if (!hexes.empty) out.push(hexes.text());
  out.push('</g>');
  // Drawn after every hex, so no neighbouring hex covers a label.
  if (!coords.empty) out.push('<g class="coord" text-anchor="middle">', coords.text(), '</g>');

  out.push('<g class="resources">');
  for (const res of model.resources.filter((r) => inWindow(r.hex))) {
    const { x, y } = centre(res.hex);
    const s = R * 0.16;
    out.push(`<polygon class="resource r-${cssName(res.kind)}" points="${num(x + R * 0.55)},${num(y - s)} ${num(x + R * 0.55 + s)},${num(y)} ${num(x + R * 0.55)},${num(y + s)} ${num(x + R * 0.55 - s)},${num(y)}" fill="#f4f6f7" stroke="#555" stroke-width="0.6"><title>${escapeXml(`${res.name} (${res.kind}) at ${res.hex}`)}</title></polygon>`);
  }
  out.push('</g>');

  if (model.routes?.length) {
    out.push('<g class="trade-routes">');
    for (const r of model.routes.filter((x) => inWindow(x.from) || inWindow(x.to))) {
      const a = centre(r.from);
      const b = centre(r.to);
      out.push(`<line x1="${num(a.x)}" y1="${num(a.y)}" x2="${num(b.x)}" y2="${num(b.y)}" stroke="#7a5c12" stroke-width="2.5" stroke-dasharray="6 4" stroke-linecap="round"><title>${escapeXml(r.label)}</title></line>`);
    }
    out.push('</g>');
  }

  out.push('<g class="settlements">');
  for (const s of [...model.settlements].filter((x) => inWindow(x.hex)).sort((a, b) => compareIds(a.hex, b.hex))) {
    const { x, y } = centre(s.hex);
    const size = s.level === 'capital' ? 0.5 : s.level === 'city' ? 0.44 : s.level === 'town' ? 0.38 : 0.32;
    const h = R * size;
    const fill = colour.get(s.nation) ?? '#000';
    const who = nationName.get(s.nation) ?? s.nation;
    out.push(`<g class="settlement n-${cssName(s.nation)} l-${cssName(s.level)}" data-hex="${s.hex}">`);
    out.push(`<title>${escapeXml(`${s.name} — ${s.level} of ${who} at ${s.hex}`)}</title>`);
    out.push(`<rect x="${num(x - h)}" y="${num(y - h)}" width="${num(2 * h)}" height="${num(2 * h)}" fill="#fff" stroke="${fill}" stroke-width="2.5"/>`);
    if (s.level === 'capital') out.push(`<circle cx="${num(x)}" cy="${num(y)}" r="${num(h * 0.45)}" fill="${fill}"/>`);
    out.push(`<text class="site-name" x="${num(x)}" y="${num(y + R * 0.82)}" text-anchor="middle" fill="${fill}">${escapeXml(s.name)}</text>`);
    out.push('</g>');
  }
  out.push('</g>');

  // Units: one token per nation in a hex, with a count and every unit named in its title.
  out.push('<g class="units">');
  const tokens = new ChunkedText('\n');
  const byHex = new Map<string, Map<string, MapUnit[]>>(); // hex -> nation -> units, in the model's order
  for (const u of model.units) {
    if (!inWindow(u.hex)) continue;
    const here = byHex.get(u.hex) ?? new Map<string, MapUnit[]>();
    byHex.set(u.hex, here);
    pushTo(here, u.nation, u);
  }
  const unitR = num(R * 0.24);
  for (const hex of [...byHex.keys()].sort(compareIds)) {
    const here = byHex.get(hex)!;
    const groups = [...here.keys()].sort((a, b) => (a === model.reader ? -1 : b === model.reader ? 1 : compareIds(a, b)));
    const { x, y } = centre(hex);
    const cy = num(y + R * 0.05);
    const textY = num(y + R * 0.05 + R * 0.11);
    for (let i = 0; i < groups.length; i++) {
      const nation = groups[i]!;
      const units = here.get(nation)!;
      const cx = num(x - R * 0.45 + i * R * 0.42);
      const fill = colour.get(nation) ?? '#000';
      tokens.add(
        `<g class="unit n-${cssName(nation)}" data-hex="${hex}">\n<title>${escapeXml(`${nationName.get(nation) ?? nation} at ${hex}: ${units.map((u) => u.label).join('; ')}`)}</title>\n` +
          `<circle cx="${cx}" cy="${cy}" r="${unitR}" fill="${fill}" stroke="#fff" stroke-width="1.2"/>\n<text class="count" x="${cx}" y="${textY}" text-anchor="middle">${units.length}</text>\n</g>`,
      );
    }
  }
  if (!tokens.empty) out.push(tokens.text());
  out.push('</g>');

  out.push(`<g class="legend">`);
  model.nations.forEach((n, i) => {
    const y = legendTop + 18 * i;
    out.push(`<rect x="6" y="${num(y)}" width="12" height="12" fill="${n.colour}"/><text x="24" y="${num(y + 10)}">${escapeXml(`${n.name}${n.id === model.reader ? ' (you)' : ''}`)}</text>`);
  });
  out.push('</g>');
  out.push('</svg>');
  return out.join('\n') + '\n';
}
