import { DECK } from './deck.js';
import type { FateFace } from './deck.js';

/**
 * Stress and consequences (seed 000 lines 136–144; seed 002 lines 107–119),
 * as a pure reckoning: how a hit of N stress is soaked by ONE open box of a
 * stress track (box n soaks n) and then by open consequences (mild 2,
 * moderate 4, severe 6 — the seed's minor, major and severe), or the target
 * is taken out. The engine does not put stress tracks on units (docs/rules.md
 * F9 says why); this is the reckoning the aspects layer and a later setting
 * can use, and the seed's example (Catrin) is its test.
 */
export type ConsequenceLevel = 'mild' | 'moderate' | 'severe';
export const CONSEQUENCE_SOAKS: Readonly<Record<ConsequenceLevel, number>> = { mild: 2, moderate: 4, severe: 6 };
const LEVELS: readonly ConsequenceLevel[] = ['mild', 'moderate', 'severe'];

export interface StressTrack {
  /** boxes[i] is box i+1; true when already filled. */
  boxes: boolean[];
  /** Consequence slots already taken. */
  taken: ConsequenceLevel[];
}

export interface Soaked {
  /** The box filled (1-based), if any. */
  box?: number;
  consequences: ConsequenceLevel[];
  takenOut: boolean;
  track: StressTrack;
}

/**
 * The default choice, the one a careful player makes: a single open box
 * that soaks the whole hit (the smallest such); else the largest open box,
 * then the smallest open consequence that soaks what is left, else the
 * largest ones in turn. If box and consequences together cannot soak it
 * all, the target is taken out (and fills nothing).
 */
export function soakStress(track: StressTrack, stress: number): Soaked {
  if (stress <= 0) return { consequences: [], takenOut: false, track };
  const open = track.boxes.flatMap((filled, i) => (filled ? [] : [i + 1]));
  const whole = open.find((n) => n >= stress);
  const box = whole ?? (open.length ? open[open.length - 1] : undefined);
  let left = stress - (box ?? 0);
  const free = LEVELS.filter((l) => !track.taken.includes(l));
  const used: ConsequenceLevel[] = [];
  while (left > 0) {
    const rest = free.filter((l) => !used.includes(l));
    if (!rest.length) break;
    const pick = rest.find((l) => CONSEQUENCE_SOAKS[l] >= left) ?? rest[rest.length - 1]!;
    used.push(pick);
    left -= CONSEQUENCE_SOAKS[pick];
  }
  if (left > 0) return { consequences: [], takenOut: true, track };
  const boxes = track.boxes.map((filled, i) => filled || i + 1 === box);
  return { ...(box !== undefined ? { box } : {}), consequences: used, takenOut: false, track: { boxes, taken: [...track.taken, ...used] } };
}

/** A stress card (seed 000 line 144): its suns as physical stress, its moons as mental; with dice (line 151), pluses and minuses. */
export function stressCard(draw: { card: number } | { faces: readonly FateFace[] }): { physical: number; mental: number } {
  if ('card' in draw) {
    const c = DECK[draw.card]!;
    return { physical: c.suns, mental: c.moons };
  }
  return { physical: draw.faces.filter((f) => f === '+').length, mental: draw.faces.filter((f) => f === '-').length };
}
