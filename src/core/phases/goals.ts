import type { GoalCondition } from '../campaign.js';
import type { TurnContext } from '../context.js';
import { sortedKeys, type NationId } from '../ids.js';
import type { ExternalState, SettlementState } from '../state.js';
import type { Phase } from './phase.js';
import { applyEffect } from '../world/effects.js';
import { filler } from '../world/fire.js';
import { EventScene } from '../world/scene.js';

export function completeGoal(ctx: TurnContext, nation: NationId, goalId: string, why: string): void {
  const def = ctx.nationDef(nation).goals.find((g) => g.id === goalId);
  const progress = ctx.nationState(nation).goals.find((g) => g.id === goalId);
  if (!def || !progress || progress.done) return;
  progress.done = true;
  progress.doneTurn = ctx.turn;
  ctx.emit({ type: 'goal_completed', nations: [nation], nation, goal: goalId });
  // The reason is one phrase (ledgers print it in parentheses): the GM's word is added, the ordinary case is not.
  ctx.applyYield(nation, def.reward, `goal achieved: ${def.text}${why === 'condition met' ? '' : ` — ${why === 'GM' ? 'by the GM' : why}`}`);
  if (def.effects?.length) {
    const scene = sceneOf(ctx);
    const target = { scope: 'nation' } as const;
    const struck = { scene, nation, target, event: `goal:${goalId}`, title: def.text, reason: `goal achieved: ${def.text}`, fill: filler(ctx, scene, nation, target) };
    for (const e of def.effects) applyEffect(ctx, struck, e);
  }
}

/** One scene per phase for goal rewards: indexing the world is done once, however many goals are achieved. */
const scenes = new WeakMap<TurnContext, { phase: string; scene: EventScene }>();
function sceneOf(ctx: TurnContext): EventScene {
  const had = scenes.get(ctx);
  if (had && had.phase === ctx.phase) return had.scene;
  const scene = new EventScene(ctx);
  scenes.set(ctx, { phase: ctx.phase, scene });
  return scene;
}

interface Holdings {
  settlements: SettlementState[];
  externals: ExternalState[];
}

function met(ctx: TurnContext, nation: NationId, c: GoalCondition, held: Holdings): boolean {
  const { settlements } = held;
  switch (c.kind) {
    case 'gm':
      return false;
    case 'hold_settlements':
      return settlements.length >= c.count;
    case 'control_hex':
      return settlements.some((s) => s.hex === c.hex) || ctx.unitsAt(c.hex).some((u) => u.nation === nation);
    case 'build_external':
      // Built by the nation and still its own: a captured one is not built (docs/rules.md X4).
      return held.externals.some((e) => e.type === c.structure && (e.builtBy ?? e.nation) === nation);
    case 'win_battles':
      return ctx.nationState(nation).battlesWon >= c.count;
    case 'capture_settlement':
      return settlements.some((s) => s.captured && (!c.settlement || s.id === c.settlement));
  }
}

/** Hidden goals whose condition the engine can see are checked at the end of every turn. */
export const goalsPhase: Phase = {
  name: 'goals',
  run(ctx: TurnContext) {
    // One pass over the world, so checking goals stays linear in its size.
    const holdings = new Map<NationId, Holdings>();
    const of = (n: NationId) => {
      let h = holdings.get(n);
      if (!h) holdings.set(n, (h = { settlements: [], externals: [] }));
      return h;
    };
    for (const s of Object.values(ctx.state.settlements)) of(s.nation).settlements.push(s);
    for (const e of Object.values(ctx.state.externals)) of(e.nation).externals.push(e);
    for (const nation of sortedKeys(ctx.state.nations)) {
      if (!ctx.nationState(nation).alive) continue;
      for (const goal of ctx.nationDef(nation).goals) {
        const progress = ctx.nationState(nation).goals.find((g) => g.id === goal.id);
        if (progress && !progress.done && met(ctx, nation, goal.condition, of(nation))) completeGoal(ctx, nation, goal.id, 'condition met');
      }
    }
  },
};
