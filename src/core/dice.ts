import seedrandom from 'seedrandom';
import type { DieRoll } from './events.js';

/**
 * The one interface every randomiser sits behind. Each roll belongs to a
 * scope (a battle, a siege action, a pursuit) and draws from that scope's own
 * stream, so a battle's dice depend on (seed, turn, scope) alone — never on
 * file order or on any unrelated order.
 */
export type DieKind = DieRoll['die'];

export interface DiceStream {
  roll(die: DieKind): DieRoll;
}

export interface Randomiser {
  stream(scope: string): DiceStream;
}

const FACES: Record<DieKind, number> = { d6: 6, d3: 3, coin: 2, d100: 100 };

export class SeededRandomiser implements Randomiser {
  constructor(
    private readonly seed: string,
    private readonly turn: number,
  ) {}

  stream(scope: string): DiceStream {
    const rng = seedrandom(`${this.seed}|turn ${this.turn}|${scope}`);
    return {
      roll: (die) => ({ die, value: 1 + Math.floor(rng() * FACES[die]) }),
    };
  }
}

/**
 * Dice fixed in advance, per scope (tests, the rules' own examples, and GM
 * overrides). A scope without forced values falls back to the seeded dice,
 * or fails loudly when `strict` so a test cannot silently roll real dice.
 */
export class ForcedRandomiser implements Randomiser {
  constructor(
    private readonly forced: Record<string, number[]>,
    private readonly fallback: Randomiser | undefined,
    /**
     * A GM's forced value beyond the die's faces is taken as the nearest face
     * (a 6 forced on a bloodied unit's d3 is its best roll), never an error.
     */
    private readonly clamp = false,
  ) {}

  stream(scope: string): DiceStream {
    const queue = [...(this.forced[scope] ?? [])];
    const fallback = this.fallback?.stream(scope);
    return {
      roll: (die) => {
        const value = queue.shift();
        if (value !== undefined) {
          if (this.clamp) return { die, value: Math.max(1, Math.min(FACES[die], Math.round(value))), forced: true };
          if (!Number.isInteger(value) || value < 1 || value > FACES[die]) {
            throw new Error(`forced ${die} for ${scope} must be 1..${FACES[die]}, got ${value}`);
          }
          return { die, value, forced: true };
        }
        if (!fallback) throw new Error(`no forced dice left for scope "${scope}" (${die})`);
        return fallback.roll(die);
      },
    };
  }
}
