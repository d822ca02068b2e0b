import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { notACampaign } from '../campaign/store.js';
import { CampaignError } from '../campaign/problems.js';
import { clockFromEnv, type Clock } from '../schedule/clock.js';
import { localTime } from '../schedule/deadline.js';
import { withCampaignLock, type LockOwner } from '../schedule/lock.js';
import { scheduleTimeZone } from '../schedule/idle-tick.js';

/**
 * The campaign lock as the commands a GM runs by hand take it. A hand-run
 * command waits a while for a busy campaign (a tick fetching mail holds it
 * for seconds), saying once what it waits for, then gives up with exit code
 * BUSY_EXIT; `tick` and `daemon` never wait (the next tick comes soon).
 *
 *   FATECRAFT_LOCK_WAIT=<seconds>   how long to wait (default 30; 0: not at all)
 */
export const DEFAULT_LOCK_WAIT_S = 30;

export { BUSY_EXIT } from '../schedule/lock.js';

export function lockWaitFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.FATECRAFT_LOCK_WAIT;
  if (raw === undefined || raw === '') return DEFAULT_LOCK_WAIT_S * 1000;
  if (!/^\d+(\.\d+)?$/.test(raw.trim())) throw new CampaignError([{ file: 'FATECRAFT_LOCK_WAIT', message: `"${raw}" is not a number of seconds (e.g. FATECRAFT_LOCK_WAIT=30, or 0 not to wait)` }]);
  return Math.round(Number(raw) * 1000);
}

/** Tells the GM, on stderr, what the command waits for. */
export function sayWaiting(waitMs: number, timeZone: string | undefined): (owner: LockOwner | undefined) => void {
  return (owner) => {
    const who = owner ? `another fatecraft ${owner.what} (pid ${owner.pid}), working on the campaign since ${timeZone ? localTime(new Date(owner.since), timeZone) : owner.since}` : 'another fatecraft command';
    console.error(`Waiting up to ${Math.round(waitMs / 1000)} s for ${who} to finish...`);
  };
}

/** Runs a hand-run command's work under the campaign's lock. */
export async function underCampaignLock<T>(dir: string, what: string, work: () => Promise<T>): Promise<T> {
  if (!existsSync(join(dir, 'campaign.yaml'))) throw notACampaign(dir);
  const timeZone = await scheduleTimeZone(dir);
  const waitMs = lockWaitFromEnv();
  return withCampaignLock(dir, { clock: clockFromEnv(), what, waitMs, onWait: sayWaiting(waitMs, timeZone), ...(timeZone ? { timeZone } : {}) }, work);
}

/**
 * What a GM operation run by hand is given: the clock, how it waits for a busy campaign, and how it tells the
 * GM of an interrupted operation it completed or undid first (on stderr).
 */
export function handRun(): { clock: Clock; lockWaitMs: number; onLockWait: (owner: LockOwner | undefined) => void; onRecovered: (line: string) => void } {
  const lockWaitMs = lockWaitFromEnv();
  return { clock: clockFromEnv(), lockWaitMs, onLockWait: sayWaiting(lockWaitMs, undefined), onRecovered: (line) => console.error(`note: ${line}`) };
}
