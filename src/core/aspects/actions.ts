import type { AcceptedOrder, TurnContext } from '../context.js';
import type { FateOutcome } from '../events.js';
import { compareIds, type NationId } from '../ids.js';
import { leaderOf } from '../leaders.js';
import type { AspectActor, CreateAdvantageOrder, OvercomeOrder } from '../orders.js';
import type { Phase } from '../phases/phase.js';
import type { AspectPlace, AspectState } from '../state.js';
import { unitName } from '../unit-name.js';
import { rollFateDice } from './fate-dice.js';
import { luckOnRoll, reportUntakenInvokes } from './invoke.js';
import { sumModifiers } from '../bonuses.js';
import { invokeTargetWritten, orderNames } from '../order-text.js';
import { aspectKey, canSee, holderOf, samePlace } from './places.js';
import { luckOf, placeAspect, pruneAspects, removeAspect } from './store.js';

/**
 * The Fate layer's phase (rules.fate.aspects), after the battles and sieges:
 * the GM's aspects come and go, then each nation's create-advantage and
 * overcome orders are rolled, in nation order and then listing order. What
 * they make is in play from next turn's rolls; what they remove has already
 * served this turn's battles.
 */
export const aspectsPhase: Phase = {
  name: 'aspects',
  run(ctx: TurnContext) {
    if (!ctx.rules.fate.aspects) return;
    reportUntakenInvokes(ctx, (a) => invokeTargetWritten(a.order.on, orderNames(ctx.campaign, ctx.start, a.nation)));
    pruneAspects(ctx);
    gmAspects(ctx);
    const acts = [...ctx.acceptedOf('create_advantage'), ...ctx.acceptedOf('overcome')].sort((a, b) => compareIds(a.nation, b.nation) || a.index - b.index);
    for (const a of acts) {
      if (a.order.kind === 'create_advantage') createAdvantage(ctx, a as AcceptedOrder<CreateAdvantageOrder>);
      else overcome(ctx, a as AcceptedOrder<OvercomeOrder>);
    }
  },
};

function gmAspects(ctx: TurnContext): void {
  for (const g of ctx.orders.gm) {
    if (g.kind === 'aspect') {
      placeAspect(ctx, { name: g.name, on: g.on, ...(g.owner ? { owner: g.owner } : {}), free: g.free, ...(g.boost ? { boost: true } : {}), ...(g.secret ? { secret: true } : {}), ...luckOf(g) }, 'gm');
    } else if (g.kind === 'remove_aspect') {
      const key = aspectKey(g.name);
      const a = (ctx.state.aspects ?? []).find((x) => aspectKey(x.name) === key && (!g.on || samePlace(x.on, g.on)));
      if (a) removeAspect(ctx, a, 'the GM took it out of play');
    }
  }
}

const ACTOR_GONE = 'the leader or unit that was to roll is gone (fallen this turn, or the throne is empty)';

/** The four outcomes by shifts (seed 002 "Four Outcomes"). */
export function outcomeOfShifts(shifts: number): FateOutcome {
  if (shifts < 0) return 'fail';
  if (shifts === 0) return 'tie';
  return shifts >= 3 ? 'style' : 'success';
}

/** The actor's 4dF + skill against the campaign's difficulty, recorded; undefined when the actor is gone. */
function fateRoll(ctx: TurnContext, nation: NationId, by: AspectActor, action: 'create_advantage' | 'overcome', aspect: string): FateOutcome | undefined {
  let who: string;
  let skill: number;
  let scope: string;
  if ('leader' in by) {
    const name = leaderOf(ctx.campaign, ctx.nationState(nation)).name;
    if (name === null) return undefined;
    who = name;
    skill = ctx.rules.fate.skill.leader;
    scope = `aspects:${nation}:leader`;
  } else {
    const unit = ctx.unit(by.unit);
    if (!unit) return undefined;
    who = unitName(ctx.campaign, unit);
    skill = ctx.rules.fate.skill.diplomatic;
    scope = `aspects:${unit.id}`;
  }
  const stream = ctx.dice.stream(scope);
  const dice = rollFateDice(stream, ctx.rules.fate.randomiser, nation);
  const difficulty = ctx.rules.fate.difficulty;
  // Helpful and hindering aspects of these rolls (docs/rules.md A8), drawn after the dice from the roll's own stream.
  const luck = sumModifiers(luckOnRoll(ctx, { nation, what: `${who}'s roll to ${action === 'overcome' ? 'overcome' : 'create'} "${aspect}"`, scene: { nations: [nation], units: 'unit' in by ? [by.unit] : [] }, stream }, 'advantage'));
  const total = dice.total + skill + luck;
  const shifts = total - difficulty;
  const outcome = outcomeOfShifts(shifts);
  ctx.emit({ type: 'aspect_roll', nations: [nation], nation, action, aspect, by: who, dice: dice.dice, faces: dice.faces, skill, ...(luck ? { luck } : {}), difficulty, total, shifts, outcome });
  return outcome;
}

