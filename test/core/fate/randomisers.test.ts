import { describe, expect, it } from 'vitest';
import { ForcedRandomiser, SeededRandomiser, type DiceStream } from '../../../src/core/dice.js';
import type { LuckDraw } from '../../../src/core/events.js';
import { asNationId } from '../../../src/core/ids.js';
import { DECK, DECK_SIZE } from '../../../src/core/fate/deck.js';
import { FateLayer, drawLuck } from '../../../src/core/fate/layer.js';
import { DEFAULT_RULES, type FateSettings } from '../../../src/core/settings.js';

/**
 * The Fate randomisers (docs/rules.md F1–F6) against the theory: every
 * expected distribution here is COMPUTED (by enumerating the 81 throws of four
 * Fate dice, the 3 helping dice, or the deck's table), then compared with
 * 100,000 seeded draws by a chi-square test. Tolerance: the statistic must
 * stay under the 0.1% critical value for its degrees of freedom, so an honest
 * randomiser fails this test about once in a thousand seeds — and these seeds
 * are fixed, so the test is deterministic.
 */
const N = 100_000;
const fate = (randomiser: FateSettings['randomiser']): FateSettings => ({ ...DEFAULT_RULES.fate, randomiser });
const argenta = asNationId('argenta');
const gondarahl = asNationId('gondarahl');

/** Upper 0.1% points of chi-square, by degrees of freedom (standard tables). */
const CHI2_999: Record<number, number> = { 1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46, 7: 24.32, 8: 26.12 };

function chiSquare(observed: Map<number, number>, theory: Map<number, number>, n: number): { stat: number; df: number } {
  let stat = 0;
  for (const [k, p] of theory) {
    const e = p * n;
    const o = observed.get(k) ?? 0;
    stat += ((o - e) * (o - e)) / e;
  }
  for (const k of observed.keys()) if (!theory.has(k)) stat = Infinity;
  return { stat, df: theory.size - 1 };
}

function expectMatches(observed: Map<number, number>, theory: Map<number, number>, n = N): void {
  const total = [...theory.values()].reduce((s, p) => s + p, 0);
  expect(total).toBeCloseTo(1, 12);
  const { stat, df } = chiSquare(observed, theory, n);
  expect(stat, `chi-square ${stat.toFixed(2)} on ${df} df`).toBeLessThan(CHI2_999[df]!);
}

