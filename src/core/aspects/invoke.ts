import type { AcceptedOrder, TurnContext } from '../context.js';
import type { DiceStream } from '../dice.js';
import type { InvokePay, Modifier } from '../events.js';
import { compareIds, type NationId } from '../ids.js';
import type { InvokeOrder, InvokeTarget } from '../orders.js';
import type { AspectState, LuckSkill } from '../state.js';
import { drawLuck } from '../fate/layer.js';
import { rollFortune } from './fate-dice.js';
import { aspectKey, canSee, holderOf, inPlay, mayUseFree, type RollScene } from './places.js';
import { removeAspect } from './store.js';

/**
 * Invokes at the roll they were ordered for (docs/rules.md A3, seed 000
 * "Invoking an Aspect": after the roll, +2 or a re-roll; seed 002: free
 * invokes stack with each other and with one paid invoke). Each roll asks
 * for its nation's invokes once, by key; the turn's invoke orders are
 * indexed on the first ask, so a turn without them costs one look.
 */

/** The key of the roll an invoke order names: a battle (or assault) by hex, a siege by settlement, a roll by event. */
export function invokeKey(ctx: Pick<TurnContext, 'start'>, on: InvokeTarget): string {
  if ('battle' in on) return `battle:${on.battle}`;
  if ('assault' in on) return `battle:${ctx.start.settlements[on.assault]?.hex ?? on.assault}`;
  if ('siege' in on) return `siege:${on.siege}`;
  return `roll:${on.roll}`;
}

const index = new WeakMap<TurnContext, Map<string, AcceptedOrder<InvokeOrder>[]>>();

function invokeIndex(ctx: TurnContext): Map<string, AcceptedOrder<InvokeOrder>[]> {
  let byKey = index.get(ctx);
  if (!byKey) {
    byKey = new Map();
    for (const a of ctx.acceptedOf('invoke')) {
      // Teamwork and obstacle invokes (docs/rules.md A10) wait on the other nation's roll, under their role.
      const help = a.order.help;
      const k = help ? ('for' in help ? `${help.for}|${invokeKey(ctx, a.order.on)}|team` : `${help.against}|${invokeKey(ctx, a.order.on)}|obstacle`) : `${a.nation}|${invokeKey(ctx, a.order.on)}`;
      const list = byKey.get(k);
      if (list) list.push(a);
      else byKey.set(k, [a]);
    }
    index.set(ctx, byKey);
  }
  return byKey;
}

/** The nation's invokes for this roll, taken once: the first roll under the key uses them. */
export function takeInvokes(ctx: TurnContext, nation: NationId, key: string): AcceptedOrder<InvokeOrder>[] {
  const byKey = invokeIndex(ctx);
  const k = `${nation}|${key}`;
  const found = byKey.get(k) ?? [];
  byKey.delete(k);
  return found;
}

/**
 * Invokes for battles and sieges no roll took (the nation fought no battle
 * there, made no siege roll there): each told to its nation, nothing spent.
 * Called once the battles and sieges are over.
 */
export function reportUntakenInvokes(ctx: TurnContext, what: (a: AcceptedOrder<InvokeOrder>) => string): void {
  const byKey = invokeIndex(ctx);
  for (const [k, list] of [...byKey]) {
    if (k.includes('|roll:')) continue;
    byKey.delete(k);
    for (const a of list) ctx.emit({ type: 'invoke_unused', nations: [a.nation], nation: a.nation, aspect: a.order.aspect, roll: what(a), reason: a.order.help ? `${ctx.nationDef('for' in a.order.help ? a.order.help.for : a.order.help.against).name} made no such roll this turn` : `your nation made no such roll this turn` });
  }
}

/** The roll an invoke is made on, as the engine hands it over. */
export interface InvokedRoll {
  nation: NationId;
  key: string;
  /** The roll in words, for events and reports: "the battle at 25,6". */
  what: string;
  scene: RollScene;
  /** The other side of the roll: a paid invoke of an aspect on this nation pays it the Fate (seed 002 "Earning Fate Points"). */
  against?: NationId;
  /** Fortune and re-rolls draw from here, never from the roll's own stream, so the other side's dice stay as they were. */
  stream: DiceStream;
  /** The skill the roll is made with: the nation's helpful and hindering aspects of that skill count (A8). */
  skill?: LuckSkill;
  /**
   * What opposes the roll: a number to beat (a siege's, the default) or the other side's dice (a battle). An
   * obstacle adds +2 to the opposition: against a number, written as -2 on the roll; against a side, +2 to it.
   */
  opposition?: 'number' | 'side';
}

/** Teamwork adds at most this much to one roll (seed 002 "Teamwork": each helper +1, at most +3; docs/rules.md A10). */
export const TEAMWORK_CAP = 3;

