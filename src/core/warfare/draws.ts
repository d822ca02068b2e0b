import type { DiceStream } from '../dice.js';
import type { NationId } from '../ids.js';
import type { RandomiserKind } from '../settings.js';
import { rollFateDice } from '../aspects/fate-dice.js';
import { stressCard } from '../fate/stress.js';
import { drawLuck } from '../fate/layer.js';
import type { Side, WarDraw } from './types.js';

/**
 * The cards of a Warfare battle (docs/rules.md W1): every draw comes from the
 * battle's own stream (`warfare:<battle id>`), each side from its own
 * nation's deck under the Deck of Fate, four Fate dice otherwise (in a d6
 * campaign four d3s read as − 0 +, as the aspects layer throws them). All
 * draws are kept, in order, for the report.
 */
export interface Draws {
  /** A card's result, -4..+4. */
  draw(side: Side): number;
  /**
   * Fortune and misfortune on a check (seed 000 lines 23–28): any misfortune
   * cancels every fortune and draws a card a source; else a card a fortune.
   * The total it adds.
   */
  luck(side: Side, sources: { fortune: number; misfortune: number }): number;
  /** A stress card: suns (pluses) as physical stress, moons (minuses) as mental (seed 000 lines 144, 151). */
  stressCard(side: Side): { physical: number; mental: number };
  readonly record: WarDraw[];
}

export function streamDraws(stream: DiceStream, randomiser: RandomiserKind, nations: Record<Side, NationId>): Draws {
  const record: WarDraw[] = [];
  const one = (side: Side) => {
    const r = rollFateDice(stream, randomiser, nations[side]);
    record.push({ side, nation: nations[side], result: r.total, rolls: r.dice });
    return r;
  };
  return {
    record,
    draw: (side) => one(side).total,
    luck: (side, sources) =>
      drawLuck(stream, sources, nations[side]).reduce((sum, l) => {
        record.push({ side, nation: nations[side], result: l.delta, rolls: [], luck: l });
        return sum + l.delta;
      }, 0),
    stressCard: (side) => {
      const r = one(side);
      const fate = r.dice[0]?.fate;
      if (fate?.card !== undefined) return stressCard({ card: fate.card });
      if (fate?.faces) return stressCard({ faces: fate.faces });
      if (r.faces.length) return stressCard({ faces: r.faces.map((f) => (f > 0 ? '+' : f < 0 ? '-' : '0')) });
      // A forced result draws no card: its size is the stress, physical when above zero, mental below.
      return { physical: Math.max(0, r.total), mental: Math.max(0, -r.total) };
    },
  };
}
