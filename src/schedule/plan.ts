import { deadlineAfterEarly, followingDeadline, localTime, resolvesAt } from './deadline.js';
import { formatDuration, timeLeftText } from './duration.js';
import type { HoldKind, Runtime } from './runtime.js';
import type { Schedule } from './settings.js';

/**
 * The schedule's decisions as a pure function: given the runtime, the
 * schedule, the time and who has sent orders, what should this tick do?
 * No I/O, no clock: `executeTick` (tick.ts) carries the actions out.
 *
 * The order of a tick: reminders before the deadline; after deadline + grace,
 * the guards (a long silence of the ticks, a failed mail fetch, too many
 * nations without orders) or else resolution.
 */
export interface TickInput {
  runtime: Runtime;
  schedule: Schedule;
  now: Date;
  /** Nations with an orders file for the pending turn. */
  submitted: readonly string[];
  /** Nations expected to send orders: alive, not dropped, not absent this turn. */
  active: readonly string[];
  /** Nations whose player asked the turn to wait for its deadline: no early resolution while any does. */
  waiting?: readonly string[];
  /** False when fetching mail failed on this tick: orders may be waiting on the server. */
  mailOk: boolean;
  /**
   * Silent seats whose policy is `pause` (src/seats): past the deadline the turn waits for them — for a
   * player's orders, or the GM's `resume` — at most `limit` ms, after which the next policy applies.
   */
  seatPause?: { nations: readonly string[]; limit: number };
}

export type TickAction =
  | { kind: 'remind'; turn: number; label: string; nations: string[]; skipped: string[] }
  | { kind: 'hold'; turn: number; hold: HoldKind; detail: string }
  | { kind: 'resolve'; turn: number; nextDeadline: Date }
  /** Before turn 1 (schedule.rollCall): tell the GM which players have not confirmed their seats. */
  | { kind: 'roll-call'; turn: number }
  | { kind: 'wait'; turn: number; reason: string };

export interface TickPlan {
  actions: TickAction[];
  /** When something will next be due (a reminder, the deadline), for the daemon's sleep. */
  nextEvent?: Date;
}

