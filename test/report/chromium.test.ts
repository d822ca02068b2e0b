import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countColour, decodePng } from './png.js';
import { FIXTURE, play, type Played } from './support.js';

/**
 * The HTML reports in a real browser: Debian's chromium, headless, no
 * network, a fresh profile each run. Skipped (and says so) only when no
 * chromium is installed: `apt-get install -y chromium`.
 */
const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const browser = [process.env.CHROMIUM, ...CANDIDATES.flatMap((name) => (process.env.PATH ?? '').split(delimiter).map((d) => join(d, name)))].find((p): p is string => !!p && existsSync(p));
const title = browser ? `the HTML report in headless Chromium (${browser})` : 'the HTML report in headless Chromium — SKIPPED: chromium is not installed (apt-get install -y chromium)';
if (!browser) console.warn(`[report tests] ${title}`);

const SEA: [number, number, number] = [0x6f, 0x9f, 0xd8];
const ARGENTA_RED: [number, number, number] = [0xc0, 0x39, 0x2b];
/** Sea out of sight: the map's fill-opacity .35 over the white .map box. */
const FOGGED_SEA = SEA.map((c) => Math.round(0.35 * c + 0.65 * 255)) as [number, number, number];
/** Pixels within 2 of a colour in each channel, as blending may round either way. */
const countNear = (img: ReturnType<typeof decodePng>, [r, g, b]: [number, number, number]) => {
  let n = 0;
  for (let i = 0; i < img.rgba.length; i += 4) if (Math.abs(img.rgba[i]! - r) <= 2 && Math.abs(img.rgba[i + 1]! - g) <= 2 && Math.abs(img.rgba[i + 2]! - b) <= 2) n++;
  return n;
};

describe.skipIf(!browser)(title, () => {
  let played: Played;
  const profiles = mkdtempSync(join(tmpdir(), 'fatecraft-chromium-'));
  let runs = 0;
  beforeAll(async () => {
    played = await play(FIXTURE, 1, 'chromium');
  });
  afterAll(() => {
    played?.cleanup();
    rmSync(profiles, { recursive: true, force: true });
  });

  const chromium = (args: string[]) => {
    const profile = join(profiles, `profile-${++runs}`);
    const result = spawnSync(
      browser!,
      ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-extensions', `--user-data-dir=${profile}`, ...args],
      { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
    );
    if (result.error) throw result.error;
    return result;
  };
  const reportPath = (name: string) => join(played.dir, 'turns', '0001', 'reports', name);

  for (const name of ['argenta.html', 'borea.html', 'gm.html']) {
    it(`${name}: the DOM has the map with its hexes, no template holes and no script from player text`, () => {
      const dom = chromium(['--dump-dom', `file://${reportPath(name)}`]).stdout;
      expect(dom).toMatch(/^<!DOCTYPE html>\s*<html/);
      const svg = dom.match(/<svg[^>]*class="fatecraft-map"[\s\S]*?<\/svg>/)?.[0] ?? '';
      expect(svg.length).toBeGreaterThan(1000);
      // Hexes are <use>s of one shape per terrain in the map's <defs>.
      expect(svg.match(/<use href="#/g)?.length).toBe(12 * 9);
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
    }, 90_000);
  }

  it('argenta.html: the map is drawn on screen (sea hexes, dimmed where out of sight, and Argenta\'s red in the screenshot)', () => {
    const shot = join(profiles, 'argenta.png');
    chromium(['--hide-scrollbars', '--window-size=1000,7000', `--screenshot=${shot}`, `file://${reportPath('argenta.html')}`]);
    const img = decodePng(readFileSync(shot));
    expect(img.width).toBe(1000);
    expect(countColour(img, SEA)).toBeGreaterThan(2000);
    expect(countColour(img, ARGENTA_RED)).toBeGreaterThan(50);
    // The fog class sits on the <use>, not the shape it draws: this proves the dimming still reaches the hex.
    expect(countNear(img, FOGGED_SEA)).toBeGreaterThan(2000);
  }, 90_000);
});
