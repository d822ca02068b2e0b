import { ASCENT, DESCENT, textWidth } from './text-metrics.js';

/**
 * Where the map's words go so that none covers another (issue 34): every mark
 * tied to a hex (a settlement's square, unit badges, the icons of resources,
 * structures and this turn's marks) is put down first; each settlement's name
 * then takes the first of a few places around its square that is clear of all
 * of them, of the names before it and of the map's edge; a hex's coordinates
 * are printed only where nothing else is. Deterministic: the same map, the
 * same places. Boxes are in the map's own pixels, as drawn (no stroke).
 */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export const boxAround = (x: number, y: number, halfWidth: number, halfHeight: number): Box => ({ x0: x - halfWidth, y0: y - halfHeight, x1: x + halfWidth, y1: y + halfHeight });

/** The box of a line of text whose baseline is at `y`, anchored at `x` (its middle, start or end). */
export function textBox(text: string, size: number, bold: boolean, x: number, y: number, anchor: 'middle' | 'start' | 'end'): Box {
  const w = textWidth(text, size, bold);
  const x0 = anchor === 'middle' ? x - w / 2 : anchor === 'start' ? x : x - w;
  return { x0, y0: y - ASCENT * size, x1: x0 + w, y1: y + DESCENT * size };
}

function overlap(a: Box, b: Box): number {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * The boxes taken so far, in square buckets so that a test looks only at its neighbours: a map of a
 * thousand hexes asks for a thousand coordinates' room. A bucket holds its boxes' places in `boxes`;
 * a box in several buckets is counted once per question by the question's number in `askedBy`.
 */
export class LabelSpace {
  private readonly buckets = new Map<number, number[]>();
  private readonly boxes: Box[] = [];
  private readonly askedBy: number[] = [];
  private asked = 0;

  constructor(private readonly cell: number) {}

  take(b: Box): void {
    const id = this.boxes.push(b) - 1;
    this.askedBy.push(0);
    const cell = this.cell;
    for (let i = Math.floor(b.x0 / cell); i <= Math.floor(b.x1 / cell); i++) {
      for (let j = Math.floor(b.y0 / cell); j <= Math.floor(b.y1 / cell); j++) {
        const k = i * 65536 + j;
        const list = this.buckets.get(k);
        if (list) list.push(id);
        else this.buckets.set(k, [id]);
      }
    }
  }

  /** How much of `b` (grown by `margin`) lies over boxes already taken: 0 when it is clear. */
  covered(b: Box, margin = 0): number {
    if (!this.buckets.size) return 0;
    const g: Box = { x0: b.x0 - margin, y0: b.y0 - margin, x1: b.x1 + margin, y1: b.y1 + margin };
    const question = ++this.asked;
    const cell = this.cell;
    let sum = 0;
    for (let i = Math.floor(g.x0 / cell); i <= Math.floor(g.x1 / cell); i++) {
      for (let j = Math.floor(g.y0 / cell); j <= Math.floor(g.y1 / cell); j++) {
        const list = this.buckets.get(i * 65536 + j);
        if (!list) continue;
        for (const id of list) {
          if (this.askedBy[id] === question) continue;
          this.askedBy[id] = question;
          sum += overlap(g, this.boxes[id]!);
        }
      }
    }
    return sum;
  }

  /** Whether `b` (grown by `margin`) is clear of every box taken: covered() === 0, answered at the first overlap. */
  clear(b: Box, margin = 0): boolean {
    if (!this.buckets.size) return true;
    const x0 = b.x0 - margin;
    const y0 = b.y0 - margin;
    const x1 = b.x1 + margin;
    const y1 = b.y1 + margin;
    const cell = this.cell;
    for (let i = Math.floor(x0 / cell); i <= Math.floor(x1 / cell); i++) {
      for (let j = Math.floor(y0 / cell); j <= Math.floor(y1 / cell); j++) {
        const list = this.buckets.get(i * 65536 + j);
        if (!list) continue;
        for (const id of list) {
          const o = this.boxes[id]!;
          if (Math.min(x1, o.x1) - Math.max(x0, o.x0) > 0 && Math.min(y1, o.y1) - Math.max(y0, o.y0) > 0) return false;
        }
      }
    }
    return true;
  }
}

/** Room kept around a name (its white halo) and around a coordinate, in pixels. */
export const NAME_MARGIN = 1.5;
export const COORD_MARGIN = 1;

export interface PlacedText {
  x: number;
  y: number;
  anchor: 'middle' | 'start' | 'end';
  box: Box;
}

/**
 * A settlement's name around its square (centre `x`, `y`, half side `half`, `R` the hex radius): below it,
 * above, right, left, then below and above shifted half a hex either way, then a whole hex; the first that is clear of
 * everything taken and inside `area`, else the one least covered. The name's box is taken.
 */
export function placeName(space: LabelSpace, name: string, size: number, x: number, y: number, half: number, R: number, area: Box): PlacedText {
  const gap = 2;
  const below = y + half + gap + ASCENT * size;
  const above = y - half - gap - DESCENT * size;
  const middle = y + ((ASCENT - DESCENT) / 2) * size;
  const shift = R * 0.5;
  const candidates: [number, number, PlacedText['anchor']][] = [
    [x, below, 'middle'],
    [x, above, 'middle'],
    [x + half + gap + 1, middle, 'start'],
    [x - half - gap - 1, middle, 'end'],
    [x - shift, below, 'middle'],
    [x + shift, below, 'middle'],
    [x - shift, above, 'middle'],
    [x + shift, above, 'middle'],
    [x - 2 * shift, below, 'middle'],
    [x + 2 * shift, below, 'middle'],
    [x - 2 * shift, above, 'middle'],
    [x + 2 * shift, above, 'middle'],
  ];
  let best: PlacedText | undefined;
  let bestCost = Infinity;
  for (const [cx, cy, anchor] of candidates) {
    const box = textBox(name, size, true, cx, cy, anchor);
    const outside = box.x0 < area.x0 || box.y0 < area.y0 || box.x1 > area.x1 || box.y1 > area.y1;
    const cost = space.covered(box, NAME_MARGIN) + (outside ? 1e6 : 0);
    if (cost < bestCost) {
      best = { x: cx, y: cy, anchor, box };
      bestCost = cost;
      if (cost === 0) break;
    }
  }
  space.take(best!.box);
  return best!;
}
