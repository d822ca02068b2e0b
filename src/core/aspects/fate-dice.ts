import type { DiceStream } from '../dice.js';
import type { DieRoll } from '../events.js';

/**
 * The Fate layer's own dice, kept in this one file so the campaign's
 * randomiser (4dF or the Deck of Fate, src/core/dice.ts on the fate-dice
 * branch) can later take over here and nowhere else. Until then a Fate die is
 * a d3 of the scope's stream read as − 0 + (d3 − 2), and every d3 is written
 * to the turn's events like any other roll.
 */
export interface FateRoll {
  /** The d3s drawn, as recorded. */
  dice: DieRoll[];
  /** Each die's face: −1, 0 or +1. */
  faces: number[];
  total: number;
}

const face = (d: DieRoll) => d.value - 2;

/** Four Fate dice (seed 002 "Skill Roll": roll four Fate dice and add them). */
export function rollFateDice(stream: DiceStream): FateRoll {
  const dice = [0, 1, 2, 3].map(() => stream.roll('d3'));
  const faces = dice.map(face);
  return { dice, faces, total: faces.reduce((s, f) => s + f, 0) };
}

/**
 * Fortune, as a boost adds it (seed 000 "Boosts" and "Using Fate Dice": three
 * extra dice of which only the pluses count): 0 to +3.
 */
export function rollFortune(stream: DiceStream): FateRoll {
  const dice = [0, 1, 2].map(() => stream.roll('d3'));
  const faces = dice.map(face);
  return { dice, faces, total: faces.filter((f) => f > 0).length };
}
