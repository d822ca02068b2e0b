import { pledgeNote, warfareNote } from './battle-plan.js';
import { isMilitaryClass } from '../campaign.js';
import type { TurnContext } from '../context.js';
import type { HexKey, NationId, UnitId } from '../ids.js';
import type {
  AssaultOrder,
  AttackOrder,
  ConstructOrder,
  DefendOrder,
  FoundOrder,
  HoldOrder,
  MoveOrder,
  RestOrder,
  SiegeActionOrder,
  SortieOrder,
} from '../orders.js';
import type { UnitState } from '../state.js';
import { siegeStepNumber, siegeStepText } from '../siege-steps.js';
import { WorldIndex } from '../world-index.js';
import { lossText, WorkIndex, type UnitWork } from '../work.js';
import { canReach, isRejected, ownUnit, reachOf, startOfTurn, unitLabel, unitsText } from './lookup.js';
import { outOfReach } from './out-of-reach.js';
import { withArticle } from '../prose.js';
import { reject, type Rejected, type Verdict } from './verdict.js';
import { checkAttackExternal, checkDefendExternal } from './external-orders.js';
import { attackCarriedOut, checkSupporters } from './supporters.js';

/** Checkers for orders given to a unit. Each is a pure look at the state. */

function military(ctx: TurnContext, unit: UnitState): boolean {
  return isMilitaryClass(ctx.unitType(unit).class);
}

/** How a sheet says to give work up, quoted in refusals (docs/orders.md). */
const ABANDON_HINT = 'the work goes on; to give it up, add "abandon: true" to the order (in a plain-text sheet, end the line with "abandoning")';

/**
 * The work in progress the units an order takes away would leave behind.
 * Under rules.abandonWork "confirm" (the default) the order is refused unless
 * it says `abandon`, and the work goes on; otherwise the work is listed on
 * the accepted order, for the receipt's warning.
 */
function leavingWork(ctx: TurnContext, units: readonly UnitState[], abandon: boolean | undefined): UnitWork[] | Rejected {
  const index = WorkIndex.of(ctx.campaign, ctx.start);
  const work = units.flatMap((u) => index.workOf(u));
  if (work.length === 0 || abandon || ctx.rules.abandonWork === 'allow') return work;
  const label = (id: UnitId) => {
    const u = ctx.unit(id);
    return u ? unitLabel(ctx, u) : id;
  };
  return reject(`${work.map((w) => `${label(w.unit)} would abandon ${lossText(w)}`).join('; ')}`, ABANDON_HINT);
}

export function checkMove(ctx: TurnContext, nation: NationId, o: MoveOrder): Verdict {
  const unit = ownUnit(ctx, nation, o.unit);
  if (isRejected(unit)) return unit;
  const type = ctx.unitType(unit);
  const label = unitLabel(ctx, unit);
  if (!ctx.map.contains(o.to)) return reject(`${o.to} is off the map`, `the map runs from 0,0 to ${ctx.map.width - 1},${ctx.map.height - 1}`);
  if (o.to === unit.hex) return reject(`${label} is already at ${o.to}`, 'use "hold" to stay put');
  if (unit.aboard) {
    if (!ctx.map.adjacent(unit.hex).includes(o.to) || !ctx.map.isLand(o.to)) {
      return reject(`${label} is aboard ship and can only go ashore on a land hex next to ${unit.hex}`);
    }
    return { ok: true, claims: [unit.id], path: [o.to], summary: `${label} goes ashore ${unit.hex} → ${o.to}` };
  }
  const naval = type.class === 'naval';
  const ports = naval ? ctx.portsOf(nation) : undefined;
  let path = o.path;
  let cost: number;
  if (path && path.length > 0) {
    if (path[path.length - 1] !== o.to) path = [...path, o.to];
    const walked = ctx.map.walk(unit.hex, path, naval ? 'naval' : 'land', ports, ctx.rules.minimumMove ? type.speed : undefined);
    if ('problem' in walked) return reject(`${label} cannot take that path: ${walked.problem}`);
    cost = walked.cost;
  } else {
    const reach = reachOf(ctx, unit);
    const found = reach.pathTo(o.to);
    if (!found) {
      const far = outOfReach(ctx, unit, o.to);
      return reject(`${label} cannot get to ${o.to}${far.later ? ' this turn' : ''}: ${far.why}`, far.hint);
    }
    path = found;
    cost = reach.costTo(o.to) ?? 0;
  }
  if (cost > type.speed) return reject(`the path costs ${cost} movement points; ${label} has speed ${type.speed}`);
  const claims: UnitId[] = [unit.id];
  const moving: UnitState[] = [unit];
  let summary = `${label} moves ${[unit.hex, ...path].join(' → ')}`;
  if (o.carry?.length) {
    if (!naval) return reject(`only ships carry units; ${label} is ${type.class}`);
    const capacity = type.capacity ?? 0;
    if (o.carry.length > capacity) return reject(`${label} carries at most ${capacity} units`);
    for (const id of o.carry) {
      const passenger = ownUnit(ctx, nation, id);
      if (isRejected(passenger)) return passenger;
      if (passenger.hex !== unit.hex) return reject(`${id} must be at ${unit.hex} to board ${label}`);
      if (ctx.unitType(passenger).class === 'naval') return reject(`${id} is a ship and cannot be carried`);
      claims.push(passenger.id);
      moving.push(passenger);
    }
    if (o.landAt) {
      if (!ctx.map.adjacent(o.to).includes(o.landAt) || !ctx.map.isLand(o.landAt)) {
        return reject(`carried units can land only on a land hex next to ${o.to}, not ${o.landAt}`);
      }
      summary += `, carrying ${o.carry.join(', ')} ashore at ${o.landAt}`;
    } else {
      summary += `, carrying ${o.carry.join(', ')}`;
    }
  } else if (o.landAt) {
    return reject('landAt needs units to carry');
  }
  const work = leavingWork(ctx, moving, o.abandon);
  if (isRejected(work)) return work;
  return { ok: true, claims, path, summary, ...(work.length ? { abandons: work } : {}) };
}

