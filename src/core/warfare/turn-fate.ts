import type { BattleSpec } from '../battle.js';
import type { AcceptedOrder, TurnContext } from '../context.js';
import { aspectKey, canSee, holderOf, inPlay, type RollScene } from '../aspects/places.js';
import { invokeKey, takeInvokes } from '../aspects/invoke.js';
import { removeAspect } from '../aspects/store.js';
import { compareIds, type NationId } from '../ids.js';
import type { InvokeOrder } from '../orders.js';
import type { AspectState } from '../state.js';
import { other, type BattleAspect, type Side, type WarInvoke } from './types.js';

/**
 * The Fate of a Warfare battle in the turn (docs/rules.md W20): what each
 * side's commanders may spend — the Fate its nation pledged on the attack or
 * the defence, at most what the nation has; its nation's aspects in play
 * there; the invokes its player ordered for the battle; its boosts, which
 * in Warfare are minor advantages (seed 001 line 173) — and, after the
 * battle, paying for what they spent and telling each nation.
 */
export interface SideFate {
  nation: NationId;
  pledged: number;
  pool: number;
  aspects: BattleAspect[];
  /** Each BattleAspect's Fatecraft aspect, by ref. */
  states: Map<string, AspectState>;
  /** The invoke orders the battle took, by ref (and those it could not use at all). */
  orders: Map<string, AcceptedOrder<InvokeOrder>[]>;
  /** Boosts named in invoke orders: each a minor advantage for the side's first commander. */
  boosts: AspectState[];
}

const where = (spec: BattleSpec) => `the Warfare battle at ${spec.at}`;

/** What is in play for a battle's invokes: both nations, the hex (its region, its settlement) and the units in it (A3). */
export function battleScene(ctx: TurnContext, spec: BattleSpec): RollScene {
  const settlement = ctx.settlementAt(spec.at)?.id;
  return { nations: [spec.attacker.nation, spec.defender.nation], hex: spec.at, ...(settlement ? { settlement } : {}), units: [...spec.attacker.units, ...spec.defender.units].map((u) => u.id) };
}

export function sideFate(ctx: TurnContext, spec: BattleSpec, side: Side): SideFate {
  const force = spec[side];
  const foe = spec[other(side)].nation;
  const nation = force.nation;
  const pledged = force.fatePledged;
  const pool = Math.max(0, Math.min(pledged, ctx.nationState(nation).fate));
  const out: SideFate = { nation, pledged, pool, aspects: [], states: new Map(), orders: new Map(), boosts: [] };
  if (!ctx.rules.fate.aspects) return out;
  const scene = battleScene(ctx, spec);
  const byKey = new Map<string, BattleAspect>();
  for (const a of ctx.state.aspects ?? []) {
    if (a.boost || !canSee(ctx.state, a, nation) || !inPlay(ctx.state, a, scene)) continue;
    const ref = `${aspectKey(a.name)}#${out.aspects.length}`;
    const b: BattleAspect = { ref, name: a.name, free: 0, ordered: 0, pool: true, hostile: holderOf(ctx.state, a.on) === foe, ...(a.helps ? { helps: a.helps } : {}), ...(a.hinders ? { hinders: a.hinders } : {}) };
    // A helpful or hindering aspect works on its holder's checks (seed 000 lines 81–83), not the other side's.
    if ((a.helps || a.hinders) && holderOf(ctx.state, a.on) !== nation) {
      delete b.helps;
      delete b.hinders;
    }
    out.aspects.push(b);
    out.states.set(ref, a);
    if (!byKey.has(aspectKey(a.name))) byKey.set(aspectKey(a.name), b);
  }
  // The invokes the player ordered for this battle (docs/rules.md A3): free ones and paid ones, for the commanders to spend.
  for (const o of takeInvokes(ctx, nation, invokeKey(ctx, { battle: spec.at }))) {
    const named = (ctx.state.aspects ?? []).find((a) => a.boost && aspectKey(a.name) === aspectKey(o.order.aspect) && canSee(ctx.state, a, nation) && a.owner === nation);
    if (named) {
      out.boosts.push(named);
      continue;
    }
    const b = byKey.get(aspectKey(o.order.aspect));
    if (!b) {
      ctx.emit({ type: 'invoke_unused', nations: [nation], nation, aspect: o.order.aspect, roll: where(spec), reason: `"${o.order.aspect}" is not in play at ${where(spec)}` });
      continue;
    }
    const state = out.states.get(b.ref)!;
    const free = o.order.pay !== 'fate' && state.free - b.free > 0 && (state.owner === undefined || state.owner === nation) && state.backfired !== nation;
    if (free) b.free++;
    else b.ordered++;
    if (o.order.reroll) b.redrawOnly = true;
    const list = out.orders.get(b.ref);
    if (list) list.push(o);
    else out.orders.set(b.ref, [o]);
  }
  return out;
}

