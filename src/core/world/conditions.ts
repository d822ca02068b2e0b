import type { HexKey, NationId } from '../ids.js';
import { seasonOf } from '../phases/upkeep.js';
import type { SettlementState, UnitState } from '../state.js';
import type { EventScene } from './scene.js';
import type { Condition, EventTarget, Range } from './types.js';

/**
 * One evaluator for every condition of the living world, seen from a nation
 * and a target (the nation itself, or one of its settlements, units or hexes),
 * and one describer that words it for reports and docs.
 */
export interface Where {
  scene: EventScene;
  nation: NationId;
  target: EventTarget;
  /** A unit units_near does not count: the acting unit, when an action's modifier is seen from the actor. */
  besides?: string;
}

const inRange = (v: number, r: Range) => (r.min === undefined || v >= r.min) && (r.max === undefined || v <= r.max);

function settlementOf(w: Where): SettlementState | undefined {
  if (w.target.scope === 'settlement') return w.scene.ctx.state.settlements[w.target.id as SettlementState['id']];
  if (w.target.scope === 'nation') return undefined;
  return w.scene.ctx.settlementAt(w.target.hex);
}

/** Settlements a has/lacks condition looks at: the target's own, or all of the nation's. */
function settlementsSeen(w: Where): readonly SettlementState[] {
  if (w.target.scope === 'nation') return w.scene.settlementsOf(w.nation);
  const s = settlementOf(w);
  return s ? [s] : [];
}

/** Units a health condition looks at: the event's own unit, the nation's units at its place, or all of them. */
function unitsSeen(w: Where): readonly UnitState[] {
  if (w.target.scope === 'nation') return w.scene.unitsOf(w.nation);
  if (w.target.scope === 'unit') {
    const u = w.scene.ctx.state.units[w.target.id as UnitState['id']];
    return u ? [u] : [];
  }
  return w.scene.unitsAt(w.target.hex).filter((u) => u.nation === w.nation);
}

function hexesNear(w: Where, within: number): readonly HexKey[] {
  const centres = w.scene.hexesOf(w.nation, w.target);
  if (centres.length === 1) return w.scene.hexesNear(centres[0]!, within);
  // Around several places (a nation's settlements) a hex may come twice: count it once.
  return [...new Set(centres.flatMap((c) => w.scene.hexesNear(c, within)))];
}

/** Whether a condition looks at the event's place (so it must be checked place by place), or only at the nation. */
export function dependsOnPlace(c: Condition): boolean {
  switch (c.kind) {
    case 'has_level':
    case 'lacks_level':
    case 'has_structure':
    case 'lacks_structure':
    case 'battlements':
    case 'health':
    case 'captured':
    case 'units_near':
    case 'terrain_near':
      return true;
    case 'all':
    case 'any':
      return c.of.some(dependsOnPlace);
    case 'not':
      return dependsOnPlace(c.of);
    default:
      return false;
  }
}

export function holds(c: Condition, w: Where): boolean {
  const ctx = w.scene.ctx;
  const n = ctx.nationState(w.nation);
  switch (c.kind) {
    case 'prosperity':
    case 'happiness':
    case 'renown':
    case 'fate':
      return inRange(n[c.kind], c.range);
    case 'season':
      return c.seasons.includes(seasonOf(ctx.campaign.calendar, ctx.turn).season);
    case 'turn':
      return inRange(ctx.turn, c.range);
    case 'nation':
      return c.nations.includes(w.nation);
    case 'has_level':
      return settlementsSeen(w).some((s) => s.level === c.level);
    case 'lacks_level':
      return !settlementsSeen(w).some((s) => s.level === c.level);
    case 'has_structure':
      return settlementsSeen(w).some((s) => s.structures.includes(c.structure));
    case 'lacks_structure':
      return !settlementsSeen(w).some((s) => s.structures.includes(c.structure));
    case 'battlements':
      return settlementsSeen(w).some((s) => inRange(s.battlements.length, c.range));
    case 'captured':
      return settlementsSeen(w).some((s) => s.captured) === c.value;
    case 'health':
      return unitsSeen(w).some((u) => u.health === c.health);
    case 'units_near': {
      let count = 0;
      for (const hex of hexesNear(w, c.within)) {
        for (const u of w.scene.unitsAt(hex)) {
          if (c.whose === 'own' && u.nation !== w.nation) continue;
          if (c.whose === 'foreign' && u.nation === w.nation) continue;
          if (c.class && ctx.campaign.nations[u.nation]?.unitTypes[u.type]?.class !== c.class) continue;
          if (c.types && !c.types.includes(u.type)) continue;
          if (u.id === w.besides) continue;
          count++;
        }
      }
      return count >= c.min;
    }
    case 'terrain_near':
      return hexesNear(w, c.within).some((h) => ctx.map.terrainAt(h) === c.terrain);
    case 'at_war':
      return w.scene.atWar(w.nation) === c.value;
    case 'goal':
      return (n.goals.find((g) => g.id === c.goal)?.done ?? false) === c.done;
    case 'happened': {
      const since = c.within === undefined ? -Infinity : ctx.turn - c.within;
      return (n.history ?? []).some((r) => r.event === c.event && r.turn >= since) === c.value;
    }
    case 'unit_at':
      return w.scene.unitsAt(c.hex).some((u) => u.nation === w.nation && (!c.class || ctx.campaign.nations[u.nation]?.unitTypes[u.type]?.class === c.class));
    case 'holds_settlement':
      return ctx.state.settlements[c.settlement as SettlementState['id']]?.nation === w.nation;
    case 'has_external':
      return w.scene.externalsOf(w.nation).some((e) => e.type === c.structure);
    case 'all':
      return c.of.every((x) => holds(x, w));
    case 'any':
      return c.of.some((x) => holds(x, w));
    case 'not':
      return !holds(c.of, w);
  }
}