export function checkAttack(ctx: TurnContext, nation: NationId, o: AttackOrder): Verdict {
  const unit = ownUnit(ctx, nation, o.unit);
  if (isRejected(unit)) return unit;
  const label = unitLabel(ctx, unit);
  if ('external' in o.target) return checkAttackExternal(ctx, nation, o, o.target.external);
  if (!military(ctx, unit)) return reject(`${label} is a diplomatic unit and cannot attack`);
  if (unit.besieging) return reject(`${label} is besieging ${unit.besieging}`, 'use "assault" to storm it, or move away to lift the siege');
  let at;
  let what: string;
  if ('unit' in o.target) {
    const target = ctx.unit(o.target.unit);
    // A hidden unit and a missing one get the same answer: orders must not reveal what fog hides.
    if (!target || (target.nation !== nation && !WorldIndex.of(ctx.campaign, ctx.start).sees(nation, target.hex))) {
      return reject(`you see no unit ${o.target.unit}`, 'you can attack units within sight of your units and settlements');
    }
    if (target.nation === nation) return reject(`${o.target.unit} is one of your own units`);
    const home = ctx.settlementAt(target.hex);
    if (home && home.nation === target.nation) {
      return reject(`${o.target.unit} is inside ${home.name}`, `attack the settlement: "attack ${home.id}"`);
    }
    at = target.hex;
    what = unitLabel(ctx, target);
  } else {
    const s = ctx.settlement(o.target.settlement);
    if (!s) return reject(`there is no settlement ${o.target.settlement}`);
    if (s.nation === nation) return reject(`${s.name} is your own settlement`);
    at = s.hex;
    what = `${s.name} (${s.id})`;
  }
  if (!canReach(ctx, unit, at)) {
    const far = outOfReach(ctx, unit, at);
    return reject(`${label} cannot reach ${at}${far.later ? ' this turn' : ''}: ${far.why}`, far.hint);
  }
  const target = at;
  const supporters = checkSupporters(ctx, nation, o.support, at, (s) =>
    !military(ctx, s)
      ? reject(`${unitLabel(ctx, s)} is a diplomatic unit and does not fight`, 'leave it out of the attack')
      : canReach(ctx, s, target)
        ? undefined
        : { outOfReach: outOfReach(ctx, s, target).why },
  );
  if (isRejected(supporters)) return supporters;
  const support = supporters.kept;
  const carriedOut = attackCarriedOut(o, supporters);
  // Units not already at the target go there (or may advance into it): they leave what they were doing.
  const going = [unit, ...support.map((id) => ctx.unit(id)).filter((u): u is UnitState => u !== undefined)].filter((u) => u.hex !== at);
  const work = leavingWork(ctx, going, o.abandon);
  if (isRejected(work)) return work;
  const fate = o.fate ?? 0;
  const verb = 'settlement' in o.target ? 'besieges' : 'attacks';
  const supportText = support.length ? ` with ${unitsText(ctx, support)}` : '';
  const fateText = fate ? `, spending up to ${fate} Fate` : '';
  return {
    ok: true,
    claims: [unit.id, ...support],
    fate,
    path: reachOf(ctx, unit).pathTo(at) ?? [],
    summary: `${label} ${verb} ${what} at ${at}${supportText}${fateText}${'unit' in o.target ? warfareNote(ctx, at, 1 + support.length, o) : ''}`,
    ...(work.length ? { abandons: work } : {}),
    ...(carriedOut ? { order: carriedOut, warnings: supporters.warnings } : {}),
  };
}

