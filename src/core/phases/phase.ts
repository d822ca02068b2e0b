import type { TurnContext } from '../context.js';

/**
 * A step of the turn. The turn is the list of phases in PHASES, run in order;
 * later features (random events, diplomacy, Fate battles) add phases here
 * rather than reaching into existing ones.
 */
export interface Phase {
  name: string;
  run(ctx: TurnContext): void;
}
