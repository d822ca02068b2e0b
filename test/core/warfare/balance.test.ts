import { describe, expect, it } from 'vitest';
import { attackerWins, legalForces, MATCHUPS } from '../../../bench/warfare-balance.js';
import { DEFAULT_PLANS } from '../../../src/core/warfare/commander.js';

/**
 * The balance of the Warfare engine on armies the rules allow (docs/rules.md
 * W14): two generals a side, Command and Tactics +3, each leading three units
 * (max(Command, 3), seed 001 line 139); the stronger side's first general has
 * Command +4 and one more infantry. The full table — 2,000 seeds a row, with
 * 95% intervals — is bench/warfare-balance.ts's, published in docs/rules.md;
 * here the first 500 of the same seeds hold the claims it supports. The
 * seeds are fixed: the counts are deterministic, no clock is read.
 */
const N = 500;
const share = (k: number) => k / N;

/** The attacker's wins with equal mixed armies: the first test's last row, and what "one more infantry" is held against. */
let equalMixed: number | undefined;
const mixedEqual = () => (equalMixed ??= attackerWins(() => legalForces(MATCHUPS.mixed!, MATCHUPS.mixed!), N));

describe('Warfare balance on legal armies, under the default plans', () => {
  it('equal armies of infantry, of cavalry and mixed are near even (the attacker wins 40% to 60%)', () => {
    for (const army of [MATCHUPS.infantry!, MATCHUPS.cavalry!, MATCHUPS.mixed!]) {
      const s = share(army === MATCHUPS.mixed ? mixedEqual() : attackerWins(() => legalForces(army, army), N));
      expect(s).toBeGreaterThan(0.4);
      expect(s).toBeLessThan(0.6);
    }
  });

  it('the defender holding archers keeps an edge, as the seed gives it (its archers shoot while the attack comes on), but not a hopeless one', () => {
    const s = share(attackerWins(() => legalForces(MATCHUPS.archers!, MATCHUPS.archers!), N));
    expect(s).toBeGreaterThan(0.3);
    expect(s).toBeLessThan(0.45);
  });

  it('one more infantry wins more, attacking or defending', () => {
    const equal = mixedEqual();
    expect(attackerWins(() => legalForces(MATCHUPS.mixed!, MATCHUPS.mixed!, { attacker: 1 }), N)).toBeGreaterThan(equal + 0.15 * N);
    expect(attackerWins(() => legalForces(MATCHUPS.mixed!, MATCHUPS.mixed!, { defender: 1 }), N)).toBeLessThan(equal - 0.15 * N);
  });

  it('the default plan is what brings equal armies near even: marching straight into a prepared defence, the attacker loses two battles in three', () => {
    const straight = { attacker: { ...DEFAULT_PLANS.attacker, prepare: false } };
    const s = share(attackerWins(() => legalForces(MATCHUPS.mixed!, MATCHUPS.mixed!), N, straight));
    expect(s).toBeLessThan(0.36);
  });
});