export function checkDefend(ctx: TurnContext, nation: NationId, o: DefendOrder): Verdict {
  const unit = ownUnit(ctx, nation, o.unit);
  if (isRejected(unit)) return unit;
  if ('external' in o.protect) return checkDefendExternal(ctx, nation, o, o.protect.external);
  const label = unitLabel(ctx, unit);
  if (!military(ctx, unit)) return reject(`${label} is a diplomatic unit and cannot defend`);
  let at;
  let target: string;
  if ('unit' in o.protect) {
    const ward = ownUnit(ctx, nation, o.protect.unit);
    if (isRejected(ward)) return ward;
    at = ward.hex;
    target = unitLabel(ctx, ward);
  } else {
    const s = ctx.settlement(o.protect.settlement);
    if (!s || s.nation !== nation) return reject(`you hold no settlement ${o.protect.settlement}`);
    at = s.hex;
    target = s.name;
  }
  if (!canReach(ctx, unit, at)) {
    const far = outOfReach(ctx, unit, at);
    return reject(`${label} cannot reach ${at} to defend it${far.later ? ' this turn' : ''}: ${far.why}`, far.hint);
  }
  return { ok: true, claims: [unit.id], fate: o.fate ?? 0, summary: `${label} stands ready to defend ${target}${o.fate ? `, pledging ${o.fate} Fate` : ''}${pledgeNote(ctx, at, battleKind(ctx, nation, at), o.fate)}` };
}

/** The battle a defence at `at` meets: an assault inside one's own settlement, else an open battle. */
function battleKind(ctx: TurnContext, nation: NationId, at: HexKey): 'open' | 'assault' {
  return ctx.settlementAt(at)?.nation === nation ? 'assault' : 'open';
}

export function checkRest(ctx: TurnContext, nation: NationId, o: RestOrder): Verdict {
  const unit = ownUnit(ctx, nation, o.unit);
  if (isRejected(unit)) return unit;
  const label = unitLabel(ctx, unit);
  const note = unit.health === 'healthy' ? ' (already healthy)' : ' to heal';
  return { ok: true, claims: [unit.id], summary: `${label} rests${note}` };
}

export function checkHold(ctx: TurnContext, nation: NationId, o: HoldOrder): Verdict {
  const unit = ownUnit(ctx, nation, o.unit);
  if (isRejected(unit)) return unit;
  return { ok: true, claims: [unit.id], fate: o.fate ?? 0, summary: `${unitLabel(ctx, unit)} holds at ${unit.hex}${o.fate ? `, pledging ${o.fate} Fate if attacked` : ''}${pledgeNote(ctx, unit.hex, battleKind(ctx, nation, unit.hex), o.fate)}` };
}

export function checkConstruct(ctx: TurnContext, nation: NationId, o: ConstructOrder): Verdict {
  const unit = ownUnit(ctx, nation, o.unit);
  if (isRejected(unit)) return unit;
  const label = unitLabel(ctx, unit);
  const type = ctx.unitType(unit);
  const ext = ctx.campaign.externals[o.structure];
  if (!ext) return reject(`there is no external structure "${o.structure}"`, `known: ${Object.keys(ctx.campaign.externals).join(', ')}`);
  if (!(type.canConstruct ?? []).includes(ext.id)) {
    return reject(`${label} cannot build ${withArticle(ext.name)}`, type.canConstruct?.length ? `it can build: ${type.canConstruct.join(', ')}` : 'a suitable diplomatic unit is needed');
  }
  const found = (r: { hex: string; kind: string }) => r.hex === unit.hex && r.kind === ext.requiresResource;
  const revealed = ctx.start.nations[nation]?.revealed?.includes(unit.hex) === true;
  if (ext.requiresResource && !ctx.campaign.map.resources.some(found) && !(revealed && (ctx.campaign.map.hiddenResources ?? []).some(found))) {
    return reject(`${withArticle(ext.name)} needs ${ext.requiresResource} at the site; there is none at ${unit.hex}`);
  }
  if (startOfTurn(ctx).externalHexes.has(unit.hex)) return reject(`there is already a structure at ${unit.hex}`);
  return { ok: true, claims: [unit.id], renown: ext.cost, slots: [{ key: `site:${unit.hex}`, limit: 1, label: `one structure at ${unit.hex}` }], summary: `${label} builds ${withArticle(ext.name)} at ${unit.hex} (${ext.cost} Renown, ${ext.turns} turn${ext.turns === 1 ? '' : 's'})` };
}

