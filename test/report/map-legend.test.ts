import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, FIXTURE, play, scratchCopy, type Played } from './support.js';

/**
 * Issue 34: every mark on the map is in its legend, and the legend explains
 * nothing the map does not draw (the trade route ran off the map, and was not
 * in the legend). Each legend entry names what it explains (data-key, see
 * svg-legend.ts); the marks are read from the map's own groups, above the
 * overview and the legend, in every HTML report of the demo's first two turns
 * (Argenta opening a trade route, as in trade-routes.test.ts) and of the
 * fixture campaign's.
 */
let demo: Played;
let fixture: Played;
let copy: { dir: string; cleanup: () => void };
beforeAll(async () => {
  copy = scratchCopy(DEMO, 'map-legend-src');
  const orders = join(copy.dir, 'orders', '0001', 'argenta.yaml');
  writeFileSync(orders, readFileSync(orders, 'utf8').replace(/  - act: Whisperer Lisane\n    action: informants\n    target: Cinderford\n/, '  - Whisperer Lisane opens trade between Saltmarsh and Argentum\n'));
  demo = await play(copy.dir, 2, 'map-legend-demo');
  fixture = await play(FIXTURE, 2, 'map-legend-fixture');
}, 240_000);
afterAll(() => {
  demo?.cleanup();
  fixture?.cleanup();
  copy?.cleanup();
});

/** What the map draws, as the legend's keys name it. */
export function marksDrawn(svg: string): Set<string> {
  const end = Math.min(...['<g class="overview"', '<g class="legend"'].map((g) => svg.indexOf(g)).filter((i) => i >= 0));
  const map = svg.slice(0, end);
  const keys = new Set<string>();
  for (const m of map.matchAll(/<g class="(?:unit|settlement|structure) n-([a-z0-9_-]+)/g)) keys.add(`nation:${m[1]}`);
  for (const m of map.matchAll(/<g class="settlement n-[a-z0-9_-]+ l-([a-z0-9_-]+)"/g)) keys.add(`settlement:${m[1]}`);
  for (const m of map.matchAll(/class="hex t-([a-z0-9_-]+)"/g)) keys.add(`terrain:${m[1]}`);
  if (map.includes('<g class="fog">')) keys.add('fog');
  if (/<g class="resource r-/.test(map)) keys.add('resource');
  if (/<g class="structure n-/.test(map)) keys.add('structure');
  if (/<g class="trade-routes"[^>]*>\n<line/.test(map)) keys.add('route');
  for (const group of map.matchAll(/<g class="moves"[^>]*>(.*?)<\/g>/g)) {
    for (const line of group[1]!.matchAll(/<path class="line" [^>]*?\/>/g)) keys.add(line[0].includes('stroke-dasharray') ? 'fled' : 'move');
  }
  for (const m of map.matchAll(/<g class="mark ([a-z]+)">/g)) keys.add(`mark:${m[1]}`);
  return keys;
}

const legendKeys = (svg: string) => new Set([...svg.slice(svg.indexOf('<g class="legend"')).matchAll(/data-key="([^"]+)"/g)].map((m) => m[1]!));

describe('the map legend', () => {
  it('lists every mark the map draws, and nothing it does not', () => {
    const mismatches: string[] = [];
    let maps = 0;
    const seen = new Set<string>();
    for (const played of [demo, fixture]) {
      for (const turn of played.turns) {
        for (const [name, html] of Object.entries(turn.reports).filter(([n]) => n.endsWith('.html'))) {
          const svg = /<svg[^>]*class="fatecraft-map"[\s\S]*?<\/svg>/.exec(html)?.[0];
          if (!svg) continue;
          maps += 1;
          const drawn = marksDrawn(svg);
          const listed = legendKeys(svg);
          for (const k of drawn) seen.add(k);
          for (const k of drawn) if (!listed.has(k)) mismatches.push(`turn ${turn.turn} ${name}: ${k} drawn, not in the legend`);
          for (const k of listed) if (!drawn.has(k)) mismatches.push(`turn ${turn.turn} ${name}: ${k} in the legend, not drawn`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(maps).toBeGreaterThan(10);
    // The comparison covers every kind of mark, the trade route among them.
    for (const kind of ['fog', 'resource', 'route', 'move', 'mark:battle', 'settlement:capital', 'terrain:sea']) expect([...seen], kind).toContain(kind);
  });

  it('is found wanting when a mark is missing from it (the check can fail)', () => {
    const svg = '<svg class="fatecraft-map"><g class="trade-routes" clip-path="x">\n<line x1="1"/></g><g class="legend"><g data-key="fog"></g></g></svg>';
    expect([...marksDrawn(svg)]).toEqual(['route']);
    expect([...legendKeys(svg)]).toEqual(['fog']);
  });
});
