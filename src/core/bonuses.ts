import type { Bonus, Situation } from './campaign.js';
import type { TurnContext } from './context.js';
import type { Modifier } from './events.js';
import type { NationId } from './ids.js';
import type { UnitState } from './state.js';
import { leaderGrants } from './leaders.js';

/** What a roll is made against, to decide which circumstantial bonuses apply. */
export interface RollCircumstance {
  situation: Situation;
  opponents: readonly UnitState[];
  /** Attacking battlements or a settlement: bonuses "vs structure" apply. */
  againstStructure: boolean;
}

const globalGrantCache = new WeakMap<TurnContext, Map<NationId, { bonus: Bonus; classes: string[]; source: string }[]>>();

/** Global bonuses from structures a nation holds, computed once per turn. */
function globalGrants(ctx: TurnContext, nation: NationId) {
  let cache = globalGrantCache.get(ctx);
  if (!cache) {
    cache = new Map();
    for (const s of Object.values(ctx.state.settlements)) {
      for (const id of s.structures) {
        const st = ctx.campaign.structures[id];
        if (st?.grants?.scope !== 'global') continue;
        const list = cache.get(s.nation) ?? [];
        list.push({ bonus: st.grants.bonus, classes: st.grants.classes, source: `${st.name} in ${s.name}` });
        cache.set(s.nation, list);
      }
    }
    globalGrantCache.set(ctx, cache);
  }
  return cache.get(nation) ?? [];
}

function applies(b: Bonus, ctx: TurnContext, at: RollCircumstance): boolean {
  if (b.situation && b.situation !== at.situation) return false;
  if (!b.vs) return true;
  const classes = b.vs.classes ?? [];
  if (classes.includes('structure') && at.againstStructure) return true;
  const unitClasses = classes.filter((c) => c !== 'structure');
  if (classes.length > 0 && unitClasses.length === 0) return false;
  return at.opponents.some((o) => {
    const type = ctx.unitType(o);
    if (unitClasses.length > 0 && !unitClasses.includes(type.class)) return false;
    return !b.vs?.affiliation || b.vs.affiliation === type.affiliation;
  });
}

function describe(b: Bonus, origin: string): string {
  return b.label ? `${b.label} (${origin})` : origin;
}

/** Every modifier a unit adds to its roll in this circumstance, each with where it comes from. */
export function unitModifiers(ctx: TurnContext, unit: UnitState, at: RollCircumstance): Modifier[] {
  const type = ctx.unitType(unit);
  const mods: Modifier[] = [];
  for (const b of ctx.rules.classBonuses[type.class] ?? []) {
    if (applies(b, ctx, at)) mods.push({ value: b.value, source: describe(b, `${type.class} rule`) });
  }
  for (const b of type.bonuses) if (applies(b, ctx, at)) mods.push({ value: b.value, source: describe(b, type.name) });
  for (const b of unit.extraBonuses ?? []) if (applies(b, ctx, at)) mods.push({ value: b.value, source: describe(b, 'trained bonus') });
  for (const g of globalGrants(ctx, unit.nation)) {
    if (g.classes.includes(type.class) && applies(g.bonus, ctx, at)) mods.push({ value: g.bonus.value, source: g.source });
  }
  for (const g of leaderGrants(ctx.campaign, ctx.state, unit.nation)) {
    if (g.classes.includes(type.class) && applies(g.bonus, ctx, at)) mods.push({ value: g.bonus.value, source: describe(g.bonus, g.source) });
  }
  return mods;
}

export const sumModifiers = (mods: readonly Modifier[]): number => mods.reduce((s, m) => s + m.value, 0);
