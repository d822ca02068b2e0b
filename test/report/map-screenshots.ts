import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ROOT } from './support.js';

/**
 * Issue 34, the map at page size: a nation's HTML report in headless Chromium
 * at a mail reader's width (700 px) and a desktop's (1,280 px), measured in the
 * page (how much of the width the map takes, the smallest text on it) and
 * photographed. The PNGs are kept under out/test-artifacts/map/ for a person
 * to look at. As in chromium.test.ts: Debian's chromium, headless, no network,
 * a fresh profile each run; undefined when no chromium is installed.
 */
const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
export const chromiumPath = [process.env.CHROMIUM, ...CANDIDATES.flatMap((name) => (process.env.PATH ?? '').split(delimiter).map((d) => join(d, name)))].find((p): p is string => !!p && existsSync(p));

export const MAP_ARTIFACTS = join(ROOT, 'out', 'test-artifacts', 'map');

export interface MapOnPage {
  /** The map's width on the page, and the width the page gives its content (the body's). */
  mapWidth: number;
  contentWidth: number;
  /** The smallest text on the map, in CSS pixels as drawn. */
  smallestText: number;
  /** The page is no wider than the window (nothing sticks out sideways). */
  pageWidth: number;
  mapBottom: number;
  /**
   * Pairs of labels on the map whose boxes overlap, as Chromium lays them out: hex coordinates, settlement
   * names and squares, unit badges, and the icons of resources, structures and this turn's marks. Empty
   * when every label stands clear of every other.
   */
  overlaps: string[];
}

const MEASURE = `<script>
(() => {
  const svg = document.querySelector('#map svg.fatecraft-map');
  const box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  const sizes = [...svg.querySelectorAll('text')].filter((t) => !t.closest('.overview')).map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
  // Every label's box, in the map's own units (the page's box divided by the map's scale).
  const origin = box;
  const boxOf = (el) => {
    const r = el.getBoundingClientRect();
    return { x0: (r.left - origin.left) / scale, y0: (r.top - origin.top) / scale, x1: (r.right - origin.left) / scale, y1: (r.bottom - origin.top) / scale };
  };
  const labels = [];
  const add = (el, kind, text) => labels.push({ kind, text, ...boxOf(el) });
  for (const t of svg.querySelectorAll('.coord text')) add(t, 'coordinate', t.textContent);
  for (const g of svg.querySelectorAll('g.settlement')) {
    const name = g.querySelector('text.site-name');
    add(g.querySelector('use'), 'square', (name && name.textContent) + ' at ' + g.dataset.hex);
    if (name) add(name, 'name', name.textContent + ' at ' + g.dataset.hex);
  }
  for (const g of svg.querySelectorAll('g.unit')) add(g, 'badge', g.querySelector('text').textContent + ' at ' + g.dataset.hex);
  for (const g of svg.querySelectorAll('g.structure, g.resource, g.mark')) add(g.querySelector('use'), 'icon', g.querySelector('title').textContent);
  const overlaps = [];
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++) {
      const a = labels[i], b = labels[j];
      const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
      const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
      if (w > 0.05 && h > 0.05) overlaps.push(a.kind + ' [' + a.text + '] and ' + b.kind + ' [' + b.text + '] overlap ' + w.toFixed(1) + ' by ' + h.toFixed(1));
    }
  }
  const body = getComputedStyle(document.body);
  const out = {
    mapWidth: box.width,
    contentWidth: document.body.clientWidth - parseFloat(body.paddingLeft) - parseFloat(body.paddingRight),
    smallestText: Math.min(...sizes),
    pageWidth: document.documentElement.scrollWidth,
    mapBottom: box.bottom + scrollY,
    overlaps,
  };
  const pre = document.createElement('pre');
  pre.id = 'measured';
  pre.textContent = JSON.stringify(out);
  document.body.append(pre);
})();
</script>`;

function chromium(profile: string, args: string[]) {
  const result = spawnSync(
    chromiumPath!,
    ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-extensions', `--user-data-dir=${profile}`, ...args],
    { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.error) throw result.error;
  return result;
}

/** Measures the report's map at `width` px and keeps a screenshot of the report's top down to the map's foot as `name`.png. */
export function mapOnPage(html: string, width: number, name: string): MapOnPage {
  const work = mkdtempSync(join(tmpdir(), 'fatecraft-map-shot-'));
  try {
    const page = join(work, 'report.html');
    const measuring = join(work, 'measuring.html');
    writeFileSync(page, html);
    // The copy that measures: scripts allowed (the report's own policy forbids them).
    writeFileSync(measuring, html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '').replace('</body>', `${MEASURE}</body>`));
    const dom = chromium(join(work, 'p1'), [`--window-size=${width},1200`, '--dump-dom', `file://${measuring}`]).stdout;
    const json = /<pre id="measured">([^<]*)<\/pre>/.exec(dom)?.[1];
    if (!json) throw new Error(`the measuring script did not run in Chromium for ${name}`);
    const m = JSON.parse(json.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')) as MapOnPage;
    mkdirSync(MAP_ARTIFACTS, { recursive: true });
    chromium(join(work, 'p2'), ['--hide-scrollbars', `--window-size=${width},${Math.ceil(m.mapBottom) + 20}`, `--screenshot=${join(MAP_ARTIFACTS, `${name}.png`)}`, `file://${page}`]);
    return m;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