const count = (values: number[]) => values.reduce((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map<number, number>());

/** Every way of throwing `dice` Fate dice, each equally likely: the distribution of what `score` makes of a throw. */
function enumerate(dice: number, score: (faces: number[]) => number): Map<number, number> {
  const out = new Map<number, number>();
  const total = 3 ** dice;
  for (let i = 0; i < total; i++) {
    const faces = Array.from({ length: dice }, (_, d) => (Math.floor(i / 3 ** d) % 3) - 1);
    const s = score(faces);
    out.set(s, (out.get(s) ?? 0) + 1 / total);
  }
  return out;
}
const FOUR_DF = enumerate(4, (f) => f.reduce((a, b) => a + b, 0));

/** Draws `n` results, in scopes of `perScope` draws each (so decks run out and reshuffle inside a scope). */
function draws(layer: FateLayer, n: number, perScope: number, draw: (s: DiceStream) => number): number[] {
  const out: number[] = [];
  for (let scope = 0; out.length < n; scope++) {
    const s = layer.stream(`battle:attack:u${scope}`);
    for (let i = 0; i < perScope && out.length < n; i++) out.push(draw(s));
  }
  return out;
}

const layerFor = (randomiser: FateSettings['randomiser'], seed = 'theory') => new FateLayer(new SeededRandomiser(seed, 1), fate(randomiser), () => undefined);

describe('four Fate dice (F1, F2)', () => {
  it('throws 4dF: -4..+4 as the 81 throws say, over 100,000 draws', () => {
    const results = draws(layerFor('fateDice'), N, 50, (s) => s.roll('d6').fate!.result);
    expectMatches(count(results), FOUR_DF);
  });

  it('adds the base for the die the rules ask for, and keeps the faces it threw', () => {
    const s = layerFor('fateDice').stream('siege:u1');
    const healthy = s.roll('d6');
    const bloodied = s.roll('d3');
    expect(healthy.die).toBe('4dF');
    expect(healthy.fate!.faces).toHaveLength(4);
    expect(healthy.value).toBe(3 + healthy.fate!.result);
    expect(healthy.fate!.result).toBe(healthy.fate!.faces!.reduce((t, f) => t + (f === '+' ? 1 : f === '-' ? -1 : 0), 0));
    expect(bloodied.value).toBe(2 + bloodied.fate!.result);
    expect(bloodied.fate!.replaces).toBe('d3');
  });

  it('leaves coins and d100s as they were', () => {
    const seeded = new SeededRandomiser('theory', 1).stream('pursuit:a:b');
    const layered = layerFor('fateDice').stream('pursuit:a:b');
    expect([layered.roll('coin'), layered.roll('d100')]).toEqual([seeded.roll('coin'), seeded.roll('d100')]);
  });

  it('fortune counts the pluses of three helping dice, misfortune the minuses (seed 000 line 150)', () => {
    const layer = layerFor('fateDice');
    expectMatches(count(draws(layer, N, 50, (s) => s.luck('fortune').delta)), enumerate(3, (f) => f.filter((x) => x === 1).length));
    expectMatches(count(draws(layer, N, 50, (s) => s.luck('misfortune').delta)), enumerate(3, (f) => -f.filter((x) => x === -1).length));
  });
});

/** What a card adds for fortune or misfortune, read off the deck's table by the seed's words. */
const cardLuck = (id: number, kind: LuckDraw['kind']) => {
  const c = DECK[id]!;
  if (c.eclipse) return kind === 'fortune' ? 4 : -4;
  return kind === 'fortune' ? c.suns : -c.moons;
};
const deckTheory = (score: (id: number) => number) => DECK.reduce((m, c) => m.set(score(c.id), (m.get(score(c.id)) ?? 0) + 1 / DECK_SIZE), new Map<number, number>());

describe('the Deck of Fate (F3, F4, F5)', () => {
  it('holds 81 cards whose results come as four Fate dice, with the symbol counts documented', () => {
    expect(DECK).toHaveLength(81);
    const results = deckTheory((id) => DECK[id]!.result);
    for (const [k, p] of FOUR_DF) expect(results.get(k)).toBeCloseTo(p, 12);
    const motif = (id: number) => {
      const c = DECK[id]!;
      return c.eclipse ? 'eclipse' : `${c.suns}s${c.moons}m`;
    };
    const motifs = DECK.reduce((m, c) => m.set(motif(c.id), (m.get(motif(c.id)) ?? 0) + 1), new Map<string, number>());
    expect(Object.fromEntries(motifs)).toEqual({ '1s0m': 18, '0s1m': 18, '2s0m': 6, '3s0m': 6, '2s1m': 6, '1s1m': 6, '1s2m': 6, '0s2m': 6, '0s3m': 6, eclipse: 3 });
    // An eclipse otherwise counts as two suns and two moons (seed 000 line 28).
    for (const c of DECK.filter((x) => x.eclipse)) expect([c.suns, c.moons]).toEqual([2, 2]);
  });

  it('draws results as the deck holds them, over 100,000 draws that empty and reshuffle the deck', () => {
    // 200 draws a scope: each scope's copy runs through the whole deck twice.
    const results = draws(layerFor('deck'), N, 200, (s) => s.roll('d6', argenta).fate!.result);
    expectMatches(count(results), FOUR_DF);
  });

  it('never deals a card twice before the deck is emptied, then deals all 81 again', () => {
    const s = layerFor('deck').stream('battle:attack:x');
    const ids = Array.from({ length: 162 }, () => s.roll('d6', argenta).fate!.card!);
    expect(new Set(ids.slice(0, 81)).size).toBe(81);
    expect(new Set(ids.slice(81)).size).toBe(81);
  });

  it('fortune adds the suns of a card, an eclipse four; misfortune takes the moons, an eclipse four (seed 000 lines 24–28), over 100,000 draws', () => {
    const layer = layerFor('deck');
    const fortune = draws(layer, N, 30, (s) => s.luck('fortune', argenta).delta);
    expectMatches(count(fortune), deckTheory((id) => cardLuck(id, 'fortune')));
    const misfortune = draws(layer, N, 30, (s) => s.luck('misfortune', argenta).delta);
    expectMatches(count(misfortune), deckTheory((id) => cardLuck(id, 'misfortune')));
  });

  it('reads every card drawn for luck by the seed: the eclipse cards give +4 and -4, others their suns or moons', () => {
    const s = layerFor('deck', 'eclipse-hunt').stream('roll:argenta:x');
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const kind = i % 2 ? 'fortune' : 'misfortune';
      const d = s.luck(kind, argenta);
      expect(d.delta).toBe(cardLuck(d.card!, kind));
      expect(d.eclipse === true).toBe(DECK[d.card!]!.eclipse);
      if (d.eclipse) seen.add(d.delta);
    }
    expect([...seen].sort()).toEqual([-4, 4]);
  });

  it('cancels all fortune when misfortune applies (seed 000 line 26)', () => {
    const layer = layerFor('deck');
    const drawn = drawLuck(layer.stream('siege:u9'), { fortune: 2, misfortune: 1 }, argenta);
    expect(drawn.map((d) => d.kind)).toEqual(['misfortune']);
    expect(drawLuck(layer.stream('siege:u8'), { fortune: 2, misfortune: 0 }, argenta).map((d) => d.kind)).toEqual(['fortune', 'fortune']);
  });

  it('keeps one pile per nation (issue 36): no card turns up twice in a season across scopes until the pile runs out', () => {
    const layer = layerFor('deck');
    const cards = Array.from({ length: 81 }, (_, i) => layer.stream(`battle:attack:s${i}`).roll('d6', argenta).fate!.card!);
    expect(new Set(cards).size).toBe(81);
    // Another nation's deck is its own: its first card does not depend on what Argenta drew.
    const quiet = layerFor('deck').stream('battle:attack:g').roll('d6', gondarahl);
    expect(layer.stream('battle:attack:g').roll('d6', gondarahl)).toEqual(quiet);
  });

  it('sends every card drawn this turn to its nation’s discard pile, and a deck emptied this turn starts over', () => {
    const layer = new FateLayer(new SeededRandomiser('piles', 2), fate('deck'), (n) => (n === argenta ? [0, 1, 2] : undefined));
    const a = layer.stream('battle:attack:a').roll('d6', argenta).fate!.card!;
    const b = layer.stream('siege:b').roll('d6', argenta).fate!.card!;
    const g = layer.stream('battle:attack:a').roll('d6', gondarahl).fate!.card!;
    expect([a, b]).not.toContain(0);
    const after = layer.decksAfter();
    expect(after.get(argenta)).toEqual([...new Set([0, 1, 2, a, b])].sort((x, y) => x - y));
    expect(after.get(gondarahl)).toEqual([g]);

    const nearlyEmpty = Array.from({ length: 80 }, (_, i) => i);
    const emptying = new FateLayer(new SeededRandomiser('piles', 3), fate('deck'), () => nearlyEmpty);
    const s = emptying.stream('battle:attack:z');
    expect(s.roll('d6', argenta).fate!.card).toBe(80);
    const fresh = s.roll('d6', argenta).fate!.card!;
    expect(emptying.decksAfter().get(argenta)).toEqual([fresh]);
  });
});