/** The nation's own boost from a tie or from overcoming with style: a single-use aspect on the nation, seen by it alone. */
function boost(ctx: TurnContext, nation: NationId, name: string): void {
  placeAspect(ctx, { name, on: { nation }, owner: nation, free: 1, boost: true, secret: true }, 'order');
}

/**
 * Create an advantage (seed 002 "Create an Advantage", seed 000 "Create
 * Advantage" and "Refreshing Aspects"): fail — it backfires (below); tie — a boost;
 * success — the aspect with one free invoke; with style — two. On an aspect
 * already there the free invokes are added (a tie adds one, as seed 002 p.138
 * says). An aspect on the nation itself is secret; anywhere else it is public.
 */
function createAdvantage(ctx: TurnContext, a: AcceptedOrder<CreateAdvantageOrder>): void {
  const { nation, order: o } = a;
  const on: AspectPlace = o.on ?? { nation };
  if ('unit' in on && !ctx.unit(on.unit)) return void ctx.emit({ type: 'aspect_action_void', nations: [nation], nation, action: 'create_advantage', aspect: o.aspect, reason: 'the unit it was to be on is gone' });
  const key = aspectKey(o.aspect);
  const existing = (ctx.state.aspects ?? []).find((x) => !x.boost && aspectKey(x.name) === key && samePlace(x.on, on) && canSee(ctx.state, x, nation));
  const outcome = fateRoll(ctx, nation, o.by, 'create_advantage', existing?.name ?? o.aspect);
  if (!outcome) return void ctx.emit({ type: 'aspect_action_void', nations: [nation], nation, action: 'create_advantage', aspect: o.aspect, reason: ACTOR_GONE });
  if (outcome === 'fail') return backfire(ctx, nation, o.aspect, existing, on);
  if (existing) {
    placeAspect(ctx, { name: existing.name, on, free: outcome === 'style' ? 2 : 1 }, 'order');
    return;
  }
  if (outcome === 'tie') return boost(ctx, nation, o.aspect);
  const secret = holderOf(ctx.state, on) === nation && 'nation' in on;
  placeAspect(ctx, { name: o.aspect, on, owner: nation, free: outcome === 'style' ? 2 : 1, ...(secret ? { secret: true } : {}) }, 'order');
}

/**
 * A failed create advantage (seed 000 line 107; seed 002 "Create an
 * Advantage"): the aspect comes into play all the same (or gains a free
 * invoke where it stands), its one free invoke someone else's — the nation
 * the place belongs to when that is another nation, else anyone's but the
 * nation whose attempt failed. It is public: a backfire is no secret.
 */
function backfire(ctx: TurnContext, nation: NationId, written: string, existing: AspectState | undefined, on: AspectPlace): void {
  const holder = holderOf(ctx.state, on);
  const other = holder !== undefined && holder !== nation ? holder : undefined;
  if (!existing) return void placeAspect(ctx, { name: written, on, free: 1, ...(other ? { owner: other } : { backfired: nation }) }, 'order', [nation]);
  // An aspect already there counts its free invokes as one pile: it gains the other side's invoke only when that
  // pile is another nation's (free invokes are not kept per owner).
  if (existing.owner !== undefined && existing.owner !== nation) placeAspect(ctx, { name: existing.name, on, free: 1 }, 'order', [nation]);
}

/**
 * Overcome (seed 000 "Overcome"; seed 002): success takes the aspect out of
 * play; a tie does too, at the minor cost of the Fate an invoke costs; with
 * style the nation also gains a boost; a failure leaves it.
 */
function overcome(ctx: TurnContext, a: AcceptedOrder<OvercomeOrder>): void {
  const { nation, order: o } = a;
  const key = aspectKey(o.aspect);
  const target = (ctx.state.aspects ?? []).find((x) => aspectKey(x.name) === key && canSee(ctx.state, x, nation));
  if (!target) return void ctx.emit({ type: 'aspect_action_void', nations: [nation], nation, action: 'overcome', aspect: o.aspect, reason: 'it was already out of play' });
  const outcome = fateRoll(ctx, nation, o.by, 'overcome', target.name);
  if (!outcome) return void ctx.emit({ type: 'aspect_action_void', nations: [nation], nation, action: 'overcome', aspect: target.name, reason: ACTOR_GONE });
  if (outcome === 'fail') return;
  removeAspect(ctx, target, `overcome by ${ctx.nationDef(nation).name}`, [nation]);
  if (outcome === 'tie') {
    const cost = Math.min(ctx.rules.fate.invokeCost, ctx.nationState(nation).fate);
    ctx.changeResource(nation, 'fate', -cost, `the cost of overcoming "${target.name}" on a tie`);
  }
  if (outcome === 'style') boost(ctx, nation, `Momentum after ${target.name}`);
}
