import { unitName } from '../unit-name.js';
import type { TurnContext } from '../context.js';
import { sortedKeys, type NationId } from '../ids.js';
import { leaderOf } from '../leaders.js';
import type { NationState } from '../state.js';
import type { Phase } from './phase.js';

/**
 * Leaders die and heirs take over (docs/rules.md L2). A leader dies when the
 * GM or an event says so, or when the unit the leader rides with is
 * destroyed. At the end of the turn's story, an empty throne goes to the heir
 * named (by the GM, else by the player's `heir` order); with none named the
 * nation has no leader, and no ability, until one is.
 */
export const successionPhase: Phase = {
  name: 'succession',
  run(ctx: TurnContext) {
    for (const nation of sortedKeys(ctx.state.nations)) {
      const ns = ctx.nationState(nation);
      if (!ns.alive) continue;
      const leader = leaderOf(ctx.campaign, ns);
      if (leader.name !== null && leader.unit && !ctx.state.units[leader.unit]) {
        const fell = ctx.start.units[leader.unit];
                // The unit's name as written: the sentence needs no quotes to say where it begins.
        leaderDies(ctx, nation, `fell when ${fell?.name ? fell.name : fell ? unitName(ctx.campaign, fell) : 'the unit the leader rode with'} was destroyed`);
      }
      if (leaderOf(ctx.campaign, ns).name === null && ns.heir) crown(ctx, nation, ns);
    }
  },
};

/** The leader dies: the throne is empty until the succession phase crowns the heir. */
export function leaderDies(ctx: TurnContext, nation: NationId, reason: string): void {
  const ns = ctx.nationState(nation);
  const leader = leaderOf(ctx.campaign, ns);
  if (leader.name === null) return;
  ctx.emit({ type: 'leader_died', nations: [nation], nation, name: leader.name, reason });
  // The dead leader's ability is kept with the empty throne, so the heir's default is a different one.
  const ability = leader.ability?.id;
  ns.leader = { name: null, since: ctx.turn, ...(ability ? { ability } : {}) };
  if (!ns.heir) ctx.emit({ type: 'leader_vacant', nations: [nation], nation });
}

export function nameHeir(ctx: TurnContext, nation: NationId, heir: { name: string; ability?: string }, by: 'player' | 'gm'): void {
  const ns = ctx.nationState(nation);
  // The GM's word stands over the player's for the same turn.
  if (by === 'player' && ctx.orders.gm.some((a) => a.kind === 'heir' && a.nation === nation)) return;
  ns.heir = heir;
  ctx.emit({ type: 'heir_named', nations: [nation], nation, name: heir.name, ...(heir.ability ? { ability: heir.ability } : {}), by });
}

/** The heir takes the throne with the ability named, or the first of the list the dead leader did not have. */
function crown(ctx: TurnContext, nation: NationId, ns: NationState): void {
  const heir = ns.heir;
  if (!heir) return;
  const before = ns.leader?.ability;
  const ability = heir.ability ?? ctx.campaign.succession.abilities.find((a) => a !== before) ?? ctx.campaign.succession.abilities[0];
  const after = ctx.start.nations[nation] ? leaderOf(ctx.campaign, ctx.start.nations[nation]).name : null;
  ns.leader = { name: heir.name, since: ctx.turn, ...(ability ? { ability } : {}) };
  delete ns.heir;
  ctx.emit({ type: 'leader_succeeded', nations: [nation], nation, name: heir.name, ...(ability ? { ability } : {}), after });
}