/**
 * Helpful and hindering aspects (seed 000 lines 81–83; docs/rules.md A8):
 * each aspect on the nation, or on its settlement or unit in play for the
 * roll, that helps the roll's skill adds fortune, each that hinders it
 * misfortune — free, no fate point, no free invoke. Any misfortune cancels
 * every fortune (seed 000 lines 25–26). Drawn from the roll's invoke
 * stream, told in an `aspect_luck` event, and handed back as a modifier.
 */
export function luckOnRoll(ctx: TurnContext, roll: Pick<InvokedRoll, 'nation' | 'what' | 'scene' | 'stream' | 'against'>, skill: LuckSkill): Modifier[] {
  const list = (ctx.state.aspects ?? []).filter((a) => (a.helps === skill || a.hinders === skill) && holderOf(ctx.state, a.on) === roll.nation && inPlay(ctx.state, a, roll.scene));
  if (!list.length) return [];
  const misfortune = list.filter((a) => a.hinders).length;
  const sources = { fortune: list.length - misfortune, misfortune };
  const draws = drawLuck(roll.stream, sources, roll.nation);
  const value = draws.reduce((s, d) => s + d.delta, 0);
  const kind = misfortune ? 'misfortune' : 'fortune';
  const counted = list.filter((a) => (misfortune ? a.hinders : a.helps)).map((a) => a.name);
  const nations = [...new Set([roll.nation, ...(roll.against ? [roll.against] : [])])].sort(compareIds);
  ctx.emit({ type: 'aspect_luck', nations, nation: roll.nation, roll: roll.what, kind, aspects: counted, draws, value });
  return [{ value, source: `${kind} from ${counted.map((n) => `"${n}"`).join(', ')}` }];
}

/** A re-roll the roll may take, when it is behind; spent only if taken. */
export interface Reroll {
  take(): boolean;
}

export interface Invoked {
  modifiers: Modifier[];
  rerolls: Reroll[];
  /** Obstacles invoked against the roll's nation where a side opposes it: +2 each to that side. */
  opposition?: Modifier[];
}

const NONE: Invoked = { modifiers: [], rerolls: [] };


/**
 * Applies the nation's +2 and fortune invokes to the roll now, paying for
 * each, and hands back the re-rolls for the caller to take if the roll is
 * behind. An invoke that cannot be made (aspect gone or not in play here,
 * no free invoke or Fate left, the aspect already paid for on this roll) is
 * recorded as unused and costs nothing.
 */
