/**
 * What the mailroom needs from the schedule when it runs on its own (`fatecraft mail fetch`, not inside a
 * tick): whether orders still count, the deadline as players read it, and the replaced tokens. All from
 * runtime.yaml, which only exists once `fatecraft tick` has run; without it orders always count.
 */
import type { OpenCampaign } from '../campaign/store.js';
import { localTime, resolvesAt } from '../schedule/deadline.js';
import { readRuntime } from '../schedule/runtime.js';
import { scheduleOf } from '../schedule/settings.js';

export interface ScheduleView {
  acceptsOrders?: (turn: number, receivedAt: Date) => boolean;
  deadline?: string;
  /** The turn collecting orders, whose deadline that is. */
  pendingTurn?: number;
  retiredTokens?: Record<string, string[]>;
}

export async function scheduleView(open: OpenCampaign): Promise<ScheduleView> {
  const runtime = await readRuntime(open.dir);
  if (runtime === undefined) return {};
  const schedule = scheduleOf(open.file);
  const deadline = new Date(runtime.deadline);
  const dueAt = resolvesAt(schedule, deadline);
  return {
    // The tick's own rule (TickContext.acceptsOrders): until the deadline plus grace, and while the turn waits.
    acceptsOrders: (turn, receivedAt) => turn === runtime.turn && (receivedAt.getTime() <= dueAt.getTime() || runtime.paused !== undefined || runtime.holds.some((h) => h.turn === turn)),
    deadline: localTime(deadline, schedule.timeZone),
    pendingTurn: runtime.turn,
    retiredTokens: runtime.retiredTokens,
  };
}
