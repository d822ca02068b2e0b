import { existsSync } from 'node:fs';
import { readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { turnDirName } from '../campaign/store.js';
import { turnVersion } from '../campaign/turn-version.js';
import type { TurnRenderer } from '../campaign/turn-renderer.js';
import { runTurn } from '../jobs/run-turn.js';
import { nextCronTime } from '../schedule/deadline.js';
import { addNotice, gmLogFor } from '../schedule/runtime.js';
import { releaseKeptOrders, restoreKeptOrders } from '../campaign/kept-orders.js';
import { resolvesTheSame } from '../jobs/same-result.js';
import type { UnreadFile } from '../campaign/order-folder.js';
import { newestAside, nextAsideIndex, withGm, type GmOptions } from './context.js';

/**
 * Re-resolving and rolling back. Nothing is deleted: a superseded turn is
 * kept as turns/NNNN.superseded-<k>, rolled-back turns and their orders as
 * turns/NNNN.rolledback-<k> and orders/NNNN.rolledback-<k>. None of these
 * names count as turns (only turns/NNNN does), and a GM can move one back by
 * hand to undo.
 */

export interface RerunOptions extends GmOptions {
  renderers?: TurnRenderer[];
  /** Resolve it again even when the result would be the same (templates changed, say). */
  force?: boolean;
  /** Send the new reports on the next tick (default true). */
  sendReports?: boolean;
}

export interface RerunResult {
  turn: number;
  /** The version of the turn now on disk: its reports go out marked as corrections. */
  rerun: number;
  /** The next turn's deadline, as the new reports print it. */
  nextDeadline: string;
  /** Where the turn it replaced was kept. */
  superseded: string;
  dir: string;
  /** Files in orders/NNNN not read as orders (order-folder.ts). */
  unread: UnreadFile[];
}

/**
 * Resolves the latest turn again, from the previous state and the orders in
 * orders/NNNN/ (which the GM may have fixed, with the state before it).
 */
export async function rerunTurn(dir: string, turn: number, opts: RerunOptions): Promise<RerunResult> {
  return withGm(dir, `rerun ${turn}`, opts, async (ctx) => {
    const rt = ctx.runtime;
    const turnsDir = join(dir, 'turns');
    const op = rt.operation;
    const resuming = op?.kind === 'rerun' && op.turn === turn && ctx.latest === turn - 1 && (await nextAsideIndex(turnsDir, 'superseded', turnDirName(turn))) > 1;
    if (op && !resuming) ctx.refuse(`another GM operation was interrupted (${op.kind}, started ${ctx.local(op.startedAt)}); finish it first: ${op.command}`);
    let k: number;
    if (resuming) {
      k = (await nextAsideIndex(turnsDir, 'superseded', turnDirName(turn))) - 1;
    } else {
      if (turn < 1) ctx.refuse('turn 0 is the starting position, made from the start sheets in campaign.yaml; there is nothing to resolve');
      if (turn > ctx.latest) ctx.refuse(`turn ${turn} is not resolved yet (the latest resolved turn is ${ctx.latest}); it resolves at its deadline, or now with: fatecraft turn ${dir} --expect ${turn}`);
      if (turn < ctx.latest) {
        ctx.refuse(`turn ${turn} is not the latest resolved turn (${ctx.latest} is), and turns ${turn + 1}–${ctx.latest} were resolved from it. Roll back first (they are kept aside, not deleted): fatecraft rollback ${dir} ${turn}, then: fatecraft rerun ${dir} ${turn}`);
      }
      if (rt.turn !== ctx.latest + 1) ctx.refuse(`runtime.yaml is at turn ${rt.turn} but turn ${ctx.latest} is the latest on disk; run fatecraft tick ${dir} first so they agree`);
      const again = opts.force ? undefined : await rerunChangesNothing(dir, turn);
      if (again?.same) {
        const unread = again.unread.map((u) => `; orders/${turnDirName(turn)}/${u.name} is not read as orders: ${u.why}`).join('');
        ctx.refuse(
          `turn ${turn} resolved again gives the state and events it has now: nothing in orders/${turnDirName(turn)}, the state before it or the campaign's settings changes it, so nothing was done and no corrected reports will be mailed${unread}. Put the corrected orders in orders/${turnDirName(turn)}/<nation>.yaml or <nation>.txt (fatecraft check ${dir} <file> --turn ${turn} shows what they give), or add --force to resolve it again anyway (after changing the report templates, say)`,
        );
      }
      rt.operation = { kind: 'rerun', turn, startedAt: ctx.now.toISOString(), command: `fatecraft rerun ${dir} ${turn}` };
      await ctx.save();
      k = await nextAsideIndex(turnsDir, 'superseded', turnDirName(turn));
      await rename(join(turnsDir, turnDirName(turn)), join(turnsDir, `${turnDirName(turn)}.superseded-${k}`));
    }
    // The turn took its orders with it (kept-orders.ts): they are the rerun's orders, but for the files the GM put in orders/NNNN.
    await restoreKeptOrders(join(turnsDir, `${turnDirName(turn)}.superseded-${k}`), dir, turn, 'link');
    // The corrected reports print the deadline the schedule has set for the next turn, as the first ones did,
    // and (with the GM's log) say why they replace the first ones.
    const players = { turn, text: `Turn ${turn} was resolved again: these reports replace the ones sent first.` };
    const gmLog = [...gmLogFor(rt, turn), `${players.text}${opts.reason ? ` Reason: ${opts.reason}` : ''}`];
    const result = await runTurn(dir, { expectTurn: turn, renderers: opts.renderers ?? [], nextDeadline: ctx.local(rt.deadline), nextDeadlineByNation: ctx.byNation(rt.deadline), gmLog, dropped: Object.keys(rt.dropped) });
    const superseded = join(turnsDir, `${turnDirName(turn)}.superseded-${k}`);
    delete rt.operation;
    // The version counts rolled-back results too, so these reports are never taken for ones already mailed.
    const version = await turnVersion(dir, turn);
    if (opts.sendReports ?? true) rt.reportsDue.push({ turn, rerun: version });
    ctx.log('rerun', `turn ${turn} resolved again; the turn it replaced is kept as turns/${turnDirName(turn)}.superseded-${k}`, turn, players);
    await ctx.save();
    return { turn, rerun: version, nextDeadline: ctx.local(rt.deadline), superseded, dir: result.dir, unread: result.unread };
  });
}

export interface RollbackOptions extends GmOptions {
  /** The reopened turn's deadline; default: the current one if still ahead, else the next scheduled time. */
  deadline?: Date;
}

export interface RollbackResult {
  /** The turn the campaign is back at (its state is current). */
  turn: number;
  /** Turn folders moved aside. */
  movedTurns: number[];
  /** Orders folders moved aside. */
  movedOrders: number[];
  deadline: Date;
}

/**
 * Back to the end of `turn`: turns after it are moved aside, the orders for
 * turn+1 stay (they are pending again), orders for later turns are moved aside.
 */
export async function rollbackTo(dir: string, turn: number, opts: RollbackOptions): Promise<RollbackResult> {
  return withGm(dir, `rollback ${turn}`, opts, async (ctx) => {
    const rt = ctx.runtime;
    const op = rt.operation;
    const resuming = op?.kind === 'rollback' && op.turn === turn;
    if (op && !resuming) ctx.refuse(`another GM operation was interrupted (${op.kind}, started ${ctx.local(op.startedAt)}); finish it first: ${op.command}`);
    if (!Number.isInteger(turn) || turn < 0) ctx.refuse('the turn to roll back to is a whole number, 0 or more');
    if (turn > ctx.latest) ctx.refuse(`turn ${turn} is not resolved (the latest resolved turn is ${ctx.latest}); nothing to roll back`);
    if (turn === ctx.latest && rt.turn === turn + 1 && !resuming) ctx.refuse(`the campaign is already at turn ${turn} (turn ${turn + 1} is pending); nothing to roll back`);
    if (opts.deadline && opts.deadline.getTime() <= ctx.now.getTime()) ctx.refuse(`the deadline ${ctx.local(opts.deadline)} has already passed`);
    rt.operation = { kind: 'rollback', turn, startedAt: ctx.now.toISOString(), command: `fatecraft rollback ${dir} ${turn}` };
    await ctx.save();

    const turnsDir = join(dir, 'turns');
    const ordersRoot = join(dir, 'orders');
    const k = Math.max(await nextAsideIndex(turnsDir, 'rolledback'), await nextAsideIndex(ordersRoot, 'rolledback'));
    const movedTurns: number[] = [];
    for (let t = ctx.latest; t > turn; t--) {
      const from = join(turnsDir, turnDirName(t));
      if (!existsSync(from)) continue;
      await rename(from, join(turnsDir, `${turnDirName(t)}.rolledback-${k}`));
      movedTurns.push(t);
    }
    // Turn+1 is pending again, with the orders it was resolved from (kept in its folder, now aside), as copies.
    const reopened = movedTurns.includes(turn + 1) ? join(turnsDir, `${turnDirName(turn + 1)}.rolledback-${k}`) : resuming ? await newestAside(turnsDir, turnDirName(turn + 1), 'rolledback') : undefined;
    if (reopened) await restoreKeptOrders(reopened, dir, turn + 1, 'copy');
    const movedOrders: number[] = [];
    if (existsSync(ordersRoot)) {
      for (const name of (await readdir(ordersRoot)).filter((n) => /^\d{4,}$/.test(n)).sort()) {
        const t = Number(name);
        if (t <= turn + 1) continue;
        await rename(join(ordersRoot, name), join(ordersRoot, `${name}.rolledback-${k}`));
        movedOrders.push(t);
      }
    }

    const current = new Date(rt.deadline);
    const deadline = opts.deadline ?? (current.getTime() > ctx.now.getTime() ? current : nextCronTime(ctx.schedule.deadline, ctx.schedule.timeZone, ctx.now));
    rt.turn = turn + 1;
    rt.deadline = deadline.toISOString();
    delete rt.resolving;
    for (const t of Object.keys(rt.reminders)) if (Number(t) > turn) delete rt.reminders[t];
    rt.holds = rt.holds.filter((h) => h.turn <= turn);
    rt.reportsDue = rt.reportsDue.filter((r) => r.turn <= turn);
    for (const a of rt.alerts) if (a.turn !== undefined && a.turn > turn) a.open = false;
    delete rt.operation;
    const undone = movedTurns.length ? `; ${movedTurns.length === 1 ? `turn ${movedTurns[0]} is` : `turns ${movedTurns.join(', ')} are`} resolved anew` : '';
    ctx.log('rollback', `back to turn ${turn}: turns ${movedTurns.length ? movedTurns.sort((a, b) => a - b).join(', ') : '(none)'} kept as turns/NNNN.rolledback-${k}${movedOrders.length ? `, orders for turns ${movedOrders.join(', ')} as orders/NNNN.rolledback-${k}` : ''}; turn ${turn + 1} is due ${ctx.local(deadline)}`, turn, { turn: turn + 1, text: `The game was rolled back to the end of turn ${turn}${undone}.` });
    addNotice(rt, ctx.now, { kind: 'rolled-back', turn: turn + 1, text: `The campaign has been rolled back: turn ${turn + 1} is open again, due ${ctx.local(deadline)}. Orders already sent for it still stand; send new ones to replace them.` });
    await ctx.save();
    return { turn, movedTurns: movedTurns.sort((a, b) => a - b), movedOrders, deadline };
  });
}

/**
 * Whether the turn, resolved again from what is on disk now, would come out the same: its orders are
 * put back for the look (linked, as the rerun itself does) and let go again after, so the folder is as it was.
 */
async function rerunChangesNothing(dir: string, turn: number): Promise<{ same: boolean; unread: UnreadFile[] }> {
  await restoreKeptOrders(join(dir, 'turns', turnDirName(turn)), dir, turn, 'link');
  try {
    return await resolvesTheSame(dir, turn);
  } finally {
    await releaseKeptOrders(dir, turn);
  }
}