export function checkFound(ctx: TurnContext, nation: NationId, o: FoundOrder): Verdict {
  const unit = ownUnit(ctx, nation, o.unit);
  if (isRejected(unit)) return unit;
  const label = unitLabel(ctx, unit);
  if (!ctx.unitType(unit).canFound) return reject(`${label} cannot found settlements`, 'a settler-type diplomatic unit is needed');
  if (!ctx.map.isLand(unit.hex) || unit.aboard) return reject(`${label} must stand on land to found a settlement`);
  if (ctx.settlementAt(unit.hex)) return reject(`there is already a settlement at ${unit.hex}`);
  if (!o.name.trim()) return reject('a new settlement needs a name');
  const cost = ctx.rules.newSettlementCost;
  return { ok: true, claims: [unit.id], renown: cost, slots: [{ key: `site:${unit.hex}`, limit: 1, label: `one settlement at ${unit.hex}` }], summary: `${label} founds the village of ${o.name} at ${unit.hex} (${cost} Renown, ready next turn)` };
}

function besieger(ctx: TurnContext, nation: NationId, id: UnitId) {
  const unit = ownUnit(ctx, nation, id);
  if (isRejected(unit)) return unit;
  if (!unit.besieging) return reject(`${unitLabel(ctx, unit)} is not besieging anything`, 'attack a settlement first to besiege it');
  const s = ctx.settlement(unit.besieging);
  if (!s || s.nation === nation) return reject(`the siege by ${unit.id} has ended`);
  return { unit, settlement: s };
}

export function checkSiegeAction(ctx: TurnContext, nation: NationId, o: SiegeActionOrder): Verdict {
  const b = besieger(ctx, nation, o.unit);
  if (isRejected(b)) return b;
  const s = b.settlement;
  const walls = s.battlements.length ? `${s.name}'s battlements are ${[...s.battlements].sort((x, y) => x - y).map((l) => `+${l}`).join(' ')}` : `${s.name} has no battlements left`;
  for (const step of [o, ...(o.then ?? [])]) {
    if (step.action !== 'destroy_battlement') continue;
    if (s.battlements.length === 0) return reject(`${s.name} has no battlements left`, 'poison the water or assault instead');
    if (step.battlement !== undefined && !s.battlements.includes(step.battlement)) return reject(`${s.name} has no +${step.battlement} battlement`, walls);
  }
  const number = siegeStepNumber(ctx, s, o);
  for (const step of o.then ?? []) {
    const further = siegeStepNumber(ctx, s, step);
    if (further !== undefined && number !== undefined && further > number) {
      return reject(`${siegeStepText(step)} (beat ${further}) is harder than the first action, ${siegeStepText(o)} (beat ${number}); each further 3 points buy an equal or lesser action`, `put the hardest action first, or leave ${siegeStepText(step)} out`);
    }
  }
  const then = o.then?.length ? `, then ${o.then.map(siegeStepText).join(', ')}` : '';
  return { ok: true, claims: [b.unit.id], fate: o.fate ?? 0, summary: `${unitLabel(ctx, b.unit)} tries to ${siegeStepText(o)} of ${s.name}${then}${o.fate ? `, spending up to ${o.fate} Fate` : ''}` };
}

export function checkAssault(ctx: TurnContext, nation: NationId, o: AssaultOrder): Verdict {
  const b = besieger(ctx, nation, o.unit);
  if (isRejected(b)) return b;
  const support = o.support ?? [];
  if (support.length > ctx.rules.maxSupportUnits) return reject(`at most ${ctx.rules.maxSupportUnits} units can join an assault`);
  for (const id of support) {
    const s = ownUnit(ctx, nation, id);
    if (isRejected(s)) return s;
    if (s.besieging !== b.settlement.id) return reject(`${unitLabel(ctx, s)} is not besieging ${b.settlement.name}`);
  }
  return { ok: true, claims: [b.unit.id, ...support], fate: o.fate ?? 0, summary: `${unitLabel(ctx, b.unit)} assaults ${b.settlement.name}${support.length ? ` with ${unitsText(ctx, support)}` : ''}${o.fate ? `, spending up to ${o.fate} Fate` : ''}${warfareNote(ctx, b.settlement.hex, 1 + support.length, o, 'assault')}` };
}

export function checkSortie(ctx: TurnContext, nation: NationId, o: SortieOrder): Verdict {
  const unit = ownUnit(ctx, nation, o.unit);
  if (isRejected(unit)) return unit;
  const label = unitLabel(ctx, unit);
  const home = ctx.settlementAt(unit.hex);
  if (!home || home.nation !== nation) return reject(`${label} is not inside one of your settlements`);
  if (!military(ctx, unit)) return reject(`${label} is a diplomatic unit and cannot sortie`);
  const target = ctx.unit(o.target);
  if (!target || target.besieging !== home.id) return reject(`${o.target} is not besieging ${home.name}`);
  return { ok: true, claims: [unit.id], fate: o.fate ?? 0, summary: `${label} sallies out of ${home.name} against ${unitLabel(ctx, target)}${o.fate ? `, spending up to ${o.fate} Fate` : ''}` };
}
