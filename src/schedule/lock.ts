import { existsSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { hostname } from 'node:os';
import { AsyncLocalStorage } from 'node:async_hooks';
import { join, resolve } from 'node:path';
import lockfile from 'proper-lockfile';
import { pidAlive } from '../campaign/process-owner.js';
import { CampaignError } from '../campaign/problems.js';
import { systemClock, type Clock } from './clock.js';
import { localTime } from './deadline.js';

/**
 * One fatecraft command at a time works on a campaign: every command that
 * writes one (turn, tick, daemon, report, mail fetch/send/reprocess, the GM's
 * operations) takes this lock. It is proper-lockfile's directory lock
 * (`<campaign>/.fatecraft.lock`, atomic mkdir, kept fresh while held) with an
 * owner file inside saying who holds it:
 *
 *   pid, host, since, what ("tick", "rerun 3", ...)
 *
 * A lock left by a process that died (SIGKILL, power cut) is taken over at
 * once when its pid is gone on this host; from another host, or when the
 * owner file is unreadable, after proper-lockfile's staleness period.
 */
export const LOCK_DIR = '.fatecraft.lock';

/** Exit code of a command that found its campaign busy and did nothing (EX_TEMPFAIL: try again later). */
export const BUSY_EXIT = 75;
const OWNER_FILE = 'owner.json';
/** A held lock is touched every STALE_MS/2; one untouched this long belongs to a dead process. */
const STALE_MS = 10 * 60 * 1000;

export interface LockOwner {
  pid: number;
  host: string;
  since: string;
  what: string;
}

/** Another process holds the campaign's lock: nothing was done. */
export class LockBusyError extends CampaignError {
  constructor(
    readonly dir: string,
    readonly owner: LockOwner | undefined,
    readonly timeZone?: string,
  ) {
    const who = owner ? `another fatecraft ${owner.what} (pid ${owner.pid}${owner.host !== hostname() ? ` on ${owner.host}` : ''}) is working on it since ${timeZone ? localTime(new Date(owner.since), timeZone) : owner.since}` : 'another fatecraft process is starting on it';
    super([{ file: dir, message: `${who}; nothing was done. Try again when it has finished.` }]);
    this.name = 'LockBusyError';
  }
}

export interface LockOptions {
  /** Says when the lock was taken (the real clock when not given). */
  clock?: Clock;
  /** What holds the lock, shown to whoever finds it busy: "tick", "rerun 3". */
  what: string;
  timeZone?: string;
  /**
   * How long to wait for a busy lock before giving up, in milliseconds (0:
   * give up at once, as a tick does: the next one comes soon).
   */
  waitMs?: number;
  /** Told once when the lock is busy and the caller waits for it. */
  onWait?: (owner: LockOwner | undefined) => void;
  /** Told about a dead process's lock taken over, for the log. */
  onRecovered?: (owner: LockOwner) => void;
}

const lockPath = (dir: string) => join(dir, LOCK_DIR);

async function readOwner(dir: string): Promise<LockOwner | undefined> {
  try {
    const o = JSON.parse(await readFile(join(lockPath(dir), OWNER_FILE), 'utf8')) as LockOwner;
    return typeof o.pid === 'number' && typeof o.host === 'string' ? o : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The owner file is written a moment after the lock is taken: a process
 * refused in that moment waits for it (a quarter of a second at most), so it
 * can say who holds the lock, and tell a live holder from a dead one.
 */
const OWNER_WAIT_MS = 250;
const OWNER_POLL_MS = 10;

async function ownerOfHeldLock(dir: string): Promise<LockOwner | undefined> {
  for (let waited = 0; ; waited += OWNER_POLL_MS) {
    const owner = await readOwner(dir);
    if (owner || waited >= OWNER_WAIT_MS || !existsSync(lockPath(dir))) return owner;
    await sleep(OWNER_POLL_MS);
  }
}

async function acquire(dir: string): Promise<() => Promise<void>> {
  return lockfile.lock(dir, {
    lockfilePath: lockPath(dir),
    realpath: false,
    stale: STALE_MS,
    retries: 0,
    // A lock that could not be kept fresh is reported when the work finishes; the
    // work itself is protected by the atomic writes and the expected-turn check.
    onCompromised: () => undefined,
  });
}

/**
 * The campaigns this async context holds, so that work done under a lock (a
 * tick resolving a turn, a rerun writing reports) can call functions that
 * take the lock themselves. Only the context that took it is let through:
 * two concurrent calls in one process still exclude each other.
 */
const held = new AsyncLocalStorage<ReadonlySet<string>>();

/** How often a waiting command looks at a busy lock again. */
const WAIT_POLL_MS = 200;

/**
 * Runs `work` holding the campaign's lock, waiting up to `waitMs` for it.
 * Throws LockBusyError without running it when a live process holds it
 * longer. Re-entrant within one call chain.
 */
export async function withCampaignLock<T>(dir: string, opts: LockOptions, work: () => Promise<T>): Promise<T> {
  if (!existsSync(dir)) throw new CampaignError([{ file: dir, message: 'no such campaign folder' }]);
  const key = resolve(dir);
  const mine = held.getStore();
  if (mine?.has(key)) return work();
  const giveUpAt = Date.now() + (opts.waitMs ?? 0);
  let release: () => Promise<void>;
  let waited = false;
  for (;;) {
    try {
      release = await takeLock(dir, opts);
      break;
    } catch (e) {
      if (!(e instanceof LockBusyError) || Date.now() + WAIT_POLL_MS > giveUpAt) throw e;
      if (!waited) opts.onWait?.(e.owner);
      waited = true;
      await sleep(WAIT_POLL_MS);
    }
  }
  const owner: LockOwner = { pid: process.pid, host: hostname(), since: (opts.clock ?? systemClock).now().toISOString(), what: opts.what };
  await writeFile(join(lockPath(dir), OWNER_FILE), JSON.stringify(owner) + '\n');
  try {
    return await held.run(new Set([...(mine ?? []), key]), work);
  } finally {
    await rm(join(lockPath(dir), OWNER_FILE), { force: true });
    await release().catch(() => undefined);
  }
}

/** Takes the lock once, taking over a dead process's; LockBusyError when a live one holds it. */
async function takeLock(dir: string, opts: LockOptions): Promise<() => Promise<void>> {
  try {
    return await acquire(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ELOCKED') throw e;
    const owner = await ownerOfHeldLock(dir);
    if (!owner || owner.host !== hostname() || pidAlive(owner.pid) || owner.pid === process.pid) throw new LockBusyError(dir, owner, opts.timeZone);
    // The owner died holding it. Move the lock aside (atomic: of several
    // processes finding it, one wins), check it was the dead one's, retry.
    const aside = `${lockPath(dir)}.dead-${owner.pid}-${process.pid}`;
    try {
      await rename(lockPath(dir), aside);
    } catch {
      throw new LockBusyError(dir, await readOwner(dir), opts.timeZone);
    }
    const moved = await readOwnerAt(aside);
    if (moved?.pid !== owner.pid || moved.since !== owner.since) {
      // We moved a fresh lock taken in between: put it back and give way.
      await rename(aside, lockPath(dir)).catch(() => undefined);
      throw new LockBusyError(dir, moved, opts.timeZone);
    }
    await rm(aside, { recursive: true, force: true });
    opts.onRecovered?.(owner);
    try {
      return await acquire(dir);
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code !== 'ELOCKED') throw again;
      throw new LockBusyError(dir, await readOwner(dir), opts.timeZone);
    }
  }
}

async function readOwnerAt(path: string): Promise<LockOwner | undefined> {
  try {
    return JSON.parse(await readFile(join(path, OWNER_FILE), 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

/** Who holds the lock now, for `fatecraft status`. */
export async function lockHolder(dir: string): Promise<(LockOwner & { alive: boolean }) | undefined> {
  if (!existsSync(lockPath(dir))) return undefined;
  const owner = await readOwner(dir);
  if (!owner) return undefined;
  return { ...owner, alive: owner.host !== hostname() || pidAlive(owner.pid) };
}
