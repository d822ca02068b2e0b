import { parseIsoTime } from '../campaign/iso-time.js';

/**
 * The one source of time for the schedule shell. Nothing under src/schedule or
 * src/gm calls `new Date()` or `Date.now()` for a decision: a clock is passed
 * in, so tests run a multi-week campaign in seconds with a FakeClock.
 */
export interface Clock {
  now(): Date;
  /** Resolves at `until` (at once when it has passed). A fake clock jumps there. */
  sleepUntil(until: Date, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleepUntil(until, signal) {
    const ms = until.getTime() - Date.now();
    if (ms <= 0 || signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      // Long sleeps are chunked: setTimeout overflows past ~24.8 days, and a
      // suspended host wakes up late rather than never.
      const timer = setTimeout(resolve, Math.min(ms, 60 * 60 * 1000));
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    }).then(() => (Date.now() < until.getTime() && !signal?.aborted ? systemClock.sleepUntil(until, signal) : undefined));
  },
};

/** A clock that moves only when told to; sleeping jumps straight to the wake-up time. */
export class FakeClock implements Clock {
  private t: number;

  constructor(start: Date | string) {
    this.t = new Date(start).getTime();
    if (Number.isNaN(this.t)) throw new Error(`FakeClock: not a time: ${String(start)}`);
  }

  now(): Date {
    return new Date(this.t);
  }

  set(to: Date | string): void {
    const t = new Date(to).getTime();
    if (t < this.t) throw new Error(`FakeClock: time does not run backwards (${new Date(this.t).toISOString()} → ${new Date(t).toISOString()})`);
    this.t = t;
  }

  advance(ms: number): Date {
    this.set(new Date(this.t + ms));
    return this.now();
  }

  sleepUntil(until: Date): Promise<void> {
    if (until.getTime() > this.t) this.t = until.getTime();
    return Promise.resolve();
  }
}

/**
 * The command line's clock: the system clock, unless FATECRAFT_NOW holds a
 * time (ISO 8601), in which case time starts there and sleeps are skipped.
 * That is how the tests drive the real CLI through weeks of a campaign; a GM
 * can use it the same way to rehearse a schedule on a scratch copy.
 */
export function clockFromEnv(env: NodeJS.ProcessEnv = process.env): Clock {
  const fixed = env.FATECRAFT_NOW;
  if (fixed === undefined || fixed === '') return systemClock;
  const t = parseIsoTime(fixed);
  if (t === undefined) throw new Error(`FATECRAFT_NOW is not a time: "${fixed}" (write e.g. 2025-03-09T18:00:00Z)`);
  return new FakeClock(t);
}
