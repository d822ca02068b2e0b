import { escapeXml } from '../text/escape.js';
import type { MapModel } from './map-model.js';
import { inkOn } from './palette.js';
import { cssName, FOG_OPACITY, moveArrow, movePaths, num, ROUTE_STROKE, settlementPaint, type SymbolKit, TEXT_SIZE } from './svg-symbols.js';
import type { MapMark } from './types.js';

/**
 * The key under a map, in two columns: the nations drawn (their colour and
 * the letter their unit markers carry) and the settlements; the terrains in
 * the window, what is out of sight, resources and structures, and this
 * turn's marks. Only what the map shows is explained.
 */

const LINE = 16;
const LEVELS = ['capital', 'city', 'town', 'village'];
const MARK_TEXT: Record<MapMark['kind'], string> = {
  battle: 'battle this turn',
  siege: 'siege this turn',
  lost: 'lost this turn',
  new: 'new this turn',
};

interface Entry {
  /** A symbol centred at (x, y), or null for a heading. */
  draw: ((x: number, y: number) => string) | null;
  text: string;
  /**
   * What on the map the entry explains, as `data-key` on it: "nation:<id>", "settlement:<level>",
   * "terrain:<name>", "fog", "resource", "structure", "route", "move", "fled", "mark:<kind>". A test holds
   * the legend to the marks drawn (test/report/map-legend.test.ts).
   */
  key?: string;
}

/** The marks the map draws in its window. */
export interface DrawnMarks {
  /** Nations with a unit, settlement or structure in the window. */
  nations: ReadonlySet<string>;
  /** Settlement levels in the window. */
  levels: ReadonlySet<string>;
  /** A resource not built on is in the window. */
  resources: boolean;
  /** The nation of the first structure in the window (its colour in the legend), if any. */
  structure: string | undefined;
  moves: boolean;
  fled: boolean;
  marks: ReadonlySet<string>;
}

export interface LegendInput {
  model: MapModel;
  /** The terrains in the window, with their fill. */
  terrains: { name: string; fill: string }[];
  fogged: boolean;
  /** Trade routes are drawn in the window. */
  routes?: boolean;
  /** What the window shows (svg-map.ts): the legend lists that and nothing more. */
  drawn: DrawnMarks;
  R: number;
  kit: SymbolKit;
}

/** The legend's entries in two columns. */
function columns({ model, terrains, fogged, routes, drawn, R, kit }: LegendInput): [Entry[], Entry[]] {
  const left: Entry[] = [{ draw: null, text: 'Nations: units, letter × how many' }];
  for (const n of model.nations.filter((x) => drawn.nations.has(x.id))) {
    const label = n.letter && n.letter !== '?' ? `${n.letter}×2` : '2';
    left.push({ draw: (x, y) => kit.pill(x, y, escapeXml(label), n.colour, inkOn(n.colour)), text: `${n.name}${n.id === model.reader ? ' (you)' : ''}`, key: `nation:${cssName(n.id)}` });
  }
  const levels = drawn.levels;
  const reader = model.nations[0]?.colour ?? '#000';
  if (levels.size) {
    left.push({ draw: null, text: 'Settlements' });
    for (const level of [...LEVELS, ...[...levels].filter((l) => !LEVELS.includes(l)).sort()])
      if (levels.has(level)) left.push({ draw: (x, y) => kit.place(level === 'capital' || level === 'city' || level === 'town' ? level : 'village', x, y, settlementPaint(reader)), text: level, key: `settlement:${cssName(level)}` });
  }

  const right: Entry[] = [{ draw: null, text: 'Terrain' }];
  const hexAt = (x: number, y: number, fill: string, opacity = '') =>
    `<polygon points="${[0, 1, 2, 3, 4, 5].map((i) => `${num(x + 8 * Math.cos((Math.PI / 3) * i))},${num(y + 8 * Math.sin((Math.PI / 3) * i))}`).join(' ')}" fill="${fill}" stroke="#777" stroke-width=".6"${opacity}/>`;
  for (const t of terrains) right.push({ draw: (x, y) => hexAt(x, y, t.fill), text: t.name, key: `terrain:${cssName(t.name)}` });
  if (fogged) right.push({ draw: (x, y) => hexAt(x, y, terrains[0]?.fill ?? '#ccc', ` fill-opacity="${FOG_OPACITY}"`), text: 'faded: out of sight', key: 'fog' });
  if (drawn.resources) right.push({ draw: (x, y) => kit.place('resource', x, y), text: 'resource, not built on', key: 'resource' });
  if (drawn.structure !== undefined) right.push({ draw: (x, y) => kit.place('structure', x, y, ` fill="${model.nations.find((n) => n.id === drawn.structure)?.colour ?? reader}"`), text: 'structure built (its nation\'s colour)', key: 'structure' });
  if (routes) right.push({ draw: (x, y) => `<line x1="${num(x - 12)}" y1="${num(y)}" x2="${num(x + 12)}" y2="${num(y)}" ${ROUTE_STROKE}/>`, text: 'trade route', key: 'route' });
  if (drawn.moves || drawn.fled) {
    const arrow = (x: number, y: number, fled: boolean) => `<g class="moves">${movePaths([{ colour: reader, fled, ...moveArrow([{ x: x - 12, y }, { x: x + 8 + R * 0.42 + 4, y }], R) }])}</g>`;
    if (drawn.moves) right.push({ draw: (x, y) => arrow(x, y, false), text: 'move this turn', key: 'move' });
    if (drawn.fled) right.push({ draw: (x, y) => arrow(x, y, true), text: 'fled this turn', key: 'fled' });
  }
  for (const kind of ['battle', 'siege', 'lost', 'new'] as const) if (drawn.marks.has(kind)) right.push({ draw: (x, y) => kit.place(kind, x, y), text: MARK_TEXT[kind], key: `mark:${kind}` });
  return [left, right];
}

/** The legend at (x, y), `width` wide; returns its height. */
export function renderLegend(input: LegendInput, x: number, y: number, width: number): { svg: string; height: number } {
  const [left, right] = columns(input);
  const out: string[] = [`<g class="legend" font-size="${TEXT_SIZE.legend}">`];
  const column = (entries: Entry[], cx: number) => {
    entries.forEach((e, i) => {
      const cy = y + LINE * i + LINE / 2;
      if (e.draw === null) out.push(`<text class="legend-head" x="${num(cx)}" y="${num(cy + 3.5)}" font-weight="bold">${escapeXml(e.text)}</text>`);
      else out.push(`<g data-key="${escapeXml(e.key ?? '')}">`, e.draw(cx + 12, cy), `<text x="${num(cx + 30)}" y="${num(cy + 3.5)}">${escapeXml(e.text)}</text></g>`);
    });
  };
  column(left, x);
  column(right, x + width / 2);
  out.push('</g>');
  return { svg: out.join(''), height: LINE * Math.max(left.length, right.length) };
}