export function planTick(input: TickInput): TickPlan {
  const { runtime, schedule, now } = input;
  const turn = runtime.turn;
  const deadline = new Date(runtime.deadline);
  const dueAt = resolvesAt(schedule, deadline);
  const t = now.getTime();
  const missing = input.active.filter((n) => !input.submitted.includes(n)).sort();

  if (runtime.paused) return { actions: [{ kind: 'wait', turn, reason: `paused since ${localTime(new Date(runtime.paused.since), schedule.timeZone)}${runtime.paused.reason ? ` (${runtime.paused.reason})` : ''}` }] };

  const actions: TickAction[] = [];
  const done = new Set(runtime.reminders[String(turn)] ?? []);
  const dueReminders = schedule.reminders.filter((r) => !done.has(r.label) && deadline.getTime() - r.before <= t);
  const upcoming = schedule.reminders.filter((r) => !done.has(r.label) && deadline.getTime() - r.before > t).map((r) => deadline.getTime() - r.before);

  if (schedule.rollCall !== undefined && turn === 1 && runtime.rollCall?.told === undefined) {
    const at = deadline.getTime() - schedule.rollCall;
    if (t >= at && t < dueAt.getTime()) actions.push({ kind: 'roll-call', turn });
    else if (t < at) upcoming.push(at);
  }

  if (t < deadline.getTime() && dueReminders.length > 0) {
    // Several due at once (the host was down): send the latest one only.
    const last = dueReminders[dueReminders.length - 1]!;
    actions.push({ kind: 'remind', turn, label: last.label, nations: missing, skipped: dueReminders.slice(0, -1).map((r) => r.label) });
  }

  // Opt-in: every nation expected to send orders has some on file, so the turn need not wait for its deadline.
  // Only on a tick whose mail was read (orders replacing others may be waiting on the server), and not while
  // a player has asked the turn to wait for its deadline (they may yet replace their orders).
  const waiting = (input.waiting ?? []).filter((n) => input.active.includes(n));
  if (t < dueAt.getTime() && schedule.early && input.mailOk && input.active.length > 0 && missing.length === 0 && waiting.length === 0) {
    return { actions: [{ kind: 'resolve', turn, nextDeadline: deadlineAfterEarly(schedule, deadline, now) }] };
  }

  if (t < dueAt.getTime()) {
    const nextEvent = new Date(Math.min(dueAt.getTime(), ...upcoming.filter((u) => u < deadline.getTime())));
    return { actions, nextEvent };
  }

  const holds = runtime.holds.filter((h) => h.turn === turn);
  const confirmed = (kind: HoldKind) => holds.some((h) => h.kind === kind && h.confirmed !== undefined);
  const open = (kind: HoldKind) => holds.some((h) => h.kind === kind && h.confirmed === undefined);

  // The ticks fell silent (host down) across the moment the turn became due.
  const last = runtime.lastTick ? new Date(runtime.lastTick).getTime() : undefined;
  const gap = last !== undefined && t - last > schedule.maxTickGap && last < dueAt.getTime();
  if (open('long-gap') || (gap && !confirmed('long-gap'))) {
    const detail = open('long-gap')
      ? holds.find((h) => h.kind === 'long-gap')!.detail
      : `no tick ran between ${localTime(new Date(last!), schedule.timeZone)} and ${localTime(now, schedule.timeZone)} (${timeLeftText(t - last!)}, longer than schedule.maxTickGap, ${formatDuration(schedule.maxTickGap)}), across the turn's deadline; resolving waits for the GM`;
    actions.push({ kind: 'hold', turn, hold: 'long-gap', detail });
    return { actions };
  }
  if (!input.mailOk) {
    actions.push({ kind: 'wait', turn, reason: 'fetching mail failed on this tick; orders may be waiting on the server, so the turn waits for a tick that reads them' });
    return { actions };
  }
  const pausing = input.seatPause?.nations.filter((n) => !input.submitted.includes(n)) ?? [];
  if (pausing.length > 0 && !confirmed('seat')) {
    const until = dueAt.getTime() + input.seatPause!.limit;
    if (t < until) {
      actions.push({
        kind: 'hold',
        turn,
        hold: 'seat',
        detail: `turn ${turn} waits for a player to take ${pausing.join(', ')} (seats policy: pause) until ${new Date(until).toISOString()}; then the next policy applies`,
      });
      return { actions, nextEvent: new Date(until) };
    }
  }
  const active = input.active.length;
  if (active > 0 && missing.length / active > schedule.nmrGuardShare && !confirmed('nmr')) {
    actions.push({
      kind: 'hold',
      turn,
      hold: 'nmr',
      detail: `${missing.length} of ${active} nations sent no orders (${missing.join(', ')}), more than the guard's ${Math.round(schedule.nmrGuardShare * 100)}%; a mail outage looks like this, so turn ${turn} waits`,
    });
    return { actions };
  }
  actions.push({ kind: 'resolve', turn, nextDeadline: followingDeadline(schedule, deadline, now) });
  return { actions };
}

/**
 * Whether orders for `turn` received at `receivedAt` still count: only the
 * pending turn's, until its deadline plus grace, and after that for as long
 * as the turn waits (paused, or held by a guard). The tick hands this to the
 * mail loop as TickContext.acceptsOrders; a mail run outside a tick can use it
 * on runtime.yaml directly.
 */
export function ordersAccepted(runtime: Runtime, schedule: Schedule): (turn: number, receivedAt: Date) => boolean {
  const dueAt = resolvesAt(schedule, new Date(runtime.deadline)).getTime();
  return (turn, receivedAt) => turn === runtime.turn && (receivedAt.getTime() <= dueAt || runtime.paused !== undefined || runtime.holds.some((h) => h.turn === turn));
}