export function applyInvokes(ctx: TurnContext, roll: InvokedRoll): Invoked {
  if (!ctx.rules.fate.aspects) return NONE;
  const luck = roll.skill ? luckOnRoll(ctx, roll, roll.skill) : [];
  const orders = [...takeInvokes(ctx, roll.nation, roll.key), ...takeInvokes(ctx, roll.nation, `${roll.key}|team`), ...takeInvokes(ctx, roll.nation, `${roll.key}|obstacle`)];
  if (!orders.length) return luck.length ? { modifiers: luck, rerolls: [] } : NONE;
  const out: Invoked = { modifiers: [...luck], rerolls: [] };
  const paidOnce = new Set<AspectState>();
  let teamwork = 0;
  for (const { nation: payer, order: o } of orders) {
    // The nation that pays: the roll's own, or one that helps it (teamwork) or stands in its way (an obstacle).
    const role = o.help ? ('for' in o.help ? 'team' : 'obstacle') : 'own';
    const nations = [...new Set([roll.nation, payer, ...(roll.against ? [roll.against] : [])])].sort(compareIds);
    const unused = (o: InvokeOrder, reason: string) => ctx.emit({ type: 'invoke_unused', nations: [payer], nation: payer, aspect: o.aspect, roll: roll.what, reason });
    const key = aspectKey(o.aspect);
    const named = (ctx.state.aspects ?? []).filter((a) => aspectKey(a.name) === key && canSee(ctx.state, a, payer));
    const aspect = named.find((a) => inPlay(ctx.state, a, roll.scene));
    if (!aspect) {
      unused(o, named.length ? `"${o.aspect}" is not in play at ${roll.what}` : `"${o.aspect}" is no longer in play`);
      continue;
    }
    const pay: InvokePay = aspect.boost ? 'boost' : (o.pay ?? (aspect.free > 0 && mayUseFree(aspect, payer) ? 'free' : 'fate'));
    // An obstacle is invoked against the roll's nation; teamwork, like its own invokes, against the other side.
    const opposed = role === 'obstacle' ? roll.nation : roll.against;
    /** Pays for the invoke, or says why it cannot be made. */
    const spend = (): { ok: true; paidTo?: NationId } | { ok: false; reason: string } => {
      const no = (reason: string) => ({ ok: false as const, reason });
      if (!(ctx.state.aspects ?? []).includes(aspect)) return no(`"${aspect.name}" was used up earlier in the turn`);
      if (pay === 'fate') {
        if (paidOnce.has(aspect)) return no(`"${aspect.name}" was already invoked with Fate on ${roll.what}: an aspect is invoked once a roll, save for free invokes`);
        const cost = ctx.rules.fate.invokeCost;
        if (ctx.nationState(payer).fate < cost) return no(`not enough Fate left to invoke "${aspect.name}" (${cost} needed)`);
        paidOnce.add(aspect);
        ctx.changeResource(payer, 'fate', -cost, `invoked "${aspect.name}" on ${roll.what}`);
        const holder = holderOf(ctx.state, aspect.on);
        if (holder && holder === opposed && holder !== payer) {
          ctx.changeResource(holder, 'fate', cost, `"${aspect.name}" was invoked against you on ${roll.what}`);
          return { ok: true, paidTo: holder };
        }
        return { ok: true };
      }
      if (!mayUseFree(aspect, payer)) return no(`the free invokes of "${aspect.name}" are its owner's`);
      if (aspect.free < 1) return no(`"${aspect.name}" has no free invoke left`);
      aspect.free -= 1;
      return { ok: true };
    };
    const record = (effect: 'plus2' | 'reroll' | 'fortune', value: number, paidTo: NationId | undefined, extra: object = {}) =>
      ctx.emit({
        type: 'aspect_invoked',
        nations,
        nation: payer,
        aspect: aspect.name,
        roll: roll.what,
        effect,
        value,
        pay,
        cost: pay === 'fate' ? ctx.rules.fate.invokeCost : 0,
        ...(paidTo ? { paidTo } : {}),
        freeLeft: aspect.boost ? 0 : aspect.free,
        ...(role === 'team' ? { for: roll.nation } : role === 'obstacle' ? { against: roll.nation } : {}),
        ...extra,
      });
    // Teamwork past the cap would add nothing: not made, nothing spent.
    const room = role === 'team' ? Math.min(2, TEAMWORK_CAP - teamwork) : 2;
    if (room <= 0) {
      unused(o, `the help on ${roll.what} is already +${TEAMWORK_CAP}, the most teamwork adds to one roll`);
      continue;
    }
    const settle = () => {
      const r = spend();
      if (!r.ok) unused(o, r.reason);
      return r;
    };
    if (o.reroll && !aspect.boost) {
      out.rerolls.push({
        take: () => {
          const s = settle();
          if (!s.ok) return false;
          record('reroll', 0, s.paidTo);
          return true;
        },
      });
      continue;
    }
    const s = settle();
    if (!s.ok) continue;
    if (aspect.boost) {
      // A boost adds fortune (seed 000 "Boosts"), then is gone (seed 002 "Aspect Types").
      const fortune = rollFortune(roll.stream, ctx.rules.fate.randomiser, roll.nation);
      record('fortune', fortune.total, s.paidTo, { fortune: fortune.dice, ...(fortune.luck ? { luck: fortune.luck } : {}) });
      out.modifiers.push({ value: fortune.total, source: `boost "${aspect.name}" (fortune)` });
      removeAspect(ctx, aspect, 'a boost is gone once used');
      continue;
    }
    const price = pay === 'free' ? 'free invoke' : `${ctx.rules.fate.invokeCost} Fate`;
    if (role === 'obstacle') {
      record('plus2', 2, s.paidTo);
      if (roll.opposition === 'side') {
        // +2 to the opposition (seed 002 "Invoking Aspects"): in a battle, to the side the roll's nation fights.
        (out.opposition ??= []).push({ value: 2, source: `obstacle: "${aspect.name}" invoked by ${ctx.nationDef(payer).name} (${price}) against ${ctx.nationDef(roll.nation).name}` });
      } else {
        // +2 to the passive opposition, written as -2 on the roll against it.
        out.modifiers.push({ value: -2, source: `obstacle: "${aspect.name}" invoked by ${ctx.nationDef(payer).name} (${price}), +2 to the number to beat` });
      }
      continue;
    }
    if (role === 'team') {
      teamwork += room;
      record('plus2', room, s.paidTo);
      out.modifiers.push({ value: room, source: `teamwork: "${aspect.name}" invoked by ${ctx.nationDef(payer).name} (${price})${room < 2 ? `, +${room}: teamwork adds at most +${TEAMWORK_CAP} to a roll` : ''}` });
      continue;
    }
    record('plus2', 2, s.paidTo);
    out.modifiers.push({ value: 2, source: `"${aspect.name}" invoked (${price})` });
  }
  // Re-rolls never carry over to another roll: unused at the end of the turn they are simply not taken.
  return out;
}
