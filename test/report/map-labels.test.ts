import { describe, expect, it } from 'vitest';
import type { MapModel } from '../../src/report/map-model.js';
import { textBox, type Box } from '../../src/report/map-labels.js';
import { renderSvgMap } from '../../src/report/svg-map.js';
import { ICON_HALF, PILL_HEIGHT, squareHalf, TEXT_SIZE } from '../../src/report/svg-symbols.js';

/**
 * Issue 34: no label on the map covers another. A crowded made-up map — the
 * twenty-turn run's Mirefield case (a settlement whose name hung over the
 * unit badge of the hex beside it), settlements one above the other, a hex
 * with a structure, a resource and this turn's marks under units of two
 * nations, a settlement at the map's foot and at its edge — drawn to SVG, and
 * every label's box computed back from what was drawn: coordinates, names,
 * squares, badges and icons. (In Chromium, test/report/demo-twenty-turns.test.ts
 * measures the same on the twenty-turn run's maps as the browser lays them out.)
 */
const R = 22;

function crowded(): MapModel {
  const cols = 12;
  const rows = 9;
  return {
    title: 'A crowded map',
    grid: { width: cols, height: rows, window: { col: 0, row: 0, cols, rows }, legend: { '.': 'plains' }, rows: Array.from({ length: rows }, () => '.'.repeat(cols)) },
    seen: null,
    reader: 'argenta',
    nations: [
      { id: 'argenta', name: 'Duchy of Argenta', letter: 'A', colour: '#d35400' },
      { id: 'gondarahl', name: 'Kingdom of Gondarahl', letter: 'G', colour: '#1f6fb2' },
    ],
    settlements: [
      // Mirefield: the badge of the next hex, down to the right, stood where its name hung.
      { hex: '3,3', name: 'Mirefield', nation: 'argenta', level: 'village' },
      // Two towns one above the other, and a capital up beside them.
      { hex: '6,2', name: 'Upper Westmarch', nation: 'argenta', level: 'town' },
      { hex: '6,3', name: 'Lower Westmarch', nation: 'gondarahl', level: 'town' },
      { hex: '8,2', name: 'Argentum', nation: 'argenta', level: 'capital' },
      // At the map's foot and at its left edge.
      { hex: '9,8', name: 'Saltmarsh', nation: 'argenta', level: 'village' },
      { hex: '0,5', name: 'Far Edgeholm', nation: 'gondarahl', level: 'city' },
    ],
    units: [
      { hex: '4,4', label: 'Riders', nation: 'argenta' },
      { hex: '8,2', label: 'Guard', nation: 'argenta' },
      { hex: '8,2', label: 'Spies', nation: 'gondarahl' },
      { hex: '9,5', label: 'Miners', nation: 'argenta' },
      { hex: '9,5', label: 'Axes', nation: 'gondarahl' },
      { hex: '9,5', label: 'Axes 2', nation: 'gondarahl' },
      { hex: '1,5', label: 'Scouts', nation: 'argenta' },
    ],
    resources: [
      { hex: '9,5', kind: 'silver', name: 'Silver Vein' },
      { hex: '8,2', kind: 'iron', name: 'Iron Hill' },
    ],
    structures: [{ hex: '9,5', name: 'Silver Mine', nation: 'argenta' }],
    changes: {
      moves: [],
      marks: [
        { kind: 'battle', hex: '9,5', text: 'A battle' },
        { kind: 'lost', hex: '9,5', text: 'A unit lost' },
        { kind: 'siege', hex: '6,3', text: 'A siege' },
      ],
    },
    own: null,
  };
}

interface Label extends Box {
  what: string;
}

const attr = (tag: string, name: string) => new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(tag)?.[1];
const numAttr = (tag: string, name: string) => Number(attr(tag, name) ?? 0);

