import type { TurnContext } from '../context.js';
import type { Phase } from './phase.js';
import { completeGoal } from './goals.js';
import { leaderDies, nameHeir } from './succession.js';
import { offerCompel } from '../world/compels.js';

/** The GM's adjustments for this turn (orders/<turn>/_gm.yaml), applied before anything else moves. */
export const gmPhase: Phase = {
  name: 'gm',
  run(ctx: TurnContext) {
    for (const action of ctx.orders.gm) {
      // Injected events strike in the events phase; forced rolls are in the turn's dice; aspects come and go in the aspects phase.
      if (action.kind === 'event' || action.kind === 'roll' || action.kind === 'aspect' || action.kind === 'remove_aspect') continue;
      if (!ctx.state.nations[action.nation]) continue;
      if (action.kind === 'adjust') {
        const reason = `GM: ${action.reason}`;
        ctx.applyYield(action.nation, action, reason);
      } else if (action.kind === 'leader_dies') {
        leaderDies(ctx, action.nation, action.reason);
      } else if (action.kind === 'compel') {
        offerCompel(ctx, action.nation, action, { scope: 'nation' }, 'gm');
      } else if (action.kind === 'heir') {
        nameHeir(ctx, action.nation, { name: action.name, ...(action.ability ? { ability: action.ability } : {}) }, 'gm');
      } else {
        completeGoal(ctx, action.nation, action.goal, action.reason ? `GM: ${action.reason}` : 'GM');
      }
    }
  },
};
