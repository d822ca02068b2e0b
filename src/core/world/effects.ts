import { isMilitaryClass, type Resource, type UnitClass } from '../campaign.js';
import type { TurnContext } from '../context.js';
import { hexDistance, hexesWithin, hexKey, offsetOf } from '../hex.js';
import { compareIds, type HexKey, type NationId, type SettlementId, type UnitId } from '../ids.js';
import type { AspectPlace, SettlementState, UnitState } from '../state.js';
import { luckOf, placeAspect } from '../aspects/store.js';
import { setTask } from './pending.js';
import { offerCompel } from './compels.js';
import { revolt } from './revolt.js';
import { civilWar } from './civil-war.js';
import type { EventScene } from './scene.js';
import type { Effect, EventTarget } from './types.js';

/**
 * The interpreter of effects: each changes the state through the turn
 * context's helpers or emits its own logged event, so the audit, the ledgers
 * and the reports see every change with its reason.
 */
export interface Struck {
  scene: EventScene;
  nation: NationId;
  target: EventTarget;
  /** The event's id and title, for reasons and follow-ups. */
  event: string;
  title: string;
  /** Fills {nation}, {settlement}... in a text of the event. */
  fill: (text: string) => string;
  /** The reason ledger lines and unit losses give; "event: <title>" unless said. */
  reason?: string;
}

function settlementOf(ctx: TurnContext, target: EventTarget): SettlementState | undefined {
  if (target.scope === 'settlement') return ctx.settlement(target.id as SettlementId);
  if (target.scope === 'nation') return undefined;
  return ctx.settlementAt(target.hex);
}

const classOf = (ctx: TurnContext, u: UnitState): UnitClass | undefined => ctx.campaign.nations[u.nation]?.unitTypes[u.type]?.class;

/** The unit an effect falls on: the event's own unit, or the nation's first (by id) at the event's place. */
function unitOf(ctx: TurnContext, s: Struck, cls: UnitClass | undefined): UnitState | undefined {
  const fits = (u: UnitState | undefined) => u !== undefined && u.nation === s.nation && (!cls || classOf(ctx, u) === cls);
  if (s.target.scope === 'unit') {
    const u = ctx.unit(s.target.id as UnitId);
    return fits(u) ? u : undefined;
  }
  if (s.target.scope === 'nation') return undefined;
  return ctx.unitsAt(s.target.hex).find(fits);
}

/** Where a new unit appears: the event's place, else the capital, else the first settlement or unit. */
function birthplace(s: Struck): HexKey | undefined {
  if (s.target.scope !== 'nation') return s.target.hex;
  const own = s.scene.settlementsOf(s.nation);
  return (own.find((x) => x.level === 'capital') ?? own[0])?.hex ?? s.scene.unitsOf(s.nation)[0]?.hex;
}

/** The unit a new one replaces at the cap: bloodied first, then fewest bonus points, then id (as C5's default). */
function weakest(ctx: TurnContext, units: readonly UnitState[]): UnitState | undefined {
  const points = (u: UnitState) => ctx.unitBonuses(u).reduce((n, b) => n + Math.max(0, b.value), 0);
  return [...units].sort((a, b) => (a.health === b.health ? 0 : a.health === 'bloodied' ? -1 : 1) || points(a) - points(b) || compareIds(a.id, b.id))[0];
}

/** The cheapest unit type of a class the nation can raise anywhere: no special structure, not locked (then by id). */
function ordinaryType(ctx: TurnContext, nation: NationId, cls: UnitClass | undefined) {
  const types = Object.values(ctx.nationDef(nation).unitTypes).filter((t) => (!cls || t.class === cls) && !t.requiresStructure && !t.locked);
  const cost = (t: (typeof types)[number]) => t.cost ?? ctx.rules.unitCost[t.class];
  return types.sort((a, b) => cost(a) - cost(b) || compareIds(a.id, b.id))[0];
}

