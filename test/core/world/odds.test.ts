import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEventCatalogue } from '../../../src/campaign/event-catalogue.js';
import { TurnContext } from '../../../src/core/context.js';
import { SeededRandomiser } from '../../../src/core/dice.js';
import { eventsPhase } from '../../../src/core/phases/events.js';
import { moodFactor, pickByWeight, revoltRisk } from '../../../src/core/world/odds.js';
import { DEFAULT_EVENT_SETTINGS } from '../../../src/core/world/types.js';
import { buildState, loadWorld } from '../../support/case-world.js';

/**
 * The odds' shift with the indicators, measured: a good and a bad event of
 * equal weight, drawn by seeded dice over many turns, for realms at several
 * levels of Prosperity + Happiness, against the formula of docs/rules.md.
 */
const world = loadWorld(join(import.meta.dirname, '..', '..', 'cases', '_world.yaml'));
const read = readEventCatalogue(
  {
    settings: { quiet: 20, mood: 1.25 },
    events: [
      { id: 'boon', title: 'Boon', text: 'x', tone: 'good', weight: 10 },
      { id: 'bane', title: 'Bane', text: 'x', tone: 'bad', weight: 10 },
    ],
  },
  () => undefined,
  'odds',
  world,
);
const campaign = { ...world, events: read.catalogue! };

function measure(prosperity: number, happiness: number, turns: number): { good: number; bad: number; quiet: number } {
  const counts = { good: 0, bad: 0, quiet: 0 };
  for (let turn = 1; turn <= turns; turn++) {
    const state = buildState(campaign, {
      turn: turn - 1,
      nations: { argenta: { prosperity, happiness } },
      settlements: { argentum: { nation: 'argenta', level: 'capital', hex: '3,3', name: 'Argentum' } },
    });
    const ctx = new TurnContext(campaign, state, { nations: {}, gm: [] }, new SeededRandomiser('odds-seed', turn));
    eventsPhase.run(ctx);
    const fired = ctx.events.find((e) => e.type === 'event_fired');
    if (!fired) counts.quiet++;
    else if (fired.type === 'event_fired' && fired.event === 'boon') counts.good++;
    else counts.bad++;
  }
  return counts;
}

describe('odds of random events', () => {
  it('the formula: mood^(P+H) for good events, mood^-(P+H) for bad ones', () => {
    expect(moodFactor(1.25, 'good', 3, 3)).toBeCloseTo(3.815, 3);
    expect(moodFactor(1.25, 'bad', 3, 3)).toBeCloseTo(0.262, 3);
    expect(moodFactor(1.25, 'neutral', -3, -3)).toBe(1);
  });

  it('a d100 picks by share of the weight', () => {
    expect(pickByWeight([1, 3], 25)).toBe(0);
    expect(pickByWeight([1, 3], 26)).toBe(1);
    expect(pickByWeight([0, 0], 50)).toBeUndefined();
  });

  for (const [p, h] of [[-3, -3], [-1, -1], [0, 0], [2, 1], [3, 3]] as const) {
    it(`at Prosperity ${p}, Happiness ${h}, the share of good events follows the formula over 4,000 seeded turns`, () => {
      const got = measure(p, h, 4000);
      const g = moodFactor(1.25, 'good', p, h);
      const b = moodFactor(1.25, 'bad', p, h);
      const expectedGood = g / (g + b);
      const fired = got.good + got.bad;
      expect(got.quiet / 4000).toBeGreaterThan(0.2 - 0.03);
      expect(got.quiet / 4000).toBeLessThan(0.2 + 0.03);
      // The d100 rounds the share to the nearest percent; sampling adds about ±2% at this size.
      expect(Math.abs(got.good / fired - expectedGood)).toBeLessThan(0.035);
    });
  }

  it('revolt risk: none above the threshold; base plus a step a point below it and a point of negative Prosperity', () => {
    const r = { ...DEFAULT_EVENT_SETTINGS.rebellion, enabled: true, nation: 'free' };
    expect(revoltRisk(r, 0, -1)).toBe(0);
    expect(revoltRisk(r, 0, -2)).toBe(10);
    expect(revoltRisk(r, -2, -3)).toBe(40);
    expect(revoltRisk({ ...r, enabled: false }, -3, -3)).toBe(0);
  });
});
