import type { BattleSpec } from '../battle.js';
import type { AcceptedOrder, TurnContext } from '../context.js';
import { aspectKey, canSee, holderOf, inPlay, mayUseFree, type RollScene } from '../aspects/places.js';
import { invokeKey, takeInvokes, TEAMWORK_CAP } from '../aspects/invoke.js';
import { compareIds, type NationId } from '../ids.js';
import type { InvokeOrder } from '../orders.js';
import type { AspectState } from '../state.js';
import { other, type Side, type WarHelp } from './types.js';

/**
 * Other nations' teamwork and obstacle invokes on a Warfare battle in the
 * turn (docs/rules.md A10): `invoke "X" on the battle at H for|against N`.
 * A Warfare battle has no one roll; the side of the nation named takes them
 * on its first check against a passive opposition (the engine's
 * `passiveHelp`). Checked here when the battle is set up (the aspect in play,
 * a free invoke or the Fate to pay, set aside), paid after it only for
 * those taken; the rest are told, nothing spent.
 */
interface HelpOrder {
  help: WarHelp;
  side: Side;
  order: AcceptedOrder<InvokeOrder>;
  aspect: AspectState;
  pay: 'free' | 'fate';
}

export interface BattleHelp {
  bySide: Record<Side, WarHelp[]>;
  orders: HelpOrder[];
}

export function battleHelp(ctx: TurnContext, spec: BattleSpec, scene: RollScene, where: string): BattleHelp {
  const out: BattleHelp = { bySide: { attacker: [], defender: [] }, orders: [] };
  if (!ctx.rules.fate.aspects) return out;
  const key = invokeKey(ctx, { battle: spec.at });
  const cost = ctx.rules.fate.invokeCost;
  const freeSetAside = new Map<AspectState, number>();
  const fateSetAside = new Map<NationId, number>();
  for (const side of ['attacker', 'defender'] as const) {
    const nation = spec[side].nation;
    for (const role of ['team', 'obstacle'] as const) {
      for (const a of takeInvokes(ctx, nation, `${key}|${role}`)) {
        const payer = a.nation;
        const unused = (reason: string) => ctx.emit({ type: 'invoke_unused', nations: [payer], nation: payer, aspect: a.order.aspect, roll: where, reason });
        const named = (ctx.state.aspects ?? []).filter((x) => !x.boost && aspectKey(x.name) === aspectKey(a.order.aspect) && canSee(ctx.state, x, payer));
        const aspect = named.find((x) => inPlay(ctx.state, x, scene));
        if (!aspect) {
          unused(named.length ? `"${a.order.aspect}" is not in play at ${where}` : `"${a.order.aspect}" is no longer in play`);
          continue;
        }
        const freeLeft = aspect.free - (freeSetAside.get(aspect) ?? 0);
        const pay = a.order.pay ?? (freeLeft > 0 && mayUseFree(aspect, payer) ? 'free' : 'fate');
        if (pay === 'free') {
          if (freeLeft < 1 || !mayUseFree(aspect, payer)) {
            unused(`"${aspect.name}" has no free invoke left that is yours`);
            continue;
          }
          freeSetAside.set(aspect, (freeSetAside.get(aspect) ?? 0) + 1);
        } else {
          const held = fateSetAside.get(payer) ?? 0;
          if (ctx.nationState(payer).fate - held < cost) {
            unused(`not enough Fate left to invoke "${aspect.name}" (${cost} needed)`);
            continue;
          }
          fateSetAside.set(payer, held + cost);
        }
        const help: WarHelp = { id: out.orders.length, role, name: aspect.name, by: ctx.nationDef(payer).name };
        out.bySide[side].push(help);
        out.orders.push({ help, side, order: a, aspect, pay });
      }
    }
  }
  return out;
}

/**
 * After the battle: each teamwork or obstacle invoke taken is paid by the
 * nation that made it (a free invoke, or its Fate; an aspect of the nation
 * it works against pays that nation, seed 002 "Earning Fate Points") and
 * told; those not taken are told, nothing spent.
 */
export function settleHelp(ctx: TurnContext, spec: BattleSpec, help: BattleHelp, helped: { id: number; value: number }[], where: string): void {
  const taken = new Map(helped.map((h) => [h.id, h.value]));
  const cost = ctx.rules.fate.invokeCost;
  for (const h of help.orders) {
    const payer = h.order.nation;
    const helpedNation = spec[h.side].nation;
    const value = taken.get(h.help.id);
    if (!value) {
      const reason =
        value === undefined
          ? `${ctx.nationDef(helpedNation).name}'s commanders made no check there against a passive opposition (creating an advantage, overcoming an aspect)`
          : `the help on ${ctx.nationDef(helpedNation).name}'s check there was already +${TEAMWORK_CAP}, the most teamwork adds to one roll`;
      ctx.emit({ type: 'invoke_unused', nations: [payer], nation: payer, aspect: h.order.order.aspect, roll: where, reason });
      continue;
    }
    // Teamwork works against the other side; an obstacle against the nation it hinders.
    const opposed = h.help.role === 'team' ? spec[other(h.side)].nation : helpedNation;
    let paidTo: NationId | undefined;
    if (h.pay === 'free') h.aspect.free = Math.max(0, h.aspect.free - 1);
    else {
      ctx.changeResource(payer, 'fate', -cost, `invoked "${h.aspect.name}" on ${where}`);
      const holder = holderOf(ctx.state, h.aspect.on);
      if (holder && holder === opposed && holder !== payer) {
        ctx.changeResource(holder, 'fate', cost, `"${h.aspect.name}" was invoked against you on ${where}`);
        paidTo = holder;
      }
    }
    const nations = [...new Set([payer, spec.attacker.nation, spec.defender.nation])].sort(compareIds);
    ctx.emit({
      type: 'aspect_invoked',
      nations,
      nation: payer,
      aspect: h.aspect.name,
      roll: where,
      effect: 'plus2',
      value,
      pay: h.pay,
      cost: h.pay === 'fate' ? cost : 0,
      ...(paidTo ? { paidTo } : {}),
      freeLeft: h.aspect.free,
      ...(h.help.role === 'team' ? { for: helpedNation } : { against: helpedNation }),
    });
  }
}
