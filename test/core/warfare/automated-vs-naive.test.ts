import { describe, expect, it } from 'vitest';
import { runBattle } from '../../../src/core/warfare/battle.js';
import { catalogue } from '../../../src/core/warfare/catalogue.js';
import { DEFAULT_PLANS } from '../../../src/core/warfare/commander.js';
import type { Side } from '../../../src/core/warfare/types.js';
import { legalForces, MATCHUPS } from '../../../bench/warfare-balance.js';
import { seededStream } from './support.js';

/**
 * The automated commander plays the seed's tactics (docs/rules.md W13, W20):
 * it sets its defence and answers a prepared one, spends free invokes and
 * fate points only to turn a check, draws again only at fair odds, fires no
 * volley at poor odds and takes on commanders when it pays. Pitted against
 * the naive commander — which marches and strikes, fires at any odds, makes
 * no advantage and spends whatever it has whenever it is behind — on the
 * same legal armies (two generals of three units a side, the mixed army), a
 * thousand fixed seeds, the sides taking turns to attack: if the two played
 * as well, the automated side's wins would be Binomial(1000, ½); it must win
 * more than 500 + 3.29 standard deviations (√(1000·¼) ≈ 15.8), 553 — a
 * one-sided test far below one chance in a thousand. No clock is read.
 */
const N = 1000;
const BAR = Math.ceil(N / 2 + 3.29 * Math.sqrt(N / 4));

function duel(army: string[]) {
  const cat = catalogue();
  let smartWins = 0;
  for (let i = 0; i < N; i++) {
    const smart: Side = i % 2 === 0 ? 'attacker' : 'defender';
    const naive: Side = smart === 'attacker' ? 'defender' : 'attacker';
    const b = legalForces(army, army, {}, `naive ${i}`);
    b.plans = { [smart]: DEFAULT_PLANS[smart], [naive]: { ...DEFAULT_PLANS[naive], naive: true } };
    if (runBattle(b, cat, seededStream(`naive ${i}`), 'deck').winner === smart) smartWins++;
  }
  return smartWins;
}

describe('the automated commander against the naive one', () => {
  it(`wins more than ${BAR} of ${N} battles of equal mixed armies, taking turns to attack`, () => {
    expect(BAR).toBe(553);
    const wins = duel(MATCHUPS.mixed!);
    expect(wins).toBeGreaterThan(BAR);
  });
});
