import { KeptMap } from '../core/kept-map.js';

/**
 * How often one key (an address, a client, a session) may do one thing: at most `limit` times in a window of
 * `windowMs`, counted in memory. The table is bounded: past `maxKeys` the oldest keys are forgotten, so a
 * flood of distinct keys costs memory once, never without end.
 */
export interface Limit {
  limit: number;
  windowMs: number;
}

export class RateLimiter {
  private readonly hits: KeptMap<string, number[]>;

  constructor(
    readonly rule: Limit,
    maxKeys = 50_000,
  ) {
    this.hits = new KeptMap({ entries: maxKeys });
  }

  /** Counts one more for `key`; undefined when allowed, else the milliseconds until it is. */
  take(key: string, now: number): number | undefined {
    const since = now - this.rule.windowMs;
    const times = (this.hits.peek(key) ?? []).filter((t) => t > since);
    if (times.length >= this.rule.limit) {
      this.hits.set(key, times);
      return times[0]! + this.rule.windowMs - now;
    }
    times.push(now);
    this.hits.set(key, times);
    return undefined;
  }
}

/** The desk's limits; tests and the benchmark may raise them. */
export interface DeskLimits {
  /** Sign-in links asked per address (and per nation). */
  linkPerAddress: Limit;
  /** Sign-in attempts of any kind (link, token, GM secret) per client address. */
  signInPerClient: Limit;
  /** Live checks per session. */
  checkPerSession: Limit;
  /** Order submissions and settings per session. */
  filePerSession: Limit;
}

const MINUTE = 60_000;

export const DEFAULT_LIMITS: DeskLimits = {
  linkPerAddress: { limit: 3, windowMs: 15 * MINUTE },
  signInPerClient: { limit: 20, windowMs: 15 * MINUTE },
  checkPerSession: { limit: 120, windowMs: MINUTE },
  filePerSession: { limit: 30, windowMs: 10 * MINUTE },
};
