import { deltaE2000, labAs, luminance, parseHex, toHex, type Lab, type Rgb, type Vision } from './colour-vision.js';

/**
 * Nation colours on the maps. The first eight are Okabe and Ito's palette
 * for colour-blind readers (Color Universal Design, 2008), ordered so that
 * the colours a map uses first are the ones most apart for every reader; the
 * reader's own nation takes the first. Beyond them the list goes on
 * deterministically: each next colour is the candidate farthest (in CIELAB,
 * seen with normal vision and as deuteranopes and protanopes see it) from
 * every colour already taken, and from the map's own light terrain. Colour
 * alone cannot keep dozens of nations apart, so every unit marker also carries
 * its nation's letter (map-model.ts).
 */
export const BASE_PALETTE = ['#d55e00', '#0072b2', '#009e73', '#cc79a7', '#000000', '#e69f00', '#56b4e9', '#f0e442'] as const;

/** The visions every choice must hold for: the common dichromacies (tritanopia is rare). */
export const CHECKED_VISIONS: readonly Vision[] = ['normal', 'deuteranopia', 'protanopia'];

/** How many colours are worked out; past them the list repeats (letters tell nations apart then). */
export const PALETTE_SIZE = 40;

/** What a nation colour must stand out from: the paper and the light terrains. */
const BACKGROUNDS = ['#ffffff', '#dfe8b0', '#ecd9a0', '#e4e8ea'];

function candidates(): Rgb[] {
  const out: Rgb[] = [];
  for (let h = 0; h < 360; h += 12)
    for (const s of [0.45, 0.7, 0.95])
      for (const l of [0.3, 0.42, 0.54, 0.66]) out.push(hslToRgb(h, s, l));
  return out;
}

function hslToRgb(h: number, s: number, l: number): Rgb {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] = h < 60 ? [c, x, 0] : h < 120 ? [x, c, 0] : h < 180 ? [0, c, x] : h < 240 ? [0, x, c] : h < 300 ? [x, 0, c] : [c, 0, x];
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}

/** Distance as the least distinct of the checked readers sees it. */
const views = (rgb: Rgb): Lab[] => CHECKED_VISIONS.map((v) => labAs(rgb, v));
const worstDistance = (a: Lab[], b: Lab[]) => Math.min(...a.map((lab, i) => deltaE2000(lab, b[i]!)));

/**
 * The list workOutPalette makes, written out: working it out cost every
 * report thread about 0.1 s of CPU at its start, a per cent of a 1,000-nation
 * turn with one unit each. test/report/palette.test.ts holds the two equal.
 */
const PALETTE: readonly string[] = [
  '#d55e00', '#0072b2', '#009e73', '#cc79a7', '#000000', '#e69f00', '#56b4e9', '#f0e442',
  '#950404', '#040495', '#6f2a46', '#2a6f6f', '#2a6f46', '#5705d1', '#6c84e5', '#d1057f',
  '#81cfb0', '#55be7f', '#81c0cf', '#6f2a2a', '#dc3858', '#be9455', '#d10505', '#6f2a61',
  '#049595', '#56dafb', '#9b3b61', '#043e95', '#5656fb', '#176d82', '#20b698', '#e5cd6c',
  '#178242', '#55a9be', '#d105a8', '#8191cf', '#6ce5cd', '#2a6f2a', '#9b883b', '#178282',
];

/** The whole list of nation colours. */
export function nationPalette(): readonly string[] {
  return PALETTE;
}

/** The list as it is chosen (farthest-point choice over a fixed grid of candidates); PALETTE is its result. */
export function workOutPalette(): readonly string[] {
  const chosen = BASE_PALETTE.map((h) => parseHex(h));
  const pool = candidates().map((rgb) => ({ rgb, labs: views(rgb), nearest: Infinity }));
  const avoid = [...BACKGROUNDS.map(parseHex), ...chosen].map(views);
  for (const c of pool) for (const a of avoid) c.nearest = Math.min(c.nearest, worstDistance(c.labs, a));
  while (chosen.length < PALETTE_SIZE) {
    let best = pool[0]!;
    for (const c of pool) if (c.nearest > best.nearest) best = c;
    chosen.push(best.rgb);
    for (const c of pool) c.nearest = Math.min(c.nearest, worstDistance(c.labs, best.labs));
  }
  return chosen.map(toHex);
}

/** The i-th nation colour of a map. */
export function nationColour(i: number): string {
  const list = nationPalette();
  return list[i % list.length]!;
}

/** Text drawn on a fill: black on light colours, white on dark ones. */
export function inkOn(fill: string): string {
  return luminance(parseHex(fill)) > 0.3 ? '#000000' : '#ffffff';
}
