import { checkNationOrders, describeOrder } from '../checks/index.js';
import type { TurnContext } from '../context.js';
import { compareIds, sortedKeys } from '../ids.js';
import type { NationId } from '../ids.js';
import type { PressOrder, SeatPolicy } from '../orders.js';
import type { Phase } from './phase.js';
import { nameHeir } from './succession.js';

/** Who reads a letter: the sender and its recipients ("all": every nation in play but the rebels). */
function pressReaders(ctx: TurnContext, from: NationId, to: PressOrder['to']): NationId[] {
  const readers = to === 'all' ? sortedKeys(ctx.state.nations).filter((n) => ctx.nationState(n).alive && !ctx.campaign.nations[n]?.rebels) : [...to];
  return [...new Set([from, ...readers])].sort(compareIds);
}

/**
 * Who plays the nation this turn, against who played it last: a caretaker or civil disorder taking the
 * seat is news for every nation (a rumour); the player's return, or the seat left to hold, its own.
 */
function seatChanged(ctx: TurnContext, nation: NationId, now: SeatPolicy | 'player' | 'hold'): void {
  const ns = ctx.nationState(nation);
  const was = ns.seat;
  if (now === 'player' || now === 'hold') {
    if (!was) return;
    delete ns.seat;
    ctx.emit({ type: 'seat_changed', nations: [nation], nation, to: now, since: was.since });
    return;
  }
  if (was?.policy === now) return;
  ns.seat = { policy: now, since: ctx.turn };
  ctx.emit({ type: 'seat_changed', nations: [nation], nation, to: now });
}

/**
 * Checks every nation's orders against the state at the start of the turn,
 * pays Renown in listing order, records NMRs and takes down Fate pledged for
 * defence. Nations are visited in id order; no nation's orders affect whether
 * another's are valid.
 */
export const ordersPhase: Phase = {
  name: 'orders',
  run(ctx: TurnContext) {
    for (const nation of sortedKeys(ctx.state.nations)) {
      const ns = ctx.nationState(nation);
      if (!ns.alive) continue;
      const submitted = ctx.orders.nations[nation];
      if (!submitted) {
        // The rebels are the GM's to play: they owe no orders.
        if (ctx.nationDef(nation).rebels) continue;
        ns.missedTurns += 1;
        ctx.emit({ type: 'nmr', nations: [nation], nation, missedTurns: ns.missedTurns });
        seatChanged(ctx, nation, 'hold');
        continue;
      }
      if (submitted.seat) {
        // A caretaker or civil disorder gives the orders: the player still missed the turn.
        if (!ctx.nationDef(nation).rebels) ns.missedTurns += 1;
        ctx.emit({ type: 'nmr', nations: [nation], nation, missedTurns: ns.missedTurns, policy: submitted.seat.policy });
        seatChanged(ctx, nation, submitted.seat.policy);
        if (submitted.seat.policy === 'disorder') ctx.changeIndicator(nation, 'happiness', ctx.rules.disorder.happiness, 'civil disorder: no one rules');
      } else {
        ns.missedTurns = 0;
        seatChanged(ctx, nation, 'player');
      }
      for (const r of submitted.refused ?? []) {
        ctx.emit({ type: 'order_rejected', nations: [nation], nation, ...(r.line !== undefined ? { line: r.line } : {}), order: r.text, reason: r.hint ? `${r.reason} (${r.hint})` : r.reason });
      }
      const written = (index: number, order: Parameters<typeof describeOrder>[0]) => submitted.texts?.[index] || describeOrder(order);
      const lineOf = (index: number) => {
        const line = submitted.lines?.[index];
        return line === undefined ? {} : { line };
      };
      if (submitted.turn !== ctx.turn) {
        submitted.orders.forEach((order, index) =>
          ctx.emit({ type: 'order_rejected', nations: [nation], nation, index, ...lineOf(index), order: written(index, order), reason: `these orders are for turn ${submitted.turn}; this is turn ${ctx.turn}` }),
        );
        continue;
      }
      const result = checkNationOrders(ctx, submitted);
      for (const p of result.problems) {
        ctx.emit({ type: 'order_rejected', nations: [nation], nation, index: p.index, ...lineOf(p.index), order: written(p.index, p.order), reason: p.hint ? `${p.reason} (${p.hint})` : p.reason });
      }
      for (const a of result.accepted) {
        for (const warning of a.warnings ?? []) {
          ctx.emit({ type: 'order_warned', nations: [nation], nation, index: a.index, ...lineOf(a.index), order: written(a.index, submitted.orders[a.index] ?? a.order), reason: warning });
        }
        ctx.accept(a);
        if (a.renown > 0) ctx.changeResource(nation, 'renown', -a.renown, `paid: ${a.summary}`);
        const o = a.order;
        if (o.kind === 'note') ctx.emit({ type: 'gm_note', nations: [nation], nation, text: o.text });
        if (o.kind === 'heir') nameHeir(ctx, nation, { name: o.name, ...(o.ability ? { ability: o.ability } : {}) }, 'player');
        if (o.kind === 'press') ctx.emit({ type: 'press', nations: pressReaders(ctx, nation, o.to), from: nation, to: o.to, anonymous: o.anonymous === true, text: o.text });
        if ((o.kind === 'hold' || o.kind === 'defend') && o.fate) ctx.defencePledges.set(o.unit, o.fate);
      }
      if (submitted.casualties) ctx.casualtyPriority.set(nation, submitted.casualties);
    }
  },
};