/** Every label's box, from the drawn SVG alone. */
function labelsOf(svg: string): Label[] {
  const out: Label[] = [];
  const coordGroup = /<g class="coord"[^>]*>([\s\S]*?)<\/g>/.exec(svg)?.[1] ?? '';
  for (const m of coordGroup.matchAll(/<text ([^>]*)>([^<]*)<\/text>/g)) {
    out.push({ what: `coordinate ${m[2]}`, ...textBox(m[2]!, TEXT_SIZE.coord, false, numAttr(m[1]!, 'x'), numAttr(m[1]!, 'y'), 'middle') });
  }
  for (const m of svg.matchAll(/<g class="settlement [^"]*l-([a-z-]+)" data-hex="([^"]*)">[\s\S]*?(<use [^>]*>)[\s\S]*?<text class="site-name" ([^>]*)>([^<]*)<\/text>/g)) {
    const [, level, hex, use, text, name] = m;
    const half = R * squareHalf(level!);
    const x = numAttr(use!, 'x');
    const y = numAttr(use!, 'y');
    out.push({ what: `square of ${name}`, x0: x - half, y0: y - half, x1: x + half, y1: y + half });
    out.push({ what: `name ${name} (${hex})`, ...textBox(name!, TEXT_SIZE.name, true, numAttr(text!, 'x'), numAttr(text!, 'y'), attr(text!, 'text-anchor') as 'middle' | 'start' | 'end') });
  }
  for (const m of svg.matchAll(/<g class="unit [^"]*" data-hex="([^"]*)">[\s\S]*?<use href="#[^"]*-p(\d+)" ([^>]*)>[\s\S]*?<text class="count"[^>]*>([^<]*)</g)) {
    const [, hex, width, use, label] = m;
    const x = numAttr(use!, 'x');
    const y = numAttr(use!, 'y');
    out.push({ what: `badge ${label} at ${hex}`, x0: x - Number(width) / 2, y0: y - PILL_HEIGHT / 2, x1: x + Number(width) / 2, y1: y + PILL_HEIGHT / 2 });
  }
  for (const m of svg.matchAll(/<g class="(structure|resource|mark) [^"]*"><title>([^<]*)<\/title><use ([^>]*)>/g)) {
    const x = numAttr(m[3]!, 'x');
    const y = numAttr(m[3]!, 'y');
    out.push({ what: `icon ${m[2]}`, x0: x - R * ICON_HALF, y0: y - R * ICON_HALF, x1: x + R * ICON_HALF, y1: y + R * ICON_HALF });
  }
  return out;
}

function overlaps(labels: readonly Label[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++) {
      const a = labels[i]!;
      const b = labels[j]!;
      const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
      const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
      if (w > 0.05 && h > 0.05) out.push(`${a.what} and ${b.what}`);
    }
  }
  return out;
}

describe('the labels of a crowded map', () => {
  const svg = renderSvgMap(crowded());
  const labels = labelsOf(svg);

  it('finds every label it is to check', () => {
    const kinds = (k: string) => labels.filter((l) => l.what.startsWith(k)).length;
    expect(kinds('name ')).toBe(6);
    expect(kinds('square ')).toBe(6);
    expect(kinds('badge ')).toBe(6);
    expect(kinds('icon ')).toBe(5);
    expect(kinds('coordinate ')).toBeGreaterThan(60);
  });

  it('puts no label over another: names around their squares where it is free, coordinates only where nothing else is', () => {
    expect(overlaps(labels)).toEqual([]);
  });

  it('keeps every name inside the map', () => {
    const width = 2 * R + 1.5 * R * 11;
    const height = Math.sqrt(3) * R * 9.5;
    for (const l of labels.filter((x) => x.what.startsWith('name '))) {
      expect(l.x0, l.what).toBeGreaterThanOrEqual(0);
      expect(l.y0, l.what).toBeGreaterThanOrEqual(0);
      expect(l.x1, l.what).toBeLessThanOrEqual(width);
      expect(l.y1, l.what).toBeLessThanOrEqual(height);
    }
  });

  it('still prints the coordinates of hexes with nothing in them, and is the same map when drawn again', () => {
    expect(svg).toContain('>10,1</text>');
    expect(renderSvgMap(crowded())).toBe(svg);
  });

  it('finds an overlap when there is one (the check can fail)', () => {
    const moved = svg.replace(/(<text class="site-name" x=")[^"]*(" y=")[^"]*(" text-anchor=")[^"]*(" fill="[^"]*">Mirefield)/, (_, a: string, b: string, c: string, d: string) => `${a}${3 * 1.5 * R + R}${b}${Math.sqrt(3) * R * 3.5 + Math.sqrt(3) * R * 0.5 + R * 0.95}${c}middle${d}`);
    expect(moved).not.toBe(svg);
    expect(overlaps(labelsOf(moved)).some((o) => o.includes('Mirefield'))).toBe(true);
  });
});
