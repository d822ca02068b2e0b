import type { OpenCampaign } from '../campaign/store.js';
import type { TurnRenderer } from '../campaign/turn-renderer.js';
import type { Clock } from './clock.js';
import type { TickHooks } from './hooks.js';
import { tickMany, type TickOutcome } from './tick.js';

/**
 * `fatecraft daemon`: tick in-process, for hosts without cron. It ticks every
 * campaign, then sleeps until the earliest next event (a reminder, a
 * deadline plus grace) but never longer than `poll`, so mail keeps being read
 * and the long-gap guard never fires on a healthy daemon. The clock is
 * injected: with a FakeClock a run over weeks takes milliseconds.
 */
export interface DaemonOptions {
  clock: Clock;
  /** The longest sleep between ticks, ms (mail is read this often). */
  poll: number;
  hooksFor?: (open: OpenCampaign) => TickHooks | Promise<TickHooks>;
  renderers?: TurnRenderer[];
  /** Stop at this time (tests, rehearsals); runs until `signal` otherwise. */
  until?: Date;
  signal?: AbortSignal;
  /** Each round's outcomes, for the console. */
  onTick?: (outcomes: TickOutcome[], at: Date) => void;
}

export async function runDaemon(dirs: string[], opts: DaemonOptions): Promise<{ rounds: number }> {
  let rounds = 0;
  while (!opts.signal?.aborted) {
    const at = opts.clock.now();
    if (opts.until && at.getTime() > opts.until.getTime()) break;
    const outcomes = await tickMany(dirs, { clock: opts.clock, ...(opts.hooksFor ? { hooksFor: opts.hooksFor } : {}), ...(opts.renderers ? { renderers: opts.renderers } : {}) });
    rounds++;
    opts.onTick?.(outcomes, at);
    let wake = nextWake(outcomes, at, opts.poll);
    if (opts.until && wake.getTime() > opts.until.getTime()) {
      if (at.getTime() >= opts.until.getTime()) break;
      wake = opts.until;
    }
    await opts.clock.sleepUntil(wake, opts.signal);
  }
  return { rounds };
}

/** The earliest next event of any campaign, no later than one poll from now, and never in the past. */
export function nextWake(outcomes: TickOutcome[], now: Date, poll: number): Date {
  let wake = now.getTime() + poll;
  for (const o of outcomes) if (o.nextEvent && o.status === 'ok') wake = Math.min(wake, o.nextEvent.getTime());
  // An event already due (a busy lock) is retried after a short pause, not in a spin.
  return new Date(Math.max(wake, now.getTime() + 1000));
}
