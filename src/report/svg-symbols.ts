import type { MapMark } from './types.js';

/**
 * The map's symbols, each drawn around a point: the hex map and its legend
 * draw the same ones, so the legend always matches. Shapes, not colours alone,
 * tell kinds apart (a reader who cannot tell red from green still tells a
 * burst from a cross), and none relies on a font having a special glyph.
 * Callers escape any text they pass in.
 */

export const num = (n: number) => {
  const s = n.toFixed(1);
  return s.endsWith('.0') ? s.slice(0, -2) : s === '-0' ? '0' : s;
};

const points = (list: readonly (readonly [number, number])[]) => list.map(([x, y]) => `${num(x)},${num(y)}`).join(' ');

/** The size of every text on a map, in pixels at the map's own scale: never below 9 on the page (svg-map.ts). */
export const TEXT_SIZE = { coord: 9, name: 10, count: 9, legend: 10 } as const;

/** A rough width of a text in a sans-serif face, to size boxes around it. */
export function textWidth(text: string, size: number, bold = false): number {
  let w = 0;
  for (const c of text) w += /[0-9]/.test(c) ? 0.56 : /[,.:;' ]/.test(c) ? 0.28 : /[A-Z×]/.test(c) ? 0.68 : 0.52;
  return w * size * (bold ? 1.07 : 1);
}

export type SettlementLevel = 'village' | 'town' | 'city' | 'capital' | string;

/** A settlement: a square in its nation's colour, bigger for bigger places; a capital has a dot in it. */
export function settlementSymbol(x: number, y: number, level: SettlementLevel, colour: string, R: number): string {
  const h = R * (level === 'capital' || level === 'city' ? 0.32 : level === 'town' ? 0.27 : 0.22);
  const box = `<rect x="${num(x - h)}" y="${num(y - h)}" width="${num(2 * h)}" height="${num(2 * h)}" fill="#fff" stroke="${colour}" stroke-width="2.5"/>`;
  return level === 'capital' ? `${box}<circle cx="${num(x)}" cy="${num(y)}" r="${num(h * 0.5)}" fill="${colour}"/>` : box;
}

/** Units of one nation in one hex: a box in its colour with its letter and how many ("A×3"). */
export function unitPill(x: number, y: number, label: string, colour: string, ink: string): { svg: string; width: number } {
  const width = textWidth(label, TEXT_SIZE.count, true) + 6;
  const height = TEXT_SIZE.count + 3;
  return {
    width,
    svg:
      `<rect x="${num(x - width / 2)}" y="${num(y - height / 2)}" width="${num(width)}" height="${num(height)}" rx="3" fill="${colour}" stroke="#fff" stroke-width="1"/>` +
      `<text class="count" x="${num(x)}" y="${num(y + TEXT_SIZE.count * 0.36)}" text-anchor="middle" fill="${ink}">${label}</text>`,
  };
}

/** A resource no one has built on: a hollow diamond. */
export function resourceSymbol(x: number, y: number, R: number): string {
  const s = R * 0.2;
  return `<polygon class="resource-mark" points="${points([[x, y - s], [x + s, y], [x, y + s], [x - s, y]])}" fill="#fff" stroke="#333" stroke-width="1.2"/>`;
}

/** An external structure built on a resource: a solid little house in the builder's colour. */
export function structureSymbol(x: number, y: number, colour: string, R: number): string {
  const s = R * 0.2;
  return `<polygon class="structure-mark" points="${points([[x - s, y + s], [x + s, y + s], [x + s, y - s * 0.2], [x, y - s * 1.2], [x - s, y - s * 0.2]])}" fill="${colour}" stroke="#222" stroke-width="1"/>`;
}

/** This turn's marks: a burst for a battle, a ring with four ticks for a siege, a cross for a loss, a star for something new. */
export function markSymbol(kind: MapMark['kind'], x: number, y: number, R: number): string {
  const s = R * 0.24;
  switch (kind) {
    case 'battle': {
      const burst = Array.from({ length: 16 }, (_, i) => {
        const r = i % 2 === 0 ? s * 1.15 : s * 0.5;
        const a = (Math.PI / 8) * i;
        return [x + r * Math.cos(a), y + r * Math.sin(a)] as const;
      });
      return `<polygon class="mark-battle" points="${points(burst)}" fill="#f2a900" stroke="#5a1a00" stroke-width="1.1"/>`;
    }
    case 'siege':
      return (
        `<circle class="mark-siege" cx="${num(x)}" cy="${num(y)}" r="${num(s * 0.7)}" fill="#fff" stroke="#222" stroke-width="1.6"/>` +
        `<path d="M${num(x - s * 1.2)} ${num(y)}h${num(s * 0.5)}M${num(x + s * 0.7)} ${num(y)}h${num(s * 0.5)}M${num(x)} ${num(y - s * 1.2)}v${num(s * 0.5)}M${num(x)} ${num(y + s * 0.7)}v${num(s * 0.5)}" stroke="#222" stroke-width="1.6"/>`
      );
    case 'lost': {
      const d = s * 0.6;
      return (
        `<circle class="mark-lost" cx="${num(x)}" cy="${num(y)}" r="${num(s)}" fill="#fff" stroke="#222" stroke-width="0.8"/>` +
        `<path d="M${num(x - d)} ${num(y - d)}L${num(x + d)} ${num(y + d)}M${num(x - d)} ${num(y + d)}L${num(x + d)} ${num(y - d)}" stroke="#b00000" stroke-width="2"/>`
      );
    }
    case 'new': {
      const star = Array.from({ length: 10 }, (_, i) => {
        const r = i % 2 === 0 ? s * 1.1 : s * 0.45;
        const a = -Math.PI / 2 + (Math.PI / 5) * i;
        return [x + r * Math.cos(a), y + r * Math.sin(a)] as const;
      });
      return `<polygon class="mark-new" points="${points(star)}" fill="#fff27a" stroke="#4a3b00" stroke-width="1"/>`;
    }
  }
}

/**
 * A move: a line through the centres of the hexes passed, cased in white so
 * it reads on every terrain, its head stopping short of the last centre where
 * the unit's marker stands. Dashed when the unit fled.
 */
export function moveArrow(centres: readonly { x: number; y: number }[], colour: string, R: number, fled: boolean): string {
  if (centres.length < 2) return '';
  const pts = centres.map((c) => ({ ...c }));
  const last = pts[pts.length - 1]!;
  const prev = pts[pts.length - 2]!;
  const len = Math.hypot(last.x - prev.x, last.y - prev.y) || 1;
  const ux = (last.x - prev.x) / len;
  const uy = (last.y - prev.y) / len;
  const tip = { x: last.x - ux * R * 0.42, y: last.y - uy * R * 0.42 };
  const head = R * 0.34;
  const base = { x: tip.x - ux * head, y: tip.y - uy * head };
  pts[pts.length - 1] = base;
  const line = pts.map((p) => `${num(p.x)},${num(p.y)}`).join(' ');
  const wing = (side: number) => [base.x - uy * head * 0.55 * side, base.y + ux * head * 0.55 * side] as const;
  const dash = fled ? ' stroke-dasharray="4 3"' : '';
  return (
    `<polyline points="${line}" fill="none" stroke="#fff" stroke-width="5" stroke-linejoin="round" stroke-linecap="round" opacity=".85"/>` +
    `<polyline points="${line}" fill="none" stroke="${colour}" stroke-width="2.6" stroke-linejoin="round"${dash}/>` +
    `<polygon points="${points([[tip.x, tip.y], wing(1), wing(-1)])}" fill="${colour}" stroke="#fff" stroke-width="1"/>`
  );
}
