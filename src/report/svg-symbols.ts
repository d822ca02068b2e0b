import type { MapMark } from './types.js';

/**
 * The map's symbols. Each is drawn once, around the origin, in the map's
 * <defs>, and placed with a <use> — a hundred marks cost a hundred short
 * tags, not a hundred shapes. The map and its legend place the same ones, so
 * the legend always matches. Shapes, not colours alone, tell kinds apart (a
 * reader who cannot tell red from green still tells a burst from a cross),
 * and none relies on a font having a special glyph. A nation's colour comes
 * from the <use> (fill or stroke), which the shape inherits.
 * Callers escape any text they pass in.
 */

/**
 * A coordinate with at most one decimal ("12.3", "12", never "-0"). Written
 * from whole tenths: turning integers into text is much cheaper than doubles,
 * and a map writes thousands of coordinates.
 */
export function num(n: number): string {
  const tenths = Math.round(n * 10);
  const whole = Math.trunc(tenths / 10);
  const rest = Math.abs(tenths % 10);
  if (rest === 0) return String(whole);
  return `${tenths < 0 && whole === 0 ? '-' : ''}${whole}.${rest}`;
}

const points = (list: readonly (readonly [number, number])[]) => list.map(([x, y]) => `${num(x)},${num(y)}`).join(' ');

/**
 * A class-name-safe form of an id. A map asks it of every badge, settlement
 * and legend entry, a thousand maps a turn of the same few hundred ids and
 * words: each is worked out once per thread (up to CSS_NAMES_KEPT, then the
 * kept ones are dropped and kept afresh).
 */
export function cssName(s: string): string {
  let name = cssNames.get(s);
  if (name === undefined) {
    if (cssNames.size >= CSS_NAMES_KEPT) cssNames.clear();
    cssNames.set(s, (name = s.toLowerCase().replace(/[^a-z0-9_-]/g, '-')));
  }
  return name;
}
const cssNames = new Map<string, string>();
const CSS_NAMES_KEPT = 10_000;

/** A trade route's line: a dashed brown road between two settlements, on the map and in its legend. */
export const ROUTE_STROKE = 'stroke="#7a5c12" stroke-width="2.5" stroke-dasharray="6 4" stroke-linecap="round"';

/** Half the side of the biggest settlement square (a capital's, a city's), in hex radii: unit markers stand clear of it. */
export const SQUARE_HALF = 0.32;

/** Half the side of a settlement's square by its level, in hex radii. */
export const squareHalf = (level: string) => (level === 'capital' || level === 'city' ? SQUARE_HALF : level === 'town' ? 0.27 : 0.22);

/** Half the width of the widest icon (a siege's cross hairs), in hex radii: the room each icon takes on the map. */
export const ICON_HALF = 0.29;

/** How much of a hex out of sight shows over the white paper (its fill-opacity). */
export const FOG_OPACITY = 0.5;

/** The size of every text on a map, in pixels at the map's own scale: never below 9 on the page (svg-map.ts). */
export const TEXT_SIZE = { coord: 9, name: 10, count: 9, legend: 10 } as const;

/** A unit badge's height, in pixels. */
export const PILL_HEIGHT = TEXT_SIZE.count + 3;

export type SymbolName = 'capital' | 'city' | 'town' | 'village' | 'resource' | 'structure' | MapMark['kind'];

