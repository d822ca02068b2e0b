import type { TurnRenderer } from '../jobs/run-turn.js';

/** What `fatecraft turn` writes beside the state and events (reports are added here). */
export function turnRenderers(): TurnRenderer[] {
  return [];
}
