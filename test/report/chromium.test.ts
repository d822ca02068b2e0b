import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_OFF, CHROMIUM, withBrowser } from '../support/chromium.js';
import { FOG_OPACITY } from '../../src/report/svg-symbols.js';
import { countColour, cropImage, decodePng, encodePng } from './png.js';
import { DEMO, FIXTURE, ROOT, play, type Played, playBeforeAll } from './support.js';

/**
 * The HTML reports in a real browser: Debian's chromium, headless, no
 * network, a fresh profile for each file (test/support/chromium.ts). Skipped
 * (and says so) only when no chromium is installed: `apt-get install -y chromium`.
 */
const title = CHROMIUM
  ? `the HTML report in headless Chromium (${CHROMIUM})`
  : `the HTML report in headless Chromium — SKIPPED: ${BROWSER_OFF ? 'FATECRAFT_TEST_BROWSER=off (npm run test:quick; npm test runs it)' : 'chromium is not installed (apt-get install -y chromium)'}`;
if (!CHROMIUM) console.warn(`[report tests] ${title}`);

const SEA: [number, number, number] = [0x4e, 0x80, 0xc8];
const ARGENTA_RED: [number, number, number] = [0xd5, 0x5e, 0x00];
/** Sea out of sight: the map's fill-opacity (FOG_OPACITY, .5) over the white .map box. */
const FOGGED_SEA = SEA.map((c) => Math.round(FOG_OPACITY * c + (1 - FOG_OPACITY) * 255)) as [number, number, number];
/** Pixels within 2 of a colour in each channel, as blending may round either way. */
const countNear = (img: ReturnType<typeof decodePng>, [r, g, b]: [number, number, number]) => {
  let n = 0;
  for (let i = 0; i < img.rgba.length; i += 4) if (Math.abs(img.rgba[i]! - r) <= 2 && Math.abs(img.rgba[i + 1]! - g) <= 2 && Math.abs(img.rgba[i + 2]! - b) <= 2) n++;
  return n;
};