/** What the battle result hands back for the turn to pay. */
export interface FateSpent {
  invoked: WarInvoke[];
  fate: Record<Side, { pool: number; spent: number }>;
}

/**
 * After the battle: the pool's fate points spent come off the nation's Fate,
 * each paid invoke it ordered costs its price, a paid invoke of the other
 * nation's aspect pays that nation (seed 002 "Earning Fate Points"); free
 * invokes spent come off the aspects; boosts used are gone; invoke orders
 * not needed are told, nothing spent; and each pledging nation is told what
 * its commanders spent and that the rest stays with it (its Fate is its own
 * secret, R1).
 */
export function settleFate(ctx: TurnContext, spec: BattleSpec, fates: Record<Side, SideFate>, spent: FateSpent): void {
  const nations = [spec.attacker.nation, spec.defender.nation].sort(compareIds);
  const roll = where(spec);
  for (const side of ['attacker', 'defender'] as const) {
    const f = fates[side];
    const foe = fates[other(side)].nation;
    const mine = spent.invoked.filter((i) => i.side === side);
    const used = new Map<string, number>();
    for (const i of mine) {
      if (i.ref) used.set(i.ref, (used.get(i.ref) ?? 0) + 1);
      const state = i.ref ? f.states.get(i.ref) : undefined;
      const cost = i.pay === 'free' ? 0 : ctx.rules.fate.invokeCost;
      if (state && i.pay === 'free') state.free = Math.max(0, state.free - 1);
      if (i.pay === 'ordered') ctx.changeResource(f.nation, 'fate', -cost, `invoked "${i.name}" on ${roll}`);
      const paysFoe = i.pay !== 'free' && i.hostile;
      if (paysFoe) ctx.changeResource(foe, 'fate', cost, `"${i.name}" was invoked against you on ${roll}`);
      if (state) {
        ctx.emit({ type: 'aspect_invoked', nations, nation: f.nation, aspect: state.name, roll, effect: i.effect === 'redraw' ? 'reroll' : 'plus2', value: i.effect === 'redraw' ? 0 : 2, pay: i.pay === 'free' ? 'free' : 'fate', cost, ...(paysFoe ? { paidTo: foe } : {}), freeLeft: state.free });
      }
    }
    const pool = spent.fate[side];
    if (pool.spent > 0) ctx.changeResource(f.nation, 'fate', -pool.spent * ctx.rules.fate.invokeCost, `fate points your commanders spent on ${roll}`);
    for (const b of f.boosts) removeAspect(ctx, b, `a minor advantage for your commanders on ${roll}`);
    for (const [ref, orders] of f.orders) {
      const left = orders.length - (used.get(ref) ?? 0);
      for (const o of orders.slice(orders.length - Math.max(0, left))) {
        ctx.emit({ type: 'invoke_unused', nations: [f.nation], nation: f.nation, aspect: o.order.aspect, roll, reason: 'your commanders did not need it' });
      }
    }
    if (f.pledged > 0) {
      ctx.emit({ type: 'warfare_fate', nations: [f.nation], nation: f.nation, battle: spec.id, at: spec.at, pledged: f.pledged, pool: f.pool, spent: pool.spent * ctx.rules.fate.invokeCost, invokes: pool.spent });
    }
  }
}

/**
 * A battle plan no Warfare battle followed is told to its nation, once the
 * turn's battles are fought (the combat and siege phases): nothing a player
 * writes is dropped without a word.
 */
export function reportUnusedPlans(ctx: TurnContext): void {
  const plans = ctx.acceptedOf('battle_plan');
  if (!plans.length) return;
  const fought = new Set<NationId>();
  let battles = new Set<NationId>();
  for (const e of ctx.events) {
    if (e.type === 'warfare') for (const n of e.nations) fought.add(n);
    if (e.type === 'battle') battles = new Set([...battles, ...e.nations]);
  }
  for (const p of plans) {
    if (fought.has(p.nation)) continue;
    const reason = battles.has(p.nation) ? 'none of your battles this turn was fought as Warfare' : 'your nation fought no battle this turn';
    ctx.emit({ type: 'order_not_applied', nations: [p.nation], nation: p.nation, what: 'your battle plan', reason });
  }
}
