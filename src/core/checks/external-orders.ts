import { isMilitaryClass } from '../campaign.js';
import type { TurnContext } from '../context.js';
import type { ExternalId, NationId, UnitId } from '../ids.js';
import type { AttackOrder, DefendOrder } from '../orders.js';
import type { ExternalState, UnitState } from '../state.js';
import { WorldIndex } from '../world-index.js';
import { isRejected, ownUnit, unitLabel, unitsText } from './lookup.js';
import { attackCarriedOut, checkSupporters } from './supporters.js';
import { reject, type Rejected, type Verdict } from './verdict.js';

/**
 * Attacking and defending external structures (docs/rules.md X1-X2). A
 * structure is fought over where it stands: the units strike from its hex or
 * one next to it and do not move, so the check needs no path.
 */

/** "the Silver mine at 9,4", with "of Gondarahl" when it is not the reader's. */
export function externalLabel(ctx: TurnContext, e: ExternalState, reader?: NationId): string {
  const name = ctx.campaign.externals[e.type]?.name ?? e.type;
  return `the ${name}${reader !== undefined && e.nation !== reader ? ` of ${ctx.nationDef(e.nation).name}` : ''} at ${e.hex}`;
}

/** A structure the nation may name: its own, or one in sight. A hidden one reads like one that does not exist. */
function knownExternal(ctx: TurnContext, nation: NationId, id: ExternalId): ExternalState | Rejected {
  const e = ctx.start.externals[id];
  if (!e || (e.nation !== nation && !WorldIndex.of(ctx.campaign, ctx.start).sees(nation, e.hex))) {
    return reject(`you see no structure ${id}`, 'name a mine or dig site in sight by where it stands, e.g. "the mine at 9,4"');
  }
  return e;
}

const atOrNext = (ctx: TurnContext, unit: UnitState, e: ExternalState) => unit.hex === e.hex || ctx.map.adjacent(e.hex).includes(unit.hex);

/** A unit that can fight for the structure: the player's, military, on land, at or next to it. */
function fighter(ctx: TurnContext, nation: NationId, id: UnitId, e: ExternalState, verb: string): UnitState | Rejected {
  const unit = ownUnit(ctx, nation, id);
  if (isRejected(unit)) return unit;
  const label = unitLabel(ctx, unit);
  if (!isMilitaryClass(ctx.unitType(unit).class)) return reject(`${label} is a diplomatic unit and cannot ${verb} a structure`, 'only military units fight for structures');
  if (unit.aboard) return reject(`${label} is aboard ship; it must land first`);
  if (unit.besieging) return reject(`${label} is besieging ${unit.besieging}`, 'move away to lift the siege first');
  if (!atOrNext(ctx, unit, e)) {
    return reject(`${label} at ${unit.hex} is not at or next to ${externalLabel(ctx, e, nation)}`, `a structure is ${verb === 'attack' ? 'attacked' : 'defended'} from its own hex or one next to it: move there first`);
  }
  return unit;
}

export function checkAttackExternal(ctx: TurnContext, nation: NationId, o: AttackOrder, id: ExternalId): Verdict {
  const e = knownExternal(ctx, nation, id);
  if (isRejected(e)) return e;
  if (e.nation === nation) return reject(`${externalLabel(ctx, e)} is your own structure`);
  const unit = fighter(ctx, nation, o.unit, e, 'attack');
  if (isRejected(unit)) return unit;
  // As in an open attack, a supporter that cannot get there (aboard ship, or not at or next to the structure) is left out with a warning; one that may not fight refuses the order.
  const supporters = checkSupporters(ctx, nation, o.support, externalLabel(ctx, e, nation), (s) => {
    if (isMilitaryClass(ctx.unitType(s).class) && !s.besieging && (s.aboard || !atOrNext(ctx, s, e))) {
      return { outOfReach: s.aboard ? 'it is aboard ship and must land first' : `it is at ${s.hex}, not at or next to it` };
    }
    const f = fighter(ctx, nation, s.id, e, 'attack');
    return isRejected(f) ? f : undefined;
  });
  if (isRejected(supporters)) return supporters;
  const { kept: support, warnings } = supporters;
  const carriedOut = attackCarriedOut(o, supporters);
  const fate = o.fate ?? 0;
  const supportText = support.length ? ` with ${unitsText(ctx, support)}` : '';
  return {
    ok: true,
    claims: [unit.id, ...support],
    fate,
    summary: `${unitLabel(ctx, unit)} attacks ${externalLabel(ctx, e, nation)}${supportText}${o.destroy ? ', to destroy it' : ''}${fate ? `, spending up to ${fate} Fate` : ''}`,
    ...(carriedOut ? { order: carriedOut, warnings } : {}),
  };
}

export function checkDefendExternal(ctx: TurnContext, nation: NationId, o: DefendOrder, id: ExternalId): Verdict {
  const e = ctx.start.externals[id];
  if (!e || e.nation !== nation) return reject(`you hold no structure ${id}`);
  const unit = fighter(ctx, nation, o.unit, e, 'defend');
  if (isRejected(unit)) return unit;
  return { ok: true, claims: [unit.id], fate: o.fate ?? 0, summary: `${unitLabel(ctx, unit)} stands ready to defend ${externalLabel(ctx, e)}${o.fate ? `, pledging ${o.fate} Fate` : ''}` };
}