describe('re-rolls (F10)', () => {
  it('a re-roll is another roll of the same die on the same stream: new dice, or another card of the same copy, never the one drawn', () => {
    const deck = layerFor('deck').stream('battle:attack:r');
    const first = deck.roll('d6', argenta);
    const again = deck.roll('d6', argenta);
    expect(again.die).toBe('card');
    expect(again.fate!.card).not.toBe(first.fate!.card);
    const plain = new SeededRandomiser('theory', 1);
    const d6 = plain.stream('x');
    expect([d6.roll('d6'), d6.roll('d6')]).toEqual([plain.stream('x').roll('d6'), (() => { const s = plain.stream('x'); s.roll('d6'); return s.roll('d6'); })()]);
  });
});

describe('forcing (F6)', () => {
  it('takes a forced value as the Fate result, clamped to -4..+4 for the GM, with no card or dice', () => {
    const gm = new ForcedRandomiser({ 'battle:attack:a': [2, 9, -7] }, new SeededRandomiser('f', 1), true);
    const s = new FateLayer(gm, fate('deck'), () => undefined).stream('battle:attack:a');
    expect(s.roll('d6', argenta)).toEqual({ die: 'card', value: 5, forced: true, fate: { replaces: 'd6', base: 3, result: 2 } });
    expect(s.roll('d3', argenta).value).toBe(2 + 4);
    expect(s.roll('d6', argenta).fate!.result).toBe(-4);
    expect(s.roll('d6', argenta).forced).toBeUndefined();
  });

  it('a test without forced values left fails loudly rather than drawing', () => {
    const s = new FateLayer(new ForcedRandomiser({}, undefined), fate('fateDice'), () => undefined).stream('x');
    expect(() => s.roll('d6')).toThrow(/no forced dice left/);
  });
});

describe('d6 campaigns (F1)', () => {
  it('fortune and misfortune on d6s: three dice, 5–6 help and 1–2 hinder — the same odds as three helping Fate dice', () => {
    const r = new SeededRandomiser('d6-luck', 1);
    const fortune: number[] = [];
    const misfortune: number[] = [];
    for (let i = 0; fortune.length < N; i++) {
      const s = r.stream(`roll:n:${i}`);
      for (let j = 0; j < 50; j++) {
        fortune.push(s.luck('fortune').delta);
        misfortune.push(s.luck('misfortune').delta);
      }
    }
    expectMatches(count(fortune), enumerate(3, (f) => f.filter((x) => x === 1).length));
    expectMatches(count(misfortune), enumerate(3, (f) => -f.filter((x) => x === -1).length));
  });
});
