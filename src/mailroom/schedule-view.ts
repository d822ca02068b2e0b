/**
 * What the mailroom needs from the schedule when it runs on its own (`fatecraft mail fetch`, not inside a
 * tick): whether orders still count, the deadline as players read it, and the replaced tokens. All from
 * runtime.yaml, which only exists once `fatecraft tick` has run; without it orders always count.
 */
import type { OpenCampaign } from '../campaign/store.js';
import { localTime, resolvesAt } from '../schedule/deadline.js';
import { readRuntime, writeRuntime } from '../schedule/runtime.js';
import { deadlineClock, deadlinesByNation, type DeadlineClock } from '../schedule/player-time.js';
import { applyPreference, type PlayerPreference } from '../schedule/preferences.js';
import { scheduleOf } from '../schedule/settings.js';
import { seatDesk, type SeatDesk } from '../schedule/seats/desk.js';

export interface ScheduleView {
  acceptsOrders?: (turn: number, receivedAt: Date) => boolean;
  deadline?: string;
  /** The same deadline with each player's own clock (player-time.ts). */
  deadlineClock?: DeadlineClock;
  /** The deadline as players on another clock read it, by nation. */
  deadlineByNation?: Record<string, string>;
  /** Keeps a player's setting sent by mail in runtime.yaml (the command holds the campaign lock). */
  recordPreference?: (nation: string, pref: PlayerPreference, note?: string) => Promise<void>;
  /** Seats by mail, kept in runtime.yaml (the command holds the campaign lock). */
  seats?: SeatDesk;
  /** The turn collecting orders, whose deadline that is. */
  pendingTurn?: number;
  retiredTokens?: Record<string, string[]>;
}

export async function scheduleView(open: OpenCampaign, now: () => Date = () => new Date()): Promise<ScheduleView> {
  const runtime = await readRuntime(open.dir);
  if (runtime === undefined) return {};
  const schedule = scheduleOf(open.file);
  const deadline = new Date(runtime.deadline);
  const dueAt = resolvesAt(schedule, deadline);
  const clock = deadlineClock(deadline, schedule.timeZone, open.file, runtime);
  return {
    // The tick's own rule (TickContext.acceptsOrders): until the deadline plus grace, and while the turn waits.
    acceptsOrders: (turn, receivedAt) => turn === runtime.turn && (receivedAt.getTime() <= dueAt.getTime() || runtime.paused !== undefined || runtime.holds.some((h) => h.turn === turn)),
    deadline: localTime(deadline, schedule.timeZone),
    deadlineClock: clock,
    deadlineByNation: deadlinesByNation(clock),
    recordPreference: async (nation, pref, note) => {
      const fresh = (await readRuntime(open.dir)) ?? runtime;
      applyPreference(fresh, now(), nation, pref, note);
      await writeRuntime(open.dir, fresh);
    },
    seats: seatDesk(open.dir, { load: async () => (await readRuntime(open.dir)) ?? runtime, save: (fresh) => writeRuntime(open.dir, fresh), current: () => runtime, now }),
    pendingTurn: runtime.turn,
    retiredTokens: runtime.retiredTokens,
  };
}
