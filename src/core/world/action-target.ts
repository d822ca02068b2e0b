import { unitLabelOf } from '../unit-name.js';
import type { TurnContext } from '../context.js';
import { hexDistance, offsetOf } from '../hex.js';
import { compareIds, type HexKey, type NationId } from '../ids.js';
import type { ActTarget } from '../orders.js';
import type { ExternalState, SettlementState, UnitState } from '../state.js';
import type { ActionDef } from './action-types.js';
import type { EventTarget } from './types.js';

/**
 * Where an action lands, worked out once for the order check and again for
 * the resolution (the world may have changed in between): the hex it is
 * measured to, the nation it is done to (none for an empty hex), the place
 * the target side's effects fall on, and its name in words.
 */
export interface ActionPlace {
  hex: HexKey;
  owner?: NationId;
  where: EventTarget;
  label: string;
  settlement?: SettlementState;
  /** A route's second end. */
  other?: SettlementState;
  /** An external structure aimed at (a mortar's bombardment of a mine). */
  external?: ExternalState;
}

export interface Lookups {
  settlementsOf(nation: NationId): readonly SettlementState[];
  unitsOf(nation: NationId): readonly UnitState[];
}

export const distance = (a: HexKey, b: HexKey) => hexDistance(offsetOf(a), offsetOf(b));

/** The nearest of a nation's settlements (else units) to a hex; then by id. */
function nearestOf(look: Lookups, nation: NationId, from: HexKey): HexKey | undefined {
  const places: { id: string; hex: HexKey }[] = [...look.settlementsOf(nation)];
  if (!places.length) places.push(...look.unitsOf(nation));
  let best: { id: string; hex: HexKey; d: number } | undefined;
  for (const p of places) {
    const d = distance(from, p.hex);
    if (!best || d < best.d || (d === best.d && compareIds(p.id, best.id) < 0)) best = { id: p.id, hex: p.hex, d };
  }
  return best?.hex;
}

/** The place of an action's target, or why there is none any more. */
export function placeOf(ctx: TurnContext, look: Lookups, from: HexKey, t: ActTarget): ActionPlace | string {
  if ('nation' in t) {
    const hex = nearestOf(look, t.nation, from);
    if (!hex) return `${ctx.nationDef(t.nation).name} holds nothing to reach`;
    return { hex, owner: t.nation, where: { scope: 'nation' }, label: ctx.nationDef(t.nation).name };
  }
  if ('settlement' in t) {
    const s = ctx.settlement(t.settlement);
    if (!s) return `there is no settlement ${t.settlement}`;
    return { hex: s.hex, owner: s.nation, where: { scope: 'settlement', id: s.id, hex: s.hex }, label: s.name, settlement: s };
  }
  if ('unit' in t) {
    const u = ctx.unit(t.unit);
    if (!u) return `there is no unit ${t.unit}`;
    const type = ctx.unitType(u);
    return { hex: u.hex, owner: u.nation, where: { scope: 'unit', id: u.id, hex: u.hex }, label: unitLabelOf(type.name, u) };
  }
  if ('external' in t) {
    const e = ctx.state.externals[t.external];
    if (!e) return `there is no structure ${t.external} any more`;
    const name = ctx.campaign.externals[e.type]?.name ?? e.type;
    return { hex: e.hex, owner: e.nation, where: { scope: 'hex', hex: e.hex }, label: `the ${name} at ${e.hex}`, external: e };
  }
  if ('hex' in t) {
    const s = ctx.settlementAt(t.hex);
    return { hex: t.hex, ...(s ? { owner: s.nation, settlement: s } : {}), where: { scope: 'hex', hex: t.hex }, label: s ? `${s.name} (${t.hex})` : t.hex };
  }
  const [a, b] = t.route.map((id) => ctx.settlement(id));
  if (!a || !b) return `there is no settlement ${!a ? t.route[0] : t.route[1]}`;
  return { hex: a.hex, owner: b.nation, where: { scope: 'settlement', id: b.id, hex: b.hex }, label: `${a.name} and ${b.name}`, settlement: a, other: b };
}

/** Whether a unit of this type may take the action. */
export function mayTake(def: ActionDef, unitClass: string, unitType: string): boolean {
  return def.units.classes.includes(unitClass as never) || def.units.types.includes(unitType);
}

/** "diplomatic units", "Mortar Cannons": who may take an action, in words. */
export function takersText(ctx: TurnContext, def: ActionDef, nation: NationId): string {
  const types = def.units.types.map((t) => ctx.campaign.nations[nation]?.unitTypes[t]?.name ?? t);
  return [...def.units.classes.map((c) => `${c} units`), ...types].join(' or ');
}
