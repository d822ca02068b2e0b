import { ChunkedText } from '../core/chunked-text.js';
import { offsetOf } from '../core/hex.js';
import { asHexKey, compareIds } from '../core/ids.js';
import { pushTo } from '../core/multimap.js';
import { escapeXml } from '../text/escape.js';
import type { MapModel, MapUnit } from './map-model.js';
import { inkOn } from './palette.js';
import { renderLegend, type DrawnMarks } from './svg-legend.js';
import { renderOverview, type OverviewBase } from './svg-overview.js';
import { boxAround, COORD_MARGIN, LabelSpace, placeName, textBox } from './map-labels.js';
import { cssName, FOG_OPACITY, ICON_HALF, moveArrow, movePaths, num, PILL_HEIGHT, ROUTE_STROKE, settlementPaint, SQUARE_HALF, squareHalf, SymbolKit, SYMBOL_STYLE, TEXT_SIZE } from './svg-symbols.js';

/**
 * The hex map as a standalone SVG: flat-topped hexes in odd-q columns (odd
 * columns shifted down half a hex, as on the campaign map), terrain coloured,
 * hexes out of sight dimmed, settlements, structures and units in their
 * nation's colour, this turn's moves and marks, and under it the legend and
 * (on a nation's map) the whole map in small with the area framed.
 * Every piece of text is escaped here (escape.ts); the result is safe to embed in HTML.
 * Colours are presentation attributes, so a stylesheet (the HTML template's)
 * can restyle them by class: .t-<terrain>, .n-<nation>, .fog, .settlement...
 *
 * The scale is fixed so the map reads at a page's width: with HEX_RADIUS 22 a
 * nation's largest window (map-grid.ts, AREA_LIMIT) is 638 pixels wide, and
 * every text is at least 9 pixels high without the page shrinking the map.
 */

export const HEX_RADIUS = 22;
/** The narrowest a map is drawn, so its legend has room. */
export const MIN_WIDTH = 600;
const SQRT3 = Math.sqrt(3);

/**
 * Terrain tints, chosen apart (test/report/palette.test.ts): any two at least 8 CIEDE2000 apart, and
 * the demo's six, in sight and faded, at least 8 apart for normal vision and 4.5 for the commonest
 * colour-blindness — sea deep blue, inland water a lighter cyan, plains a pale yellow-green, so that
 * sea, water and faded plains are no longer three close blue-greens.
 */
export const TERRAIN_COLOURS: Record<string, string> = {
  plains: '#e6e8a6',
  grass: '#b9dc8a',
  forest: '#4a8546',
  woods: '#4a8546',
  hills: '#dbb066',
  mountains: '#968c84',
  water: '#8ad3dc',
  lake: '#8ad3dc',
  sea: '#4e80c8',
  ocean: '#33609f',
  swamp: '#8fa88a',
  marsh: '#8fa88a',
  desert: '#f3d9a0',
  tundra: '#e8ecef',
};

export { cssName };

