import type { EventDef, EventSettings, EventTone, RebellionSettings } from './types.js';
import { holds, type Where } from './conditions.js';

/**
 * The odds of the living world, as docs/rules.md tables them. A good event's
 * weight is multiplied by mood^(Prosperity + Happiness), a bad one's by
 * mood^-(Prosperity + Happiness): with the default 1.25, a realm at +3/+3
 * meets good events 3.8 times as often as a calm one, and bad ones a quarter
 * as often. Modifiers a GM writes on an entry multiply on top.
 */
export function moodFactor(mood: number, tone: EventTone, prosperity: number, happiness: number): number {
  const x = prosperity + happiness;
  if (tone === 'good') return mood ** x;
  if (tone === 'bad') return mood ** -x;
  return 1;
}

export function eventWeight(def: EventDef, settings: EventSettings, w: Where): number {
  const n = w.scene.ctx.nationState(w.nation);
  let weight = def.weight * moodFactor(settings.mood, def.tone, n.prosperity, n.happiness);
  for (const m of def.modifiers) if (holds(m.when, w)) weight *= m.factor;
  return weight;
}

/** Index of the candidate a d100 picks: the roll's share of the total weight, as a point on the cumulative weights. */
export function pickByWeight(weights: readonly number[], d100: number): number | undefined {
  return pickPoint(weights, d100)?.index;
}

/** The candidate a d100 picks, and how far into its weight the point fell (to choose within a group of equal places). */
export function pickPoint(weights: readonly number[], d100: number): { index: number; into: number } | undefined {
  const total = weights.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return undefined;
  const point = ((d100 - 0.5) / 100) * total;
  let sum = 0;
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i]!;
    if (point < sum + w) return { index: i, into: point - sum };
    sum += w;
  }
  const last = weights.length - 1;
  return { index: last, into: Math.max(0, (weights[last] ?? 0) - Number.EPSILON) };
}

/**
 * Percent chance a settlement rises this turn, from the indicators at the
 * start of the turn (those its report showed): none above the threshold,
 * else base + step for each point of Happiness below it and each point of
 * negative Prosperity, at most 100.
 */
export function revoltRisk(r: RebellionSettings, prosperity: number, happiness: number): number {
  if (!r.enabled || !r.nation || happiness > r.happinessAtOrBelow) return 0;
  const points = r.happinessAtOrBelow - happiness + Math.max(0, -prosperity);
  return Math.max(0, Math.min(100, r.base + r.step * points));
}
