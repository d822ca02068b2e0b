import type { TurnContext } from '../context.js';
import { compareIds, type NationId } from '../ids.js';
import type { AspectPlace, AspectState, LuckSkill } from '../state.js';
import { aspectKey, holderOf, placeText, samePlace } from './places.js';

/**
 * The one way aspects enter and leave play (GM, events, orders), so each
 * change leaves an event. Adding an aspect already in play at the same place
 * gives it the new free invokes instead (seed 000 "Refreshing Aspects").
 */
export interface NewAspect {
  name: string;
  on: AspectPlace;
  owner?: NationId;
  /** The nation whose failed attempt brought it into play: its free invokes are anyone else's. */
  backfired?: NationId;
  free: number;
  boost?: boolean;
  secret?: boolean;
  /** A helpful or hindering aspect (docs/rules.md A8). */
  helps?: LuckSkill;
  hinders?: LuckSkill;
}

/** A helpful or hindering aspect's skill (docs/rules.md A8), as written: hindering wins if both are given. */
export function luckOf(a: { helps?: LuckSkill | undefined; hinders?: LuckSkill | undefined }): { helps?: LuckSkill; hinders?: LuckSkill } {
  if (a.hinders) return { hinders: a.hinders };
  return a.helps ? { helps: a.helps } : {};
}

/** Who hears of an aspect coming or going: its owner and the nation it is on (a secret one: who may see it). */
function told(ctx: TurnContext, a: AspectState): NationId[] {
  const holder = holderOf(ctx.state, a.on);
  const who = a.secret ? [a.owner ?? holder] : [a.owner, holder, a.backfired];
  return [...new Set(who.filter((n): n is NationId => n !== undefined))].sort(compareIds);
}

const tell = (ctx: TurnContext, a: AspectState, also: readonly NationId[]) => (also.length ? [...new Set([...told(ctx, a), ...also])].sort(compareIds) : told(ctx, a));

export function placeAspect(ctx: TurnContext, spec: NewAspect, by: 'gm' | 'event' | 'order', alsoTell: readonly NationId[] = []): AspectState {
  const list = (ctx.state.aspects ??= []);
  const key = aspectKey(spec.name);
  const same = list.find((a) => aspectKey(a.name) === key && samePlace(a.on, spec.on) && !a.boost && !spec.boost);
  if (same) {
    same.free += spec.free;
    ctx.emit({ type: 'aspect_created', nations: tell(ctx, same, alsoTell), aspect: same.name, place: placeText(ctx.campaign, ctx.state, same.on), ...(same.owner ? { owner: same.owner } : {}), free: same.free, boost: false, secret: same.secret === true, by, refreshed: true });
    return same;
  }
  const aspect: AspectState = {
    name: spec.name.trim(),
    on: spec.on,
    ...(spec.owner ? { owner: spec.owner } : {}),
    ...(spec.backfired ? { backfired: spec.backfired } : {}),
    free: spec.boost ? 1 : spec.free,
    ...(spec.boost ? { boost: true as const } : {}),
    ...(spec.secret ? { secret: true as const } : {}),
    ...luckOf(spec),
    since: ctx.turn,
  };
  list.push(aspect);
  ctx.emit({ type: 'aspect_created', nations: tell(ctx, aspect, alsoTell), aspect: aspect.name, place: placeText(ctx.campaign, ctx.state, aspect.on), ...(aspect.owner ? { owner: aspect.owner } : {}), ...(aspect.backfired ? { backfired: aspect.backfired } : {}), free: aspect.free, boost: aspect.boost === true, secret: aspect.secret === true, by, refreshed: false });
  return aspect;
}

export function removeAspect(ctx: TurnContext, aspect: AspectState, reason: string, alsoTell: readonly NationId[] = []): void {
  const list = ctx.state.aspects ?? [];
  const i = list.indexOf(aspect);
  if (i < 0) return;
  const nations = [...new Set([...told(ctx, aspect), ...alsoTell])].sort(compareIds);
  const place = placeText(ctx.campaign, ctx.state, aspect.on);
  list.splice(i, 1);
  if (!list.length) delete ctx.state.aspects;
  ctx.emit({ type: 'aspect_removed', nations, aspect: aspect.name, place, reason });
}

/** Aspects on units that are gone, or settlements that no longer stand, leave play with them. */
export function pruneAspects(ctx: TurnContext): void {
  for (const a of [...(ctx.state.aspects ?? [])]) {
    const gone = ('unit' in a.on && !ctx.state.units[a.on.unit]) || ('settlement' in a.on && !ctx.state.settlements[a.on.settlement]) || ('nation' in a.on && !ctx.state.nations[a.on.nation]?.alive);
    if (gone) removeAspect(ctx, a, 'what it was on is gone');
  }
}