/** A stable colour for a terrain the palette does not know. */
export function terrainColour(terrain: string): string {
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
  /** The campaign's land mask (svg-overview.ts): a nation's map draws the whole map in small beside the legend. */
  overview?: OverviewBase;
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
  const { window, rows, legend: legend_ } = model.grid;
  const labels = opts.coordinates ?? window.cols * window.rows <= DENSE_MAP;
  const colour = new Map(model.nations.map((n) => [n.id, n.colour]));
  const nationName = new Map(model.nations.map((n) => [n.id, n.name]));
  // Letters are A to Z (map-model.ts): nothing to escape.
  const letterOf = new Map(model.nations.map((n) => [n.id, /^[A-Z]$/.test(n.letter) ? `${n.letter}×` : '']));
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
  const width = Math.max(mapWidth, MIN_WIDTH);
  // Under the map: the overview (a nation's map) at the left, the legend beside it.
  const belowTop = mapHeight + 10;
  const overview = opts.overview && model.own ? opts.overview : undefined;
  const legendX = overview ? overview.width + 20 : 6;
  const token = mapToken(model, R);
  const kit = new SymbolKit(token, R);
  const presentTerrains = new Set(rows.join(''));
  const routes = (model.routes ?? []).filter((x) => inWindow(x.from) || inWindow(x.to));
  // What the window shows, for the legend to explain that and nothing else (test/report/map-legend.test.ts).
  const builtOn = new Set(model.structures.map((st) => st.hex));
  const shownUnits = model.units.filter((u) => inWindow(u.hex));
  const shownSettlements = model.settlements.filter((x) => inWindow(x.hex));
  const shownStructures = model.structures.filter((st) => inWindow(st.hex));
  const shownMoves = (model.changes?.moves ?? []).filter((m) => m.hexes.some(inWindow));
  const drawn: DrawnMarks = {
    nations: new Set([...shownUnits, ...shownSettlements, ...shownStructures].map((x) => x.nation)),
    levels: new Set(shownSettlements.map((x) => x.level)),
    resources: model.resources.some((r) => inWindow(r.hex) && !builtOn.has(r.hex)),
    structure: shownStructures[0]?.nation,
    moves: shownMoves.some((m) => !m.fled),
    fled: shownMoves.some((m) => m.fled),
    marks: new Set((model.changes?.marks ?? []).filter((m) => inWindow(m.hex)).map((m) => m.kind)),
  };
  const legend = renderLegend(
    {
      model,
      terrains: Object.entries(legend_).filter(([ch]) => presentTerrains.has(ch)).map(([, t]) => ({ name: t, fill: terrainColour(t) })),
      fogged: model.seen !== null && model.seen.size < window.cols * window.rows,
      routes: routes.length > 0,
      drawn,
      R,
      kit,
    },
    legendX,
    belowTop + 4,
    width - legendX - 4,
  );
  const overviewTop = belowTop + 18;
  const height = Math.max(belowTop + legend.height + 10, overview ? overviewTop + overview.height + 6 : 0);

  /**
   * Every mark tied to a hex, placed before any word so that the words keep clear of them (map-labels.ts):
   * the icons of structures, resources and this turn's marks at the left of their hex, settlements' squares,
   * unit badges (beside a square, or right of the icons), then each settlement's name where it is free.
   */
  function layOut() {
    const space = new LabelSpace(2 * R);
    const slots = new Map<string, number>();
    const settled = new Set(shownSettlements.map((x) => x.hex));
    // What stands on a hex's resource (a structure built, else the resource untouched), then this turn's marks: left
    // of its centre, one above the other; a third above the badges (under a settlement's square), a fourth at the right.
    const slotAt = (hex: string) => {
      const n = slots.get(hex) ?? 0;
      slots.set(hex, n + 1);
      const { x, y } = centre(hex);
      const [dx, dy] = n === 0 ? [-0.65, -0.04] : n === 1 ? [-0.65, 0.56] : n === 2 ? (settled.has(hex) ? [0, 0.6] : [0.3, -0.52]) : [0.65, 0.56];
      const at = { x: x + R * dx, y: y + R * dy };
      space.take(boxAround(at.x, at.y, R * ICON_HALF, R * ICON_HALF));
      return at;
    };
    const structures = [...shownStructures].sort((a, b) => compareIds(a.hex, b.hex) || compareIds(a.name, b.name)).map((st) => ({ st, at: slotAt(st.hex) }));
    const resources = model.resources.filter((r) => inWindow(r.hex) && !builtOn.has(r.hex)).map((res) => ({ res, at: slotAt(res.hex) }));
    const marks = (model.changes?.marks ?? []).filter((m) => inWindow(m.hex)).map((m) => ({ m, at: slotAt(m.hex) }));
    const sites = [...shownSettlements].sort((a, b) => compareIds(a.hex, b.hex)).map((site) => {
      const { x, y } = centre(site.hex);
      const half = R * squareHalf(site.level);
      space.take(boxAround(x, y - R * 0.04, half, half));
      return { site, x, y, half };
    });
    // Units: one badge per nation in a hex, the reader's first. Beside a settlement's square (clear of it and of
    // its name), a second nation's badge above the first; elsewhere in the middle, clear of the icons at the
    // left, a second under the first.
    const byHex = new Map<string, Map<string, MapUnit[]>>(); // hex -> nation -> units, in the model's order
    for (const u of shownUnits) {
      const here = byHex.get(u.hex) ?? new Map<string, MapUnit[]>();
      byHex.set(u.hex, here);
      pushTo(here, u.nation, u);
    }
    const badges: { hex: string; nation: string; units: MapUnit[]; label: string; x: number; y: number }[] = [];
    for (const hex of [...byHex.keys()].sort(compareIds)) {
      const here = byHex.get(hex)!;
      const groups = [...here.keys()].sort((a, b) => (a === model.reader ? -1 : b === model.reader ? 1 : compareIds(a, b)));
      const { x, y } = centre(hex);
      const beside = settled.has(hex);
      const iconsLeft = !beside && (slots.get(hex) ?? 0) > 0;
      groups.forEach((nation, i) => {
        const label = `${letterOf.get(nation) ?? ''}${here.get(nation)!.length}`;
        const w = kit.pillWidth(label);
        const px = beside ? x + R * SQUARE_HALF + 3 + w / 2 : iconsLeft ? Math.max(x, x - R * (0.65 - ICON_HALF) + 1.5 + w / 2) : x;
        const py = beside ? y - R * 0.3 - i * (TEXT_SIZE.count + 4) : y + R * 0.08 + i * (TEXT_SIZE.count + 4);
        space.take(boxAround(px, py, w / 2, PILL_HEIGHT / 2));
        badges.push({ hex, nation, units: here.get(nation)!, label, x: px, y: py });
      });
    }
    const area = { x0: 0, y0: 0, x1: mapWidth, y1: mapHeight };
    const names = sites.map(({ site, x, y, half }) => ({ site, x, y, name: placeName(space, site.name, TEXT_SIZE.name, x, y - R * 0.04, half, R, area) }));
    return { space, empty: slots.size === 0 && sites.length === 0 && badges.length === 0, structures, resources, marks, names, badges };
  }

  const out: string[] = [];
  // It fills the width the page gives it (hexes, badges and names grown with it), and is never drawn smaller
  // than its own scale, where its text is 9px and up: on a narrower page (a phone) it scrolls. The style is
  // on the element, as mail programs that drop a page's stylesheet keep it; width and height stay for those
  // that read no style at all.
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" class="fatecraft-map" viewBox="0 0 ${num(width)} ${num(height)}" width="${num(width)}" height="${num(height)}" style="width:100%;min-width:${num(width)}px;height:auto" role="img" aria-label="${escapeXml(model.title)}">`);
  out.push(`<title>${escapeXml(model.title)}</title>`);
  out.push(
    `<style>.fatecraft-map text{font-family:Arial,Helvetica,sans-serif}.fatecraft-map .coord{font-size:${TEXT_SIZE.coord}px;fill:#4a4a4a}.fatecraft-map .fog{fill-opacity:${FOG_OPACITY}}` +
      `.fatecraft-map .hex{stroke:#777;stroke-width:.6}.fatecraft-map .site-name{font-size:${TEXT_SIZE.name}px;font-weight:bold;paint-order:stroke;stroke:#fff;stroke-width:2.5px;stroke-linejoin:round}` +
      `.fatecraft-map .count{font-size:${TEXT_SIZE.count}px;font-weight:bold}.fatecraft-map .legend{font-size:${TEXT_SIZE.legend}px}${SYMBOL_STYLE}</style>`,
  );
  out.push(`<rect class="paper" width="${num(width)}" height="${num(height)}" fill="#fff"/>`);

  // Terrain. A map is nearly all hexes, so each terrain's hex is drawn once in
  // <defs> and every hex is a <use> of it; fog goes on a group, whose
  // fill-opacity the shapes inherit. Plain href (SVG 2) rather than xlink:href:
  // every browser the HTML report is read in takes it, and it costs no namespace.
  const shape = [0, 1, 2, 3, 4, 5].map((i) => `${num(R * Math.cos((Math.PI / 3) * i))},${num(R * Math.sin((Math.PI / 3) * i))}`).join(' ');
  const defs: string[] = [];
  const hrefOf = new Map<string, string>();
  const ids = new Set<string>();
  // Per terrain character, the fixed text of a hex: its <use> up to "x".
  const byChar = new Map<string, { use: string }>();
  const lookUp = (ch: string) => {
    const terrain = legend_[ch] ?? 'unknown';
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
    const t = { use: `<use href="${href}" x="` };
    byChar.set(ch, t);
    return t;
  };
  // A hex's position depends only on its column, row and column parity: format each once, not once per hex.
  const xs = Array.from({ length: window.cols }, (_, c) => num(xAt(window.col + c)));
  const ys = [0, 1].map((odd) => Array.from({ length: window.rows }, (_, r) => yAt(odd, window.row + r)));
  const hexYs = ys.map((col) => col.map((y) => `" y="${num(y)}`));
  const labelYs = ys.map((col) => col.map((y) => `" y="${num(y - R * 0.48)}">`));
  // A world's map is 160,000 hexes, built in chunks (see ChunkedText); the defs, complete only after the loop, go before them.
  const hexes = new ChunkedText('\n');
  // Hexes out of sight go in a group of their own, which carries the fog once rather than on each <use>.
  const fogged = new ChunkedText('\n');
  const coords = new ChunkedText('\n');
  const cols = Array.from({ length: window.cols }, (_, c) => `${window.col + c},`);
  const seenHexes = model.seen;
  const layout = layOut();
  // Hexes are drawn by column and row; the same positions as xAt/yAt, each formatted once.
  for (let r = 0; r < rows.length; r++) {
    const line = rows[r]!;
    const row = window.row + r;
    for (let c = 0; c < line.length; c++) {
      const ch = line[c]!;
      const piece = byChar.get(ch) ?? lookUp(ch);
      const odd = (window.col + c) % 2 === 1 ? 1 : 0;
      const at = `${piece.use}${xs[c]}${hexYs[odd]![r]}`;
      const key = cols[c]! + row;
      // No tooltip per hex: its coordinates are printed in it, its terrain is in the legend.
      if (seenHexes === null || seenHexes.has(key)) hexes.add(`${at}"/>`);
      else fogged.add(`${at}"/>`);
      // Coordinates only where no other label is (map-labels.ts).
      if (labels && (layout.empty || layout.space.clear(textBox(key, TEXT_SIZE.coord, false, xAt(window.col + c), ys[odd]![r]! - R * 0.48, 'middle'), COORD_MARGIN))) {
        coords.add(`<text x="${xs[c]}${labelYs[odd]![r]}${key}</text>`);
      }
    }
  }
  // The symbols' definitions are known only once everything is placed: their slot is filled at the end.
  const defsAt = out.push('') - 1;
  out.push('<g class="hexes">');
  if (!hexes.empty) out.push(hexes.text());
  if (!fogged.empty) out.push('<g class="fog">', fogged.text(), '</g>');
  out.push('</g>');
  // Drawn after every hex, so no neighbouring hex covers a label.
  if (!coords.empty) out.push('<g class="coord" text-anchor="middle">', coords.text(), '</g>');

  out.push('<g class="structures">');
  for (const { st, at } of layout.structures) {
    out.push(`<g class="structure n-${cssName(st.nation)}"><title>${escapeXml(`${st.name} of ${nationName.get(st.nation) ?? st.nation} at ${st.hex}`)}</title>${kit.place('structure', at.x, at.y, ` fill="${colour.get(st.nation) ?? '#000'}"`)}</g>`);
  }
  out.push('</g>');
  out.push('<g class="resources">');
  for (const { res, at } of layout.resources) {
    out.push(`<g class="resource r-${cssName(res.kind)}"><title>${escapeXml(`${res.name} (${res.kind}) at ${res.hex}`)}</title>${kit.place('resource', at.x, at.y)}</g>`);
  }
  out.push('</g>');

  // A route or a move to a place beyond the window is drawn up to the map's edge, never over the legend.
  const clip = `clip-path="url(#${token}-area)"`;
  if (routes.length) {
    out.push(`<g class="trade-routes" ${clip}>`);
    for (const r of routes) {
      const a = centre(r.from);
      const b = centre(r.to);
      out.push(`<line x1="${num(a.x)}" y1="${num(a.y)}" x2="${num(b.x)}" y2="${num(b.y)}" ${ROUTE_STROKE}><title>${escapeXml(r.label)}</title></line>`);
    }
    out.push('</g>');
  }

  out.push('<g class="settlements">');
  for (const { site: s, x, y, name } of layout.names) {
    const fill = colour.get(s.nation) ?? '#000';
    const who = nationName.get(s.nation) ?? s.nation;
    out.push(`<g class="settlement n-${cssName(s.nation)} l-${cssName(s.level)}" data-hex="${s.hex}">`);
    out.push(`<title>${escapeXml(`${s.name} — ${s.level} of ${who} at ${s.hex}`)}</title>`);
    const level = s.level === 'capital' || s.level === 'city' || s.level === 'town' ? s.level : 'village';
    out.push(kit.place(level, x, y - R * 0.04, settlementPaint(fill)));
    out.push(`<text class="site-name" x="${num(name.x)}" y="${num(name.y)}" text-anchor="${name.anchor}" fill="${fill}">${escapeXml(s.name)}</text>`);
    out.push('</g>');
  }
  out.push('</g>');

  // This turn's moves, under the unit markers they end at.
  const changes = model.changes;
  if (changes && changes.moves.length) {
    const moves = changes.moves.filter((m) => m.hexes.some(inWindow)).map((m) => ({ colour: colour.get(m.nation) ?? '#000', fled: m.fled, ...moveArrow(m.hexes.map(centre), R) }));
    out.push(`<g class="moves" ${clip}>${movePaths(moves)}</g>`);
  }

  // Units: one badge per nation in a hex, its letter and how many, every unit named in its title.
  out.push('<g class="units">');
  const tokens = new ChunkedText('\n');
  const inkOf = new Map(model.nations.map((n) => [n.id, inkOn(n.colour)]));
  for (const { hex, nation, units, label, x, y } of layout.badges) {
    const pill = kit.pill(x, y, label, colour.get(nation) ?? '#000', inkOf.get(nation) ?? '#fff');
    tokens.add(`<g class="unit n-${cssName(nation)}" data-hex="${hex}">\n<title>${escapeXml(`${nationName.get(nation) ?? nation} at ${hex}: ${units.map((u) => u.label).join('; ')}`)}</title>\n${pill}\n</g>`);
  }
  if (!tokens.empty) out.push(tokens.text());
  out.push('</g>');

  if (layout.marks.length) {
    out.push('<g class="marks">');
    for (const { m, at } of layout.marks) out.push(`<g class="mark ${m.kind}"><title>${escapeXml(m.text)}</title>${kit.place(m.kind, at.x, at.y)}</g>`);
    out.push('</g>');
  }

  if (overview && model.own) {
    out.push(`<text class="legend-head" x="6" y="${num(belowTop + 12)}" font-size="${TEXT_SIZE.legend}" font-weight="bold">The whole map</text>`);
    out.push(renderOverview(overview, window, model.own, model.nations[0]?.colour ?? '#000', 6, overviewTop));
  }
  out.push(legend.svg);
  out[defsAt] = `<defs>${defs.join('')}${kit.defs()}<clipPath id="${token}-area"><rect width="${num(mapWidth)}" height="${num(mapHeight)}"/></clipPath></defs>`;
  out.push('</svg>');
  return out.join('\n') + '\n';
}