describe.skipIf(!CHROMIUM)(title, () => {
  let played: Played;
  const browser = withBrowser();
  playBeforeAll(FIXTURE, 1, 'chromium', (p) => (played = p));

  const reportPath = (name: string) => join(played.dir, 'turns', '0001', 'reports', name);

  for (const name of ['argenta.html', 'borea.html', 'gm.html']) {
    it(`${name}: the DOM has the map with its hexes, no template holes and no script from player text`, async () => {
      const dom = await browser().dumpDom(`file://${reportPath(name)}`);
      expect(dom).toMatch(/^<!DOCTYPE html>\s*<html/);
      const svg = dom.match(/<svg[^>]*class="fatecraft-map"[\s\S]*?<\/svg>/)?.[0] ?? '';
      expect(svg.length).toBeGreaterThan(1000);
      // Hexes are <use>s of one shape per terrain in the map's <defs>.
      expect(/<g class="hexes">([\s\S]*?)<\/g>/.exec(svg)?.[1]?.match(/<use href="#/g)?.length).toBe(12 * 9);
      expect(svg).toMatch(/<defs><polygon id="[^"]+" class="hex t-/);
      expect(svg).toMatch(/<g class="settlement /);
      expect(svg).toMatch(/<g class="unit /);
      expect(dom).not.toContain('{{');
      expect(dom).not.toMatch(/<script/i);
      expect(dom).not.toMatch(/\son[a-z]+="/i);
      if (name === 'argenta.html') {
        expect(dom).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
        expect(dom).toContain('&lt;i&gt;Nova&lt;/i&gt; &amp; Co');
      }
      if (name === 'gm.html') expect(dom).toContain('Please &lt;b&gt;confirm&lt;/b&gt;');
    });
  }

  it('argenta.html: the map is drawn on screen (sea hexes, dimmed where out of sight, and Argenta\'s colour in the screenshot)', async () => {
    const img = decodePng(await browser().screenshot(`file://${reportPath('argenta.html')}`, { width: 1000, height: 7000 }));
    expect(img.width).toBe(1000);
    expect(countColour(img, SEA)).toBeGreaterThan(2000);
    expect(countColour(img, ARGENTA_RED)).toBeGreaterThan(50);
    // The fog class sits on the <use>, not the shape it draws: this proves the dimming still reaches the hex.
    expect(countNear(img, FOGGED_SEA)).toBeGreaterThan(2000);
  });
});

/**
 * The demo's nation report as a player reads it: in a mail reader's pane
 * (700 pixels wide) and printed on A4 (718 CSS pixels between Chrome's
 * default margins; the page's print styles applied). What can be measured is
 * measured in the page itself, by a copy of the report with a small script
 * added (the report's own policy forbids scripts); the screenshots of the
 * real report's top are saved under out/screenshots/ for a person to look at.
 */
const SHOTS = join(ROOT, 'out', 'screenshots');
const WIDTHS = [
  { name: 'mail', width: 700, print: false },
  { name: 'print-a4', width: 718, print: true },
] as const;

interface Measured {
  scale: number;
  svgWidth: number;
  coordSizes: number[];
  textSizes: number[];
  legend: boolean;
  overview: boolean;
  glanceTop: number;
  mapTop: number;
  mapBottom: number;
  pageWidth: number;
}

const MEASURE = `<script>
(() => {
  const svg = document.querySelector('#map svg.fatecraft-map');
  const box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  const px = (t) => parseFloat(getComputedStyle(t).fontSize) * scale;
  const out = {
    scale,
    svgWidth: box.width,
    coordSizes: [...svg.querySelectorAll('.coord text')].map(px),
    textSizes: [...svg.querySelectorAll('text')].map(px),
    legend: !!svg.querySelector('.legend'),
    overview: !!svg.querySelector('.overview'),
    glanceTop: document.querySelector('#glance').getBoundingClientRect().top + scrollY,
    mapTop: box.top + scrollY,
    mapBottom: box.bottom + scrollY,
    pageWidth: document.documentElement.scrollWidth,
  };
  const pre = document.createElement('pre');
  pre.id = 'measured';
  pre.textContent = JSON.stringify(out);
  document.body.append(pre);
})();
</script>`;

describe.skipIf(!CHROMIUM || !existsSync(DEMO))('the demo\'s nation report at a mail reader\'s and a printed page\'s width, in headless Chromium', () => {
  let played: Played;
  const browser = withBrowser();
  const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-chromium-demo-'));
  beforeAll(async () => {
    played = await play(DEMO, 1, 'chromium-demo');
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(() => {
    played?.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });
  const report = (nation: string) => join(played.dir, 'turns', '0001', 'reports', `${nation}.html`);

  for (const nation of ['argenta', 'vulcanstille']) {
    for (const { name, width, print } of WIDTHS) {
      it(`${nation}.html at ${width} px (${name}): coordinates of 9 px and more, the legend and the overview, the glance block above the map`, async () => {
        // The copy that measures: scripts allowed, and for print the print styles applied on screen.
        let html = readFileSync(report(nation), 'utf8').replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
        if (print) html = html.replace('@media print', '@media all');
        const measuring = join(scratch, `${nation}-${name}.html`);
        writeFileSync(measuring, html.replace('</body>', `${MEASURE}</body>`));
        const dom = await browser().dumpDom(`file://${measuring}`, { width, height: 1200 });
        const json = /<pre id="measured">([^<]*)<\/pre>/.exec(dom)?.[1];
        expect(json, 'the measuring script ran').toBeDefined();
        const m = JSON.parse(json!.replace(/&quot;/g, '"')) as Measured;
        expect(m.coordSizes.length).toBeGreaterThan(100);
        expect(Math.min(...m.coordSizes)).toBeGreaterThanOrEqual(9);
        expect(Math.min(...m.textSizes)).toBeGreaterThanOrEqual(9);
        expect(m.legend).toBe(true);
        expect(m.overview).toBe(true);
        expect(m.glanceTop).toBeLessThan(m.mapTop);
        // Near the top: the map starts within the first screenful.
        expect(m.mapTop).toBeLessThan(700);
        // Nothing sticks out sideways.
        expect(m.pageWidth).toBeLessThanOrEqual(width);

        // The real report (its own policy, no script), the top down to the map's foot, for a person to look at.
        const source = print ? measuring.replace(/\.html$/, '-print.html') : report(nation);
        if (print) writeFileSync(source, html);
        const img = decodePng(await browser().screenshot(`file://${source}`, { width, height: Math.ceil(m.mapBottom) + 40 }));
        expect(img.width).toBe(width);
        writeFileSync(join(SHOTS, `${nation}-${name}.png`), encodePng(cropImage(img, 0, 0, width, Math.ceil(m.mapBottom) + 20)));
      });
    }
  }
});
