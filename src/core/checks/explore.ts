import type { TurnContext } from '../context.js';
import { ladderValue, rollName } from '../fate/words.js';
import type { NationId } from '../ids.js';
import type { ExploreOrder } from '../orders.js';
import { DEFAULT_EVENT_SETTINGS } from '../world/types.js';
import { isRejected, ownUnit, unitLabel } from './lookup.js';
import { reject, type Verdict } from './verdict.js';

/** `explore <unit> [fate N]`: the unit spends its turn searching where it stands (phases/explore.ts rolls it). */
export function checkExplore(ctx: TurnContext, nation: NationId, o: ExploreOrder): Verdict {
  const unit = ownUnit(ctx, nation, o.unit);
  if (isRejected(unit)) return unit;
  const label = unitLabel(ctx, unit);
  if (unit.aboard || !ctx.map.isLand(unit.hex)) return reject(`${label} must stand on land to explore`);
  if (unit.besieging) return reject(`${label} is besieging and cannot leave the siege lines to explore`);
  const { beat, within } = ctx.campaign.events?.settings.explore ?? DEFAULT_EVENT_SETTINGS.explore;
  const around = within === 0 ? `${unit.hex}` : `${unit.hex} and within ${within} hex${within === 1 ? '' : 'es'}`;
  return { ok: true, claims: [unit.id], fate: o.fate ?? 0, summary: `${label} explores ${around}: ${rollName(ctx.rules)} to beat ${ladderValue(ctx.rules, beat)}${o.fate ? `, pledging ${o.fate} Fate` : ''}` };
}