function gainUnit(ctx: TurnContext, s: Struck, e: Extract<Effect, { kind: 'unit_gained' }>, reason: string): void {
  const wanted = e.unitType ?? `${e.class ?? 'unit'}`;
  const forgo = (why: string) => ctx.emit({ type: 'unit_forgone', nations: [s.nation], nation: s.nation, unitType: wanted, reason: `${reason}: ${why}` });
  const type = e.unitType ? ctx.nationDef(s.nation).unitTypes[e.unitType] : ordinaryType(ctx, s.nation, e.class);
  if (!type) return forgo(e.unitType ? `the nation has no unit type "${e.unitType}"` : `the nation has no ordinary ${e.class ?? ''} unit type`);
  const at = birthplace(s);
  if (!at) return forgo('the nation has nowhere to raise it');
  const military = isMilitaryClass(type.class);
  const cap = ctx.nationDef(s.nation).caps[military ? 'military' : 'diplomatic'];
  if (s.scene.headcount(s.nation, military) >= cap) {
    if (e.atCap === 'forgo') return forgo(`the nation is at its cap of ${cap} ${military ? 'military' : 'diplomatic'} units`);
    const old = weakest(ctx, s.scene.unitsOf(s.nation).filter((u) => isMilitaryClass(ctx.unitType(u).class) === military));
    if (!old) return forgo(`the nation is at its cap of ${cap} with units still in training`);
    ctx.destroyUnit(old, `${reason}: replaced by a new ${type.name} (the cap is ${cap})`, [s.nation]);
    s.scene.unitRemoved(old);
  }
  s.scene.unitAdded(ctx.createUnit(s.nation, type.id, at, e.name ? { name: e.name } : {}));
}

/** The nearest hidden resource (of a kind) within `within` hexes of the places that the nation does not know yet; nearest first, then by hex. */
export function nearestHidden(ctx: TurnContext, nation: NationId, centres: readonly HexKey[], within: number, kind: string | undefined): Resource | undefined {
  const hidden = ctx.campaign.map.hiddenResources ?? [];
  if (!hidden.length) return undefined;
  const known = new Set(ctx.nationState(nation).revealed ?? []);
  const byHex = new Map(hidden.map((r) => [r.hex as string, r]));
  let best: { r: Resource; distance: number } | undefined;
  for (const centre of centres) {
    const c = offsetOf(centre);
    for (const h of hexesWithin(c, within)) {
      const key = hexKey(h.col, h.row);
      const r = byHex.get(key);
      if (!r || known.has(key) || (kind && r.kind !== kind)) continue;
      const distance = hexDistance(c, h);
      if (!best || distance < best.distance || (distance === best.distance && compareIds(key, best.r.hex) < 0)) best = { r, distance };
    }
  }
  return best?.r;
}

/** A hidden resource becomes known to one nation, which may now build on it. */
export function reveal(ctx: TurnContext, nation: NationId, r: Resource): void {
  const n = ctx.nationState(nation);
  n.revealed = [...(n.revealed ?? []), r.hex].sort(compareIds);
  ctx.emit({ type: 'resource_revealed', nations: [nation], nation, hex: r.hex, kind: r.kind, name: r.name });
}