function shapeOf(name: SymbolName, R: number): string {
  const s = R * 0.24;
  switch (name) {
    case 'capital':
    case 'city':
    case 'town':
    case 'village': {
      const h = R * squareHalf(name);
      const box = `<rect x="${num(-h)}" y="${num(-h)}" width="${num(2 * h)}" height="${num(2 * h)}" fill="#fff" stroke-width="2.5"/>`;
      return name === 'capital' ? `${box}<circle r="${num(h * 0.5)}" stroke="none"/>` : box;
    }
    case 'resource': {
      const d = R * 0.2;
      return `<polygon points="${points([[0, -d], [d, 0], [0, d], [-d, 0]])}" fill="#fff" stroke="#333" stroke-width="1.2"/>`;
    }
    case 'structure': {
      const d = R * 0.2;
      return `<polygon points="${points([[-d, d], [d, d], [d, -d * 0.2], [0, -d * 1.2], [-d, -d * 0.2]])}" stroke="#222" stroke-width="1"/>`;
    }
    case 'battle': {
      const burst = Array.from({ length: 16 }, (_, i) => {
        const r = i % 2 === 0 ? s * 1.15 : s * 0.5;
        return [r * Math.cos((Math.PI / 8) * i), r * Math.sin((Math.PI / 8) * i)] as const;
      });
      return `<polygon points="${points(burst)}" fill="#f2a900" stroke="#5a1a00" stroke-width="1.1"/>`;
    }
    case 'siege':
      return (
        `<circle r="${num(s * 0.7)}" fill="#fff" stroke="#222" stroke-width="1.6"/>` +
        `<path d="M${num(-s * 1.2)} 0h${num(s * 0.5)}M${num(s * 0.7)} 0h${num(s * 0.5)}M0 ${num(-s * 1.2)}v${num(s * 0.5)}M0 ${num(s * 0.7)}v${num(s * 0.5)}" stroke="#222" stroke-width="1.6"/>`
      );
    case 'lost': {
      const d = num(s * 0.6);
      return `<circle r="${num(s)}" fill="#fff" stroke="#222" stroke-width="0.8"/><path d="M-${d} -${d}L${d} ${d}M-${d} ${d}L${d} -${d}" stroke="#b00000" stroke-width="2"/>`;
    }
    case 'new': {
      const star = Array.from({ length: 10 }, (_, i) => {
        const r = i % 2 === 0 ? s * 1.1 : s * 0.45;
        const a = -Math.PI / 2 + (Math.PI / 5) * i;
        return [r * Math.cos(a), r * Math.sin(a)] as const;
      });
      return `<polygon points="${points(star)}" fill="#fff27a" stroke="#4a3b00" stroke-width="1"/>`;
    }
  }
}

const shapes = new Map<string, string>();
/** A symbol's shape, drawn once per size: a thousand maps share it. */
function shape(name: SymbolName, R: number): string {
  const key = `${name}|${R}`;
  let made = shapes.get(key);
  if (made === undefined) shapes.set(key, (made = shapeOf(name, R)));
  return made;
}

/** The symbols of one map: placed by name, defined once in its <defs> under the map's own id prefix. */
export class SymbolKit {
  private readonly used = new Set<SymbolName>();
  /** The widths of unit boxes placed so far: one box shape each. */
  private readonly pillWidths = new Set<number>();

  constructor(
    private readonly token: string,
    private readonly R: number,
  ) {}

  /** A <use> of the symbol centred at (x, y); `paint` is a fill and/or stroke attribute for its nation's colour. */
  place(name: SymbolName, x: number, y: number, paint = ''): string {
    this.used.add(name);
    return `<use href="#${this.token}-s-${name}" x="${num(x)}" y="${num(y)}"${paint}/>`;
  }

  /**
   * Units of one nation in one hex: a box in its colour with its letter and how many ("A×3"). The box
   * is a <use> of one shape per width (a map has a hundred boxes and two or three widths), coloured
   * by the <use>; the ink stays an attribute, so the count reads even where a mail program drops the
   * map's stylesheet.
   */
  /** A unit box's width for its label: bold 9px digits and capitals are about 6px wide in the faces this map asks for. */
  pillWidth(label: string): number {
    return label.length * 6 + 5;
  }

  pill(x: number, y: number, label: string, colour: string, ink: string): string {
    const width = this.pillWidth(label);
    this.pillWidths.add(width);
    return (
      `<use href="#${this.token}-p${width}" x="${num(x)}" y="${num(y)}" fill="${colour}"/>` +
      `<text class="count" x="${num(x)}" y="${num(y + TEXT_SIZE.count * 0.36)}" fill="${SHORT_INK[ink] ?? ink}">${label}</text>`
    );
  }

