import seedrandom from 'seedrandom';
import type { DieRoll, LuckDraw } from './events.js';
import type { NationId } from './ids.js';

/**
 * The one interface every randomiser sits behind. Each roll belongs to a
 * scope (a battle, a siege action, a pursuit) and draws from that scope's own
 * stream, so a battle's dice depend on (seed, turn, scope) alone — never on
 * file order or on any unrelated order.
 *
 * The campaign's `rules.fate.randomiser` picks what a d6 or d3 of the rules
 * becomes (docs/rules.md F1–F6): d6 (these classes), four Fate dice or a card
 * of the nation's Deck of Fate (src/core/fate/layer.ts, laid over these).
 */
export type DieKind = 'd6' | 'd3' | 'coin' | 'd100';

export interface DiceStream {
  /**
   * One die of the rules. `owner` is the nation the roll is for: a Deck of
   * Fate draws from that nation's deck; dice ignore it. A re-roll (an
   * invoke's "re-roll the dice" / "draw another card") is simply another
   * `roll` of the same die on the same stream object.
   */
  roll(die: DieKind, owner?: NationId): DieRoll;
  /** Fortune or misfortune on a check (seed 000 lines 23–28; docs/rules.md F5). */
  luck(kind: LuckDraw['kind'], owner?: NationId): LuckDraw;
  // These two are properties, not methods: the Fate layer hands them on detached (a stream is closures, not `this`).
  /** The scope's next forced value, taken from its queue; undefined when none is left (or none was set). */
  forced?: () => number | undefined;
  /** A number in [0, 1) from the scope's own stream (what the Fate layer throws its dice and shuffles with). */
  uniform: () => number;
}

export interface Randomiser {
  stream(scope: string): DiceStream;
}

const FACES: Record<DieKind, number> = { d6: 6, d3: 3, coin: 2, d100: 100 };

/**
 * Fortune and misfortune with d6s: three d6s, each 5–6 a help (fortune) or
 * each 1–2 a hindrance (misfortune) — one chance in three a die, exactly the
 * seed's three helping Fate dice (seed 000 line 150).
 */
export function d6Luck(roll: (die: DieKind) => DieRoll, kind: LuckDraw['kind']): LuckDraw {
  const rolls = [roll('d6'), roll('d6'), roll('d6')];
  const dice = rolls.map((r) => r.value);
  const hits = dice.filter((v) => (kind === 'fortune' ? v >= 5 : v <= 2)).length;
  const forced = rolls.some((r) => r.forced);
  return { kind, delta: kind === 'fortune' ? hits : -hits, dice, ...(forced ? { forced } : {}) };
}

export class SeededRandomiser implements Randomiser {
  constructor(
    private readonly seed: string,
    private readonly turn: number,
  ) {}

  stream(scope: string): DiceStream {
    const rng = seedrandom(`${this.seed}|turn ${this.turn}|${scope}`);
    const roll = (die: DieKind): DieRoll => ({ die, value: 1 + Math.floor(rng() * FACES[die]) });
    return { roll, luck: (kind) => d6Luck(roll, kind), uniform: () => rng() };
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
    const missing = (what: string) => new Error(`no forced dice left for scope "${scope}" (${what})`);
    const roll = (die: DieKind): DieRoll => {
      const value = queue.shift();
      if (value !== undefined) {
        if (this.clamp) return { die, value: Math.max(1, Math.min(FACES[die], Math.round(value))), forced: true };
        if (!Number.isInteger(value) || value < 1 || value > FACES[die]) {
          throw new Error(`forced ${die} for ${scope} must be 1..${FACES[die]}, got ${value}`);
        }
        return { die, value, forced: true };
      }
      if (!fallback) throw missing(die);
      return fallback.roll(die);
    };
    return {
      roll,
      luck: (kind) => d6Luck(roll, kind),
      forced: () => queue.shift() ?? fallback?.forced?.(),
      uniform: () => {
        if (!fallback) throw missing('a Fate draw');
        return fallback.uniform();
      },
    };
  }
}
