import { unitName } from '../unit-name.js';
import { fateModifier } from '../checks/lookup.js';
import { luckOnRoll } from '../aspects/invoke.js';
import { sumModifiers } from '../bonuses.js';
import type { TurnContext } from '../context.js';
import { nearestHidden, reveal } from '../world/effects.js';
import { DEFAULT_EVENT_SETTINGS } from '../world/types.js';
import type { Phase } from './phase.js';
import { lostName, orderUnmet } from '../unmet.js';

/**
 * Units that spent their turn exploring search where they stand: a d6 (plus
 * Fate) from the unit's own stream `explore:<unit>` against the campaign's
 * number to beat; on a success the nearest hidden resource within reach that
 * the nation does not know yet is shown to it alone (docs/rules.md E17).
 */
export const explorePhase: Phase = {
  name: 'explore',
  run(ctx: TurnContext) {
    const explorers = ctx.acceptedOf('explore');
    if (!explorers.length) return;
    const { beat, within } = ctx.campaign.events?.settings.explore ?? DEFAULT_EVENT_SETTINGS.explore;
    for (const a of explorers) {
      const unit = ctx.unit(a.order.unit);
      // Lost in a battle this turn: the search ends with it.
      if (!unit || unit.nation !== a.nation) {
        orderUnmet(ctx, a, 'unit_lost', `did not explore: ${lostName(ctx, a.order.unit)} was lost before it could`);
        continue;
      }
      const roll = ctx.dice.stream(`explore:${unit.id}`).roll('d6', a.nation);
      const n = ctx.nationState(a.nation);
      const bought = fateModifier(ctx.rules.fateTable, Math.min(a.order.fate ?? 0, n.fate));
      if (bought.cost > 0) ctx.changeResource(a.nation, 'fate', -bought.cost, `Fate spent for +${bought.modifier} exploring with ${unitName(ctx.campaign, unit)}`);
      // Helpful and hindering aspects of exploring (docs/rules.md A8), drawn from the unit's own stream after its die.
      const luck = ctx.rules.fate.aspects ? sumModifiers(luckOnRoll(ctx, { nation: a.nation, what: `exploring with ${unitName(ctx.campaign, unit)}`, scene: { nations: [a.nation], hex: unit.hex, units: [unit.id] }, stream: ctx.dice.stream(`invoke:explore:${unit.id}`) }, 'explore')) : 0;
      const total = roll.value + bought.modifier + luck;
      const found = total > beat ? nearestHidden(ctx, a.nation, [unit.hex], within, undefined) : undefined;
      ctx.emit({ type: 'explore_roll', nations: [a.nation], nation: a.nation, unit: unit.id, at: unit.hex, beat, roll, fateSpent: bought.cost, modifier: bought.modifier, ...(luck ? { luck } : {}), total, found: found !== undefined });
      if (found) reveal(ctx, a.nation, found);
    }
  },
};
