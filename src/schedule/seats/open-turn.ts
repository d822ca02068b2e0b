import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { KEPT_ORDERS } from '../../campaign/kept-orders.js';
import { readState, turnDirName, type OpenCampaign } from '../../campaign/store.js';
import { playedNations } from '../../core/campaign.js';
import type { NationId } from '../../core/ids.js';
import type { GameState } from '../../core/state.js';
import { absentNations, addNotice, logOp, type Runtime } from '../runtime.js';
import { fileSeatOrders, seatsInCare } from '../../seats/file-orders.js';
import { policyWords, type SeatDecision } from '../../seats/policy.js';
import { countTurn, type TurnOutcome } from './records.js';
import { seatsOf } from '../../seats/settings.js';

/**
 * The seat work of a turn that has just opened (the tick does it once per turn, after booking the turn
 * before it; runtime.yaml `seatsTurn` says it is done):
 *
 * 1. the resolved turn is counted for each player's tenure: orders of their own on time, a miss, or excused
 *    (away, or the nation out of play);
 * 2. the seats in care get their policy's orders filed (orders/NNNN/<nation>.caretaker.yaml), for the GM
 *    to read, preview and override;
 * 3. each quiet player whose seat the policy takes at this turn's deadline is warned by mail (a notice):
 *    the campaign, the turn, what will happen and how to stop it.
 *
 * Safe to run again after a crash: counting is once per turn, files already there stay, and the notices
 * go into the same runtime write that marks the work done.
 */
export interface SeatTurnContext {
  dir: string;
  open: OpenCampaign;
  runtime: Runtime;
  now: Date;
  /** A time as the campaign's players read it. */
  local(at: Date | string): string;
}

export interface SeatTurnResult {
  /** The work was done now (runtime.yaml changed): false when an earlier run had done it. */
  done: boolean;
  lines: string[];
  /** Seats a policy newly takes at this turn's deadline (warned): autofill offers them. */
  taken: SeatDecision[];
}

export async function openSeatTurn(ctx: SeatTurnContext): Promise<SeatTurnResult> {
  const rt = ctx.runtime;
  const turn = rt.turn;
  const out: SeatTurnResult = { done: false, lines: [], taken: [] };
  if (rt.seatsTurn !== undefined && rt.seatsTurn >= turn) return out;
  const latest = turn - 1;
  if (!existsSync(join(ctx.dir, 'turns', turnDirName(latest)))) return out;
  const state = await readState(ctx.dir, latest, ctx.open.campaign);
  if (latest >= 1) await countResolvedTurn(ctx, state, latest);

  const dropped = Object.keys(rt.dropped);
  const filed = await fileSeatOrders(ctx.open, state, turn, dropped);
  for (const f of filed) out.lines.push(`turn ${turn}: ${f.policy === 'disorder' ? 'civil disorder' : 'the caretaker'} gave ${f.nation} ${f.plan.orders.orders.length} order(s) (orders/${turnDirName(turn)}/${f.name})`);

  const seats = seatsOf(ctx.open.file, ctx.open.campaign);
  for (const d of seatsInCare(ctx.open, state, dropped)) {
    // Warned once: when the turn opens at whose deadline the policy first takes the seat.
    if (d.unplayed || d.mode === 'hold' || state.nations[d.nation]?.seat) continue;
    out.taken.push(d);
    const name = ctx.open.campaign.nations[d.nation]?.name ?? d.nation;
    logOp(rt, ctx.now, 'seat', `${d.nation} has sent no orders for ${d.missedTurns} turns: at turn ${turn}'s deadline its policy (${d.mode}) takes the seat unless orders or "back" come first`, turn);
    if (!seats.campaign.warn) continue;
    addNotice(rt, ctx.now, { kind: 'seat-warning', turn, nations: [d.nation], text: warningText(ctx.open.campaign.title, name, turn, d, ctx.local(rt.deadline)) });
  }
  rt.seatsTurn = turn;
  out.done = true;
  return out;
}

/** The warning mail's text: the campaign, the turn, what will happen, how to stop it. */
export function warningText(title: string, nation: string, turn: number, d: Pick<SeatDecision, 'mode' | 'atResolution' | 'missedTurns'>, deadline: string): string {
  const what = d.mode === 'pause' ? `${policyWords('pause')}; if no one has taken it after a while, ${policyWords(d.atResolution)}` : policyWords(d.mode);
  return [
    `${title}: ${nation} has sent no orders for ${d.missedTurns} turns in a row.`,
    '',
    `If no orders from you reach us by the deadline of turn ${turn}, ${deadline}, then from turn ${turn} on ${what}.`,
    '',
    `To stop it, send your orders for turn ${turn} (any orders will do: one line holding a unit is enough), or a mail with the word "back": your forces then hold this turn, and the nation stays yours.`,
    'If you cannot play on, tell the GM: someone from the standby list can take your seat.',
  ].join('\n');
}

/** Counts the resolved turn for every played nation's tenure, from the orders the turn kept. */
async function countResolvedTurn(ctx: SeatTurnContext, state: GameState, turn: number): Promise<void> {
  const rt = ctx.runtime;
  const kept = join(ctx.dir, 'turns', turnDirName(turn), KEPT_ORDERS);
  const files = new Set(existsSync(kept) ? await readdir(kept) : []);
  const away = new Set(absentNations(rt, turn));
  for (const nation of playedNations(ctx.open.campaign)) {
    const player = ctx.open.file.nations[nation]?.email ?? [];
    if (player.length === 0 || rt.dropped[nation]) continue;
    const ns = state.nations[nation as NationId];
    const own = files.has(`${nation}.yaml`);
    if (!ns && !own) continue; // in waiting: not in play yet
    const outcome: TurnOutcome = own ? 'onTime' : away.has(nation) || ns?.alive === false ? 'excused' : 'missed';
    countTurn(rt, nation, player, turn, outcome);
  }
}
