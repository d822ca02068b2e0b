import { asHexKey, type HexKey } from './ids.js';

/**
 * Hex geometry for "odd-q" offset maps: flat-topped hexes in columns, odd
 * columns pushed down half a hex. Players and GMs see offset "col,row"
 * coordinates; distances and neighbours are computed in cube coordinates.
 */
export interface Offset {
  col: number;
  row: number;
}

interface Cube {
  x: number;
  y: number;
  z: number;
}

const CUBE_DIRECTIONS: readonly Cube[] = [
  { x: 1, y: -1, z: 0 },
  { x: 1, y: 0, z: -1 },
  { x: 0, y: 1, z: -1 },
  { x: -1, y: 1, z: 0 },
  { x: -1, y: 0, z: 1 },
  { x: 0, y: -1, z: 1 },
];

export function hexKey(col: number, row: number): HexKey {
  return asHexKey(`${col},${row}`);
}

const HEX_PATTERN = /^\s*(-?\d+)\s*[,/ ]\s*(-?\d+)\s*$/;

/** Parses "12,7" (also "12/7" or "12 7"); undefined when it is not a coordinate. */
export function parseHex(text: string): Offset | undefined {
  const m = HEX_PATTERN.exec(text);
  if (!m) return undefined;
  return { col: Number(m[1]), row: Number(m[2]) };
}

export function offsetOf(key: HexKey): Offset {
  // Keys are made by hexKey ("12,7"): read by hand, as this runs millions of
  // times a turn and the pattern costs several times more. Anything else
  // goes through the pattern.
  const comma = key.indexOf(',');
  const col = integerIn(key, 0, comma);
  const row = integerIn(key, comma + 1, key.length);
  if (comma > 0 && col !== undefined && row !== undefined) return { col, row };
  const parsed = parseHex(key);
  if (!parsed) throw new Error(`not a hex key: ${key}`);
  return parsed;
}

/** The integer written in text[from, to) as an optional "-" and digits only; undefined otherwise. */
function integerIn(text: string, from: number, to: number): number | undefined {
  const negative = text.charCodeAt(from) === 45;
  let i = negative ? from + 1 : from;
  if (i >= to) return undefined;
  let n = 0;
  for (; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return undefined;
    n = n * 10 + d;
  }
  return negative ? -n : n;
}

function toCube({ col, row }: Offset): Cube {
  const x = col;
  const z = row - (col - (col & 1)) / 2;
  return { x, y: -x - z, z };
}

function toOffset({ x, z }: Cube): Offset {
  return { col: x, row: z + (x - (x & 1)) / 2 };
}

export function hexDistance(a: Offset, b: Offset): number {
  const ca = toCube(a);
  const cb = toCube(b);
  return Math.max(Math.abs(ca.x - cb.x), Math.abs(ca.y - cb.y), Math.abs(ca.z - cb.z));
}

export function neighbours(at: Offset): Offset[] {
  const c = toCube(at);
  return CUBE_DIRECTIONS.map((d) => toOffset({ x: c.x + d.x, y: c.y + d.y, z: c.z + d.z }));
}

/** Every hex within `radius` of `center` (center included), unclipped. */
export function hexesWithin(center: Offset, radius: number): Offset[] {
  const c = toCube(center);
  const out: Offset[] = [];
  for (let dx = -radius; dx <= radius; dx++) {
    const lo = Math.max(-radius, -dx - radius);
    const hi = Math.min(radius, -dx + radius);
    for (let dy = lo; dy <= hi; dy++) {
      const dz = -dx - dy;
      out.push(toOffset({ x: c.x + dx, y: c.y + dy, z: c.z + dz }));
    }
  }
  return out;
}

/**
 * The hexes on the straight line from a to b, both ends included: each step
 * rounds the point a share of the way along to the nearest hex (a tiny nudge
 * keeps a point on an edge on the same side every time, so lines are stable).
 */
export function hexLine(a: Offset, b: Offset): Offset[] {
  const n = hexDistance(a, b);
  const ca = toCube(a);
  const cb = toCube(b);
  const out: Offset[] = [];
  for (let i = 0; i <= n; i++) {
    const t = n === 0 ? 0 : i / n;
    const x = ca.x + (cb.x - ca.x) * t + 1e-6;
    const y = ca.y + (cb.y - ca.y) * t + 2e-6;
    const z = ca.z + (cb.z - ca.z) * t - 3e-6;
    let rx = Math.round(x);
    let ry = Math.round(y);
    let rz = Math.round(z);
    const dx = Math.abs(rx - x);
    const dy = Math.abs(ry - y);
    const dz = Math.abs(rz - z);
    if (dx > dy && dx > dz) rx = -ry - rz;
    else if (dy > dz) ry = -rx - rz;
    else rz = -rx - ry;
    out.push(toOffset({ x: rx, y: ry, z: rz }));
  }
  return out;
}
