import { describe, expect, it } from 'vitest';
import { deltaE2000, labAs, parseHex, type Vision } from '../../src/report/colour-vision.js';
import { TERRAIN_COLOURS } from '../../src/report/svg-map.js';
import { FOG_OPACITY } from '../../src/report/svg-symbols.js';

/**
 * Issue 34: sea, inland water and plains out of sight were three close
 * blue-greens. The terrain tints are held apart here as the nations' colours
 * are in palette.test.ts: every two tints, and the demo's six terrains in
 * sight and faded (out of sight a hex shows at FOG_OPACITY over the white
 * paper), as readers with normal vision and the commonest colour-blindness see them.
 */
const faded = (hex: string, fog: number) => {
  const [r, g, b] = parseHex(hex).map((c) => Math.round(fog * c + (1 - fog) * 255)) as [number, number, number];
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
};

function tooClose(colours: Record<string, string>, vision: Vision, min: number): string[] {
  const list = Object.entries(colours);
  const out: string[] = [];
  for (let i = 0; i < list.length; i++)
    for (let j = i + 1; j < list.length; j++) {
      const d = deltaE2000(labAs(parseHex(list[i]![1]), vision), labAs(parseHex(list[j]![1]), vision));
      if (d < min) out.push(`${list[i]![0]} ${list[j]![0]}: ${d.toFixed(1)}`);
    }
  return out;
}

describe('the terrain tints', () => {
  it('are at least 8 apart (CIEDE2000) for every two different tints', () => {
    const distinct: Record<string, string> = {};
    for (const [name, colour] of Object.entries(TERRAIN_COLOURS)) if (!Object.values(distinct).includes(colour)) distinct[name] = colour;
    expect(tooClose(distinct, 'normal', 8)).toEqual([]);
  });

  const DEMO_TERRAINS = ['plains', 'forest', 'hills', 'mountains', 'water', 'sea'];
  const shownAs = (tints: Record<string, string>, fog: number) => {
    const shown: Record<string, string> = {};
    for (const t of DEMO_TERRAINS) {
      shown[t] = tints[t]!;
      shown[`faded ${t}`] = faded(tints[t]!, fog);
    }
    return shown;
  };
  const clashes = (shown: Record<string, string>) => [...tooClose(shown, 'normal', 8), ...tooClose(shown, 'deuteranopia', 4.5).map((c) => `deuteranopia: ${c}`)];

  it("keep the demo's six terrains, in sight and faded, apart for normal vision and for deuteranopes", () => {
    expect(clashes(shownAs(TERRAIN_COLOURS, FOG_OPACITY))).toEqual([]);
    // The tints before issue 34 (faded to .35) fail it: faded water and sea 4.2 apart, faded forest and hills 2.4 for deuteranopes.
    const before = { plains: '#dfe8b0', forest: '#7fae6b', hills: '#cdb27a', mountains: '#a39a8e', water: '#9cc6ec', sea: '#6f9fd8' };
    expect(clashes(shownAs(before, 0.35))).toContain('faded water faded sea: 4.2');
  });
});