const signed = (v: number) => (v > 0 ? `+${v}` : String(v));

function rangeText(what: string, r: Range, show: (v: number) => string = String): string {
  if (r.min !== undefined && r.max !== undefined) return r.min === r.max ? `${what} is ${show(r.min)}` : `${what} is between ${show(r.min)} and ${show(r.max)}`;
  if (r.min !== undefined) return `${what} is ${show(r.min)} or higher`;
  if (r.max !== undefined) return `${what} is ${show(r.max)} or lower`;
  return `${what} is anything`;
}


/** A condition in words, e.g. "Happiness is -2 or lower", for reports and the docs. */
export function describeCondition(c: Condition): string {
  switch (c.kind) {
    case 'prosperity':
      return rangeText('Prosperity', c.range, signed);
    case 'happiness':
      return rangeText('Happiness', c.range, signed);
    case 'renown':
      return rangeText('Renown', c.range);
    case 'fate':
      return rangeText('Fate', c.range);
    case 'season':
      return `it is ${c.seasons.join(' or ')}`;
    case 'turn':
      return rangeText('the turn', c.range);
    case 'nation':
      return `the nation is ${c.nations.join(' or ')}`;
    case 'has_level':
      return `there is a ${c.level}`;
    case 'lacks_level':
      return `there is no ${c.level}`;
    case 'has_structure':
      return `there is a ${c.structure}`;
    case 'lacks_structure':
      return `there is no ${c.structure}`;
    case 'battlements':
      return rangeText('the number of battlements', c.range);
    case 'health':
      return `the unit is ${c.health}`;
    case 'captured':
      return c.value ? 'the settlement was captured' : 'the settlement was not captured';
    case 'units_near': {
      const whose = c.whose === 'own' ? 'own ' : c.whose === 'foreign' ? 'foreign ' : '';
      const what = c.types ? `${c.class ? `${c.class} ` : ''}unit${c.min === 1 ? '' : 's'} of type ${c.types.join(' or ')}` : `${c.class ?? 'unit'}${c.min === 1 ? '' : 's'}`;
      return `at least ${c.min} ${whose}${what} within ${c.within} hex${c.within === 1 ? '' : 'es'}`;
    }
    case 'terrain_near':
      return `${c.terrain} within ${c.within} hex${c.within === 1 ? '' : 'es'}`;
    case 'at_war':
      return c.value ? 'the nation is at war' : 'the nation is at peace';
    case 'goal':
      return `goal "${c.goal}" is ${c.done ? 'achieved' : 'not yet achieved'}`;
    case 'happened':
      return `event "${c.event}" ${c.value ? 'happened' : 'did not happen'}${c.within === undefined ? '' : ` in the last ${c.within} turns`}`;
    case 'unit_at':
      return `one of the nation's ${c.class ?? 'unit'}s stands at ${c.hex}`;
    case 'holds_settlement':
      return `the nation holds ${c.settlement}`;
    case 'has_external':
      return `the nation has a ${c.structure}`;
    case 'all':
      return c.of.map(describeCondition).join(' and ');
    case 'any':
      return `(${c.of.map(describeCondition).join(' or ')})`;
    case 'not':
      return `not (${describeCondition(c.of)})`;
  }
}