  /** The definitions of the symbols placed so far. */
  defs(): string {
    const height = PILL_HEIGHT;
    const pills = [...this.pillWidths]
      .sort((a, b) => a - b)
      .map((w) => `<rect id="${this.token}-p${w}" x="${num(-w / 2)}" y="${num(-height / 2)}" width="${w}" height="${height}" rx="3" stroke="#fff"/>`);
    return [...this.used].sort().map((name) => `<g id="${this.token}-s-${name}" class="symbol-${name}">${shape(name, this.R)}</g>`).join('') + pills.join('');
  }
}

const SHORT_INK: Record<string, string> = { '#ffffff': '#fff', '#000000': '#000' };

/** A settlement's paint: its square's outline and a capital's dot in the nation's colour. */
export const settlementPaint = (colour: string) => ` fill="${colour}" stroke="${colour}"`;

/**
 * A move as path data: a line through the centres of the hexes passed, its
 * head stopping short of the last centre where the unit's marker stands.
 * Every move of a map goes into a few paths (svg-map.ts: one white casing
 * under all, one line and one set of heads per colour), not three shapes each.
 */
export function moveArrow(centres: readonly { x: number; y: number }[], R: number): { line: string; head: string } {
  if (centres.length < 2) return { line: '', head: '' };
  const last = centres[centres.length - 1]!;
  const prev = centres[centres.length - 2]!;
  const len = Math.hypot(last.x - prev.x, last.y - prev.y) || 1;
  const ux = (last.x - prev.x) / len;
  const uy = (last.y - prev.y) / len;
  const tipX = last.x - ux * R * 0.42;
  const tipY = last.y - uy * R * 0.42;
  const head = R * 0.34;
  const baseX = tipX - ux * head;
  const baseY = tipY - uy * head;
  let line = `M${num(centres[0]!.x)} ${num(centres[0]!.y)}`;
  for (let i = 1; i < centres.length - 1; i++) line += `L${num(centres[i]!.x)} ${num(centres[i]!.y)}`;
  line += `L${num(baseX)} ${num(baseY)}`;
  const w = head * 0.55;
  return { line, head: `M${num(tipX)} ${num(tipY)}L${num(baseX - uy * w)} ${num(baseY + ux * w)}L${num(baseX + uy * w)} ${num(baseY - ux * w)}Z` };
}

/** Moves drawn together: the white casing of all, then per colour the lines (dashed for flights) and the heads. */
export function movePaths(moves: readonly { colour: string; fled: boolean; line: string; head: string }[]): string {
  const casing = moves.map((m) => m.line).join('');
  const byStyle = new Map<string, { colour: string; fled: boolean; lines: string[]; heads: string[] }>();
  for (const m of moves) {
    const key = `${m.colour}${m.fled ? ' fled' : ''}`;
    const style = byStyle.get(key) ?? { colour: m.colour, fled: m.fled, lines: [], heads: [] };
    byStyle.set(key, style);
    style.lines.push(m.line);
    style.heads.push(m.head);
  }
  const out = [`<path class="casing" d="${casing}"/>`];
  for (const s of byStyle.values()) {
    out.push(`<path class="line" d="${s.lines.join('')}" stroke="${s.colour}"${s.fled ? ' stroke-dasharray="4 3"' : ''}/>`);
    out.push(`<path class="head" d="${s.heads.join('')}" fill="${s.colour}"/>`);
  }
  return out.join('');
}

/** The styles the symbols rely on, for the map's <style>. */
export const SYMBOL_STYLE =
  '.fatecraft-map .moves .line,.fatecraft-map .moves .casing{fill:none;stroke-width:2.6;stroke-linejoin:round}.fatecraft-map .moves .casing{stroke:#fff;stroke-width:5;stroke-linecap:round;opacity:.85}' +
  '.fatecraft-map .moves .head{stroke:#fff;stroke-width:1}.fatecraft-map .count{text-anchor:middle}';
