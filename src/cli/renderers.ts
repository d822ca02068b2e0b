import type { TurnRenderer } from '../campaign/turn-renderer.js';
import { reportRenderer } from '../report/renderer.js';

/** What `fatecraft turn` writes beside the state and events: every nation's reports and the GM's. */
export function turnRenderers(): TurnRenderer[] {
  return [reportRenderer()];
}
