import { describe, expect, it } from 'vitest';
import { deltaE2000, labAs, parseHex, type Vision } from '../../src/report/colour-vision.js';
import { BASE_PALETTE, CHECKED_VISIONS, inkOn, nationColour, nationPalette, PALETTE_SIZE, workOutPalette } from '../../src/report/palette.js';

/** The smallest CIEDE2000 difference between any two of the colours, as a reader with `vision` sees them. */
function closestPair(colours: readonly string[], vision: Vision): { d: number; pair: string } {
  let best = { d: Infinity, pair: '' };
  for (let i = 0; i < colours.length; i++)
    for (let j = i + 1; j < colours.length; j++) {
      const d = deltaE2000(labAs(parseHex(colours[i]!), vision), labAs(parseHex(colours[j]!), vision));
      if (d < best.d) best = { d, pair: `${colours[i]} ${colours[j]}` };
    }
  return best;
}

describe('CIEDE2000', () => {
  // Sharma, Wu and Dalal's published test pairs (2005): pairs 1, 7 and 17 of their table.
  it.each([
    [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
    [[50, 0, 0], [50, -1, 2], 2.3669],
    [[50, 2.5, 0], [73, 25, -18], 27.1492],
  ] as const)('gives the published difference for %j and %j', (a, b, expected) => {
    expect(deltaE2000(a, b)).toBeCloseTo(expected, 3);
  });
});

describe('colour-blindness simulation', () => {
  it('brings red and green together for deuteranopes and protanopes, and leaves them apart for normal vision', () => {
    const red = parseHex('#d00000');
    const green = parseHex('#00a000');
    const normal = deltaE2000(labAs(red), labAs(green));
    expect(normal).toBeGreaterThan(50);
    for (const v of ['deuteranopia', 'protanopia'] as const) expect(deltaE2000(labAs(red, v), labAs(green, v))).toBeLessThan(normal / 2);
  });
});

describe('the nation palette', () => {
  it('starts with the Okabe–Ito colours and is the same list every time', () => {
    expect(nationPalette().slice(0, 8)).toEqual([...BASE_PALETTE]);
    expect(nationPalette()).toHaveLength(PALETTE_SIZE);
    expect(new Set(nationPalette()).size).toBe(PALETTE_SIZE);
    expect(nationColour(3)).toBe(BASE_PALETTE[3]);
    expect(nationColour(PALETTE_SIZE + 1)).toBe(nationColour(1));
  });

  it('is the list the farthest-point choice works out, written out', () => {
    expect(nationPalette()).toEqual(workOutPalette());
  });

  // A ΔE2000 of 10 is a difference seen at a glance; 5 still side by side.
  it.each(CHECKED_VISIONS)('keeps the first 16 colours at least 10 apart (CIEDE2000) in %s', (vision) => {
    const { d, pair } = closestPair(nationPalette().slice(0, 16), vision);
    expect(d, `closest: ${pair}`).toBeGreaterThanOrEqual(10);
  });

  it.each(CHECKED_VISIONS)('keeps all the colours worked out at least 5 apart in %s', (vision) => {
    const { d, pair } = closestPair(nationPalette(), vision);
    expect(d, `closest: ${pair}`).toBeGreaterThanOrEqual(5);
  });

  it('keeps the eight base colours apart for tritanopes too', () => {
    expect(closestPair([...BASE_PALETTE], 'tritanopia').d).toBeGreaterThanOrEqual(10);
  });

  it('writes black on the light colours and white on the dark ones', () => {
    expect(inkOn('#f0e442')).toBe('#000000');
    expect(inkOn('#0072b2')).toBe('#ffffff');
    expect(inkOn('#000000')).toBe('#ffffff');
  });
});
