import type { TurnContext } from '../context.js';
import { compareIds } from '../ids.js';
import { resolveAction } from '../world/act.js';
import { EventScene } from '../world/scene.js';
import { tradeTurn } from '../world/trade.js';
import type { Phase } from './phase.js';

/**
 * Units that spent the turn on an action (actions.yaml) take it, after the
 * battles and sieges (a unit lost in one takes none) and before work
 * completes (so a sabotage's delay counts this turn). In unit id order; each
 * action rolls from its own stream, so the order does not change the dice.
 */
export const actionsPhase: Phase = {
  name: 'actions',
  run(ctx: TurnContext) {
    const acts = ctx.acceptedOf('act');
    if (!acts.length) return;
    const scene = new EventScene(ctx);
    for (const a of [...acts].sort((x, y) => compareIds(x.order.unit, y.order.unit))) resolveAction(ctx, scene, a);
  },
};

/** Open trade routes pay, or are cut (world/trade.ts); before the turn's income. */
export const tradePhase: Phase = {
  name: 'trade',
  run: tradeTurn,
};
