import type { TurnContext } from '../context.js';
import type { NationId } from '../ids.js';
import type { AcceptTradeOrder, ActOrder } from '../orders.js';
import { WorldIndex } from '../world-index.js';
import { distance, mayTake, placeOf, takersText } from '../world/action-target.js';
import { isRejected, ownUnit, unitLabel } from './lookup.js';
import { reject, type Verdict } from './verdict.js';
import { withArticle } from '../prose.js';
import { actionLocks, holdsUnlock } from '../structure-perks.js';

/**
 * `act <action> with <unit> on <target>` (or "<unit> spies on Gondarahl"):
 * the unit takes an action of the catalogue instead of moving. Checked here
 * against the start of the turn: the unit may take it, the target is of the
 * kind and whose the action allows and within its range; phases/actions.ts
 * rolls it.
 */
export function checkAct(ctx: TurnContext, nation: NationId, o: ActOrder): Verdict {
  const def = ctx.campaign.actions?.entries[o.action];
  if (!def) return reject(`there is no action "${o.action}"`);
  const unit = ownUnit(ctx, nation, o.unit);
  if (isRejected(unit)) return unit;
  const lock = actionLocks(ctx.campaign).get(def.id);
  if (lock && !holdsUnlock(ctx, nation, lock)) {
    const names = [...lock.structures.map((id) => ctx.campaign.structures[id]?.name ?? id), ...lock.externals.map((id) => ctx.campaign.externals[id]?.name ?? id)];
    return reject(`${def.name} needs ${names.map(withArticle).join(' or ')}, and your nation holds none`, `build one first; the action is open to you from the turn after it stands`);
  }
  const label = unitLabel(ctx, unit);
  const type = ctx.unitType(unit);
  if (!mayTake(def, type.class, type.id)) return reject(`${label} cannot take the action ${def.name}: it is for ${takersText(ctx, def, nation)}`, `${type.name} is ${withArticle(type.class)} unit`);
  if (unit.aboard) return reject(`${label} is aboard a ship and must land to act`);
  if (unit.besieging) return reject(`${label} is besieging and cannot leave the siege lines to act`);
  const index = WorldIndex.of(ctx.campaign, ctx.start);
  const place = placeOf(ctx, index, unit.hex, o.target);
  if (typeof place === 'string') return reject(place);
  // A structure is aimed at as an attack names it: one's own, or one in sight (a hidden one reads like none).
  if (place.external && place.owner !== nation && !index.sees(nation, place.hex)) return reject(`you see no structure ${place.external.id}`, 'name a mine or dig site in sight by where it stands, e.g. "the mine at 9,4"');
  const fits = (d: typeof def) => d.whose === 'any' || (d.whose === 'own') === (place.owner === nation);
  if (!fits(def)) {
    // "preaches in" is Preaching at home and Spreading the faith abroad: the action of the same verb that fits.
    const sibling = Object.values(ctx.campaign.actions?.entries ?? {}).find((d) => d.id !== def.id && d.verb === def.verb && fits(d) && mayTake(d, type.class, type.id));
    if (sibling) {
      const v = checkAct(ctx, nation, { ...o, action: sibling.id });
      return v.ok ? { ...v, order: { ...o, action: sibling.id } } : v;
    }
  }
  if (def.whose === 'own' && place.owner !== nation) return reject(`${def.name} is for your own ${def.targets.join(' or ')}; ${place.label} is not yours`, otherVerb(ctx, def.id, def.verb, 'foreign'));
  if (def.whose === 'foreign' && place.owner === nation) return reject(`${def.name} is against another nation; ${place.label} is yours`, otherVerb(ctx, def.id, def.verb, 'own'));
  if (place.other) {
    if (place.settlement?.id === place.other.id) return reject('a trade route joins two different settlements');
    if (place.settlement?.nation !== nation && place.other.nation !== nation) return reject(`a trade route starts at one of your own settlements; neither ${place.label} is yours`);
    const length = distance(place.settlement!.hex, place.other.hex);
    if (length > def.length) return reject(`${place.label} are ${length} hexes apart; a route is at most ${def.length}`);
    const near = Math.min(distance(unit.hex, place.settlement!.hex), distance(unit.hex, place.other.hex));
    if (near > def.range) return reject(`${label} at ${unit.hex} is ${near} hexes from the nearer end; ${def.name} needs it within ${def.range}`);
  } else {
    const d = distance(unit.hex, place.hex);
    if (d > def.range) return reject(`${label} at ${unit.hex} is ${d} hex${d === 1 ? '' : 'es'} from ${place.label}; ${def.name} reaches ${def.range === 0 ? 'only the hex the unit stands on' : `${def.range} hex${def.range === 1 ? '' : 'es'}`}`);
  }
  if (o.aim && place.external) return reject(`${place.label} is razed whole: leave out "aiming at ${o.aim}"`);
  if (o.aim && !def.outcomes.success?.target.some((e) => e.kind === 'damage') && !def.outcomes.great?.target.some((e) => e.kind === 'damage')) {
    return reject(`${def.name} aims at nothing within a place: leave out "aiming at ${o.aim}"`);
  }
  const foreign = place.other ? [place.settlement!, place.other].find((s) => s.nation !== nation) : undefined;
  const consent = foreign ? `; ${ctx.nationDef(foreign.nation).name} must write "accept trade with ${ctx.nationDef(nation).name}" this turn` : '';
  const roll = def.roll ? `a d6 to beat ${def.roll.beat}${o.fate ? `, pledging ${o.fate} Fate` : ''}` : 'no roll';
  return { ok: true, claims: [unit.id], fate: def.roll ? (o.fate ?? 0) : 0, summary: `${label} ${def.verb} ${place.label}${o.aim ? `, aiming at ${o.aim}` : ''} (${def.name}: ${roll}${consent})` };
}

/** "did you mean ...": the action with the same verb for the other side, if the catalogue has one. */
function otherVerb(ctx: TurnContext, id: string, verb: string, whose: 'own' | 'foreign'): string | undefined {
  const other = Object.values(ctx.campaign.actions?.entries ?? {}).find((a) => a.id !== id && a.verb === verb && (a.whose === whose || a.whose === 'any'));
  return other ? `"${verb}" finds ${other.name} on ${whose === 'own' ? 'your own' : 'foreign'} ground` : undefined;
}

export function checkAcceptTrade(ctx: TurnContext, nation: NationId, o: AcceptTradeOrder): Verdict {
  if (o.with === nation) return reject('a nation needs no consent for routes between its own settlements');
  if (!ctx.campaign.nations[o.with]) return reject(`there is no nation ${o.with}`);
  return { ok: true, claims: [], summary: `Trade routes ${ctx.nationDef(o.with).name} opens to your settlements this turn are welcome` };
}
