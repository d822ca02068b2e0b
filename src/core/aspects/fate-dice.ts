import type { DiceStream } from '../dice.js';
import type { DieRoll, LuckDraw } from '../events.js';
import type { NationId } from '../ids.js';
import type { RandomiserKind } from '../settings.js';
import { faceValue } from '../fate/deck.js';

/**
 * The Fate layer's own dice: four Fate dice for create advantage and overcome,
 * fortune for a boost. In a campaign that throws Fate dice or draws from the
 * Deck of Fate for every roll (rules.fate.randomiser), the randomiser does it:
 * one roll of the rules' d6 carries the Fate result (its dice or its card),
 * and fortune is the randomiser's own. In a d6 campaign a Fate die is a d3 of
 * the scope's stream read as − 0 + (d3 − 2). Every die or card is recorded in
 * the turn's events like any other roll.
 */
export interface FateRoll {
  /** The rolls drawn, as recorded. */
  dice: DieRoll[];
  /** Each Fate die's face, −1, 0 or +1 (none for a card). */
  faces: number[];
  total: number;
  /** Fortune as the Fate randomisers draw it. */
  luck?: LuckDraw;
}

const face = (d: DieRoll) => d.value - 2;

/** Four Fate dice (seed 002 "Skill Roll": roll four Fate dice and add them). */
export function rollFateDice(stream: DiceStream, randomiser: RandomiserKind, owner: NationId): FateRoll {
  if (randomiser !== 'd6') {
    const roll = stream.roll('d6', owner);
    const result = roll.fate?.result ?? roll.value - 3;
    return { dice: [roll], faces: (roll.fate?.faces ?? []).map(faceValue), total: result };
  }
  const dice = [0, 1, 2, 3].map(() => stream.roll('d3'));
  const faces = dice.map(face);
  return { dice, faces, total: faces.reduce((s, f) => s + f, 0) };
}

/**
 * Fortune, as a boost adds it (seed 000 "Boosts" and "Using Fate Dice": three
 * extra dice of which only the pluses count): 0 to +3.
 */
export function rollFortune(stream: DiceStream, randomiser: RandomiserKind, owner: NationId): FateRoll {
  if (randomiser !== 'd6') {
    const luck = stream.luck('fortune', owner);
    return { dice: [], faces: [], total: luck.delta, luck };
  }
  const dice = [0, 1, 2].map(() => stream.roll('d3'));
  const faces = dice.map(face);
  return { dice, faces, total: faces.filter((f) => f > 0).length };
}