export function applyEffect(ctx: TurnContext, s: Struck, e: Effect): void {
  const reason = s.reason ?? `event: ${s.title}`;
  switch (e.kind) {
    case 'renown':
    case 'fate':
      return ctx.changeResource(s.nation, e.kind, e.amount, reason);
    case 'prosperity':
    case 'happiness':
      return ctx.changeIndicator(s.nation, e.kind, e.amount, reason);
    case 'unit_lost': {
      const u = unitOf(ctx, s, e.class);
      if (!u) return;
      ctx.destroyUnit(u, reason, [s.nation]);
      s.scene.unitRemoved(u);
      return;
    }
    case 'unit_bloodied': {
      const u = unitOf(ctx, s, e.class);
      if (u) ctx.setHealth(u, 'bloodied', reason, [s.nation]);
      return;
    }
    case 'unit_gained':
      return gainUnit(ctx, s, e, reason);
    case 'structure_destroyed': {
      const st = settlementOf(ctx, s.target);
      if (!st) return;
      const gone = e.structure ? (st.structures.includes(e.structure) ? e.structure : undefined) : [...st.structures].sort(compareIds)[0];
      if (!gone) return;
      st.structures = st.structures.filter((x) => x !== gone);
      ctx.emit({ type: 'structure_destroyed', nations: [st.nation], settlement: st.id, structure: gone, reason });
      return;
    }
    case 'battlement_damaged':
    case 'battlement_destroyed': {
      const st = settlementOf(ctx, s.target);
      if (!st || !st.battlements.length) return;
      const top = Math.max(...st.battlements);
      const i = st.battlements.indexOf(top);
      if (e.kind === 'battlement_destroyed' || top <= 1) {
        st.battlements.splice(i, 1);
        ctx.emit({ type: 'battlement_destroyed', nations: [st.nation], settlement: st.id, level: top });
      } else {
        st.battlements[i] = top - 1;
        ctx.emit({ type: 'battlement_damaged', nations: [st.nation], settlement: st.id, from: top, to: top - 1, reason });
      }
      return;
    }
    case 'resource_revealed': {
      const found = nearestHidden(ctx, s.nation, s.scene.hexesOf(s.nation, s.target), e.within, e.resourceKind);
      if (found) reveal(ctx, s.nation, found);
      return;
    }
    case 'unlock': {
      const n = ctx.nationState(s.nation);
      const unlocked = (n.unlocked ??= {});
      if (e.unitType) {
        const have = unlocked.unitTypes ?? [];
        if (!have.includes(e.unitType)) {
          unlocked.unitTypes = [...have, e.unitType].sort(compareIds);
          const name = ctx.nationDef(s.nation).unitTypes[e.unitType]?.name ?? e.unitType;
          ctx.emit({ type: 'unlocked', nations: [s.nation], nation: s.nation, what: 'unit_type', id: e.unitType, name });
        }
      }
      if (e.structure) {
        const have = unlocked.structures ?? [];
        if (!have.includes(e.structure)) {
          unlocked.structures = [...have, e.structure].sort(compareIds);
          const name = ctx.campaign.structures[e.structure]?.name ?? e.structure;
          ctx.emit({ type: 'unlocked', nations: [s.nation], nation: s.nation, what: 'structure', id: e.structure, name });
        }
      }
      return;
    }
    case 'revolt': {
      const st = settlementOf(ctx, s.target);
      if (!st || st.nation !== s.nation) return;
      if (!revolt(ctx, s.scene, st, reason)) ctx.emit({ type: 'event_message', nations: [s.nation], nation: s.nation, event: s.event, text: `The garrison of ${st.name} kept order.` });
      return;
    }
    case 'civil_war':
      return civilWar(ctx, s, e);
    case 'follow_up': {
      const n = ctx.nationState(s.nation);
      const turn = ctx.turn + e.in;
      n.followUps = [...(n.followUps ?? []), { event: e.event, turn, target: s.target }];
      ctx.emit({ type: 'follow_up_set', nations: [], nation: s.nation, event: e.event, turn });
      return;
    }
    case 'task': {
      const def = ctx.campaign.events?.tasks[e.task];
      if (def) setTask(ctx, s, def);
      return;
    }
    case 'message':
      ctx.emit({ type: 'event_message', nations: [s.nation], nation: s.nation, event: s.event, text: s.fill(e.text) });
      return;
    case 'compel':
      offerCompel(ctx, s.nation, { id: s.event, aspect: e.aspect, text: s.fill(e.text), ...(e.then ? { then: e.then } : {}) }, s.target, 'event');
      return;
    case 'aspect': {
      // With the Fate layer off the effect does nothing, so a catalogue written for it stays harmless.
      if (!ctx.rules.fate.aspects) return;
      const t = s.target;
      const on: AspectPlace = t.scope === 'nation' ? { nation: s.nation } : t.scope === 'settlement' ? { settlement: t.id as SettlementId } : t.scope === 'unit' ? { unit: t.id as UnitId } : { hex: t.hex };
      placeAspect(ctx, { name: s.fill(e.name), on, ...(e.for === 'nation' ? { owner: s.nation } : {}), free: e.free, ...(e.boost ? { boost: true } : {}), ...(e.secret ? { secret: true } : {}), ...luckOf(e) }, 'event');
      return;
    }
  }
}
