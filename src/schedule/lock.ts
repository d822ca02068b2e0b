import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { hostname } from 'node:os';
import { AsyncLocalStorage } from 'node:async_hooks';
import { join, resolve } from 'node:path';
import { clearDeadTemporaries, ownerIsDead, processStart, temporaryName } from '../campaign/process-owner.js';
import { clearDeadWrites } from '../campaign/dead-writes.js';
import { CampaignError } from '../campaign/problems.js';
import { systemClock, type Clock } from './clock.js';
import { localTime } from './deadline.js';
import { failpoint } from '../host/failpoints.js';

/**
 * One fatecraft command at a time works on a campaign: every command that
 * writes one (turn, tick, daemon, report, mail fetch/send/reprocess, the GM's
 * operations) takes this lock, the folder `<campaign>/.fatecraft.lock` with an
 * owner file inside saying who holds it:
 *
 *   pid, start (the process's start time), host, since, what ("tick", "rerun 3", ...)
 *
 * The lock is taken whole: the owner file is written first, in a folder of
 * the taker's own (`.fatecraft.lock.new-<pid>.<start>.<host>`), which is then
 * renamed to `.fatecraft.lock` — an atomic step that fails when the lock is
 * there. So a lock never exists without its owner, and a dead owner is always
 * recognised: a lock left by a process that died (SIGKILL, power cut) is
 * taken over at once when its pid is gone on this host (or now belongs to a
 * process started at another time); from another host, after STALE_MS
 * without being touched (a held lock is touched every STALE_MS/2). It is let
 * go the same way, renamed aside before it is removed. A kill before the
 * rename leaves only the taker's own folder, which the next taker clears.
 */
export const LOCK_DIR = '.fatecraft.lock';

/** Exit code of a command that found its campaign busy and did nothing (EX_TEMPFAIL: try again later). */
export const BUSY_EXIT = 75;
const OWNER_FILE = 'owner.json';
/** A held lock is touched every STALE_MS/2; one untouched this long belongs to a dead process. */
const STALE_MS = 10 * 60 * 1000;
/** The lock's own temporary folders: being taken, a dead owner's moved aside, being let go. */
const LOCK_TEMPORARY = new RegExp(`^${LOCK_DIR.replace(/\./g, '\\.')}\\.(?:new|dead|released)-`);

export interface LockOwner {
  pid: number;
  /** The process's start time (process-owner.ts), so a reused pid is not taken for the owner; absent in older locks. */
  start?: number;
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
  return readOwnerAt(lockPath(dir));
}

async function readOwnerAt(path: string): Promise<LockOwner | undefined> {
  try {
    const o = JSON.parse(await readFile(join(path, OWNER_FILE), 'utf8')) as LockOwner;
    return typeof o.pid === 'number' && typeof o.host === 'string' ? o : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A lock without an owner file was made by an older fatecraft, which took
 * the lock first and wrote its owner a moment later: a process refused in
 * that moment waits for it (a quarter of a second at most), so it can say who
 * holds the lock.
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

class Held extends Error {
  constructor() {
    super('the campaign lock is held');
  }
}

/** Takes the lock with its owner already inside; throws Held when it is there. Returns its release. */
async function acquire(dir: string, owner: LockOwner): Promise<() => Promise<void>> {
  const lock = lockPath(dir);
  if (existsSync(lock)) throw new Held();
  const staging = join(dir, temporaryName(`${LOCK_DIR}.new-`));
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging);
  await writeFile(join(staging, OWNER_FILE), JSON.stringify(owner) + '\n');
  await failpoint('lock-owner-written');
  try {
    // Fails when the lock is there: another process took it since the look above.
    await rename(staging, lock);
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    if (['ENOTEMPTY', 'EEXIST', 'ENOTDIR', 'EISDIR', 'EPERM'].includes((e as NodeJS.ErrnoException).code ?? '')) throw new Held();
    throw e;
  }
  const touch = setInterval(() => {
    const now = new Date();
    utimes(lock, now, now).catch(() => undefined);
  }, STALE_MS / 2);
  touch.unref();
  return async () => {
    clearInterval(touch);
    const aside = join(dir, temporaryName(`${LOCK_DIR}.released-`));
    try {
      await rename(lock, aside);
    } catch {
      return; // gone already (taken over as stale): nothing of ours to remove
    }
    await rm(aside, { recursive: true, force: true });
  };
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
  const owner: LockOwner = { pid: process.pid, start: processStart(process.pid), host: hostname(), since: (opts.clock ?? systemClock).now().toISOString(), what: opts.what };
  let release: () => Promise<void>;
  let waited = false;
  for (;;) {
    try {
      release = await takeLock(dir, owner, opts);
      break;
    } catch (e) {
      if (!(e instanceof LockBusyError) || Date.now() + WAIT_POLL_MS > giveUpAt) throw e;
      if (!waited) opts.onWait?.(e.owner);
      waited = true;
      await sleep(WAIT_POLL_MS);
    }
  }
  try {
    // Whatever a killed process left half-written in the folder is now known to be dead: cleared first.
    await clearDeadWrites(dir);
    return await held.run(new Set([...(mine ?? []), key]), work);
  } finally {
    await release().catch(() => undefined);
  }
}

/** Takes the lock once, taking over a dead process's; LockBusyError when a live one holds it. */
async function takeLock(dir: string, owner: LockOwner, opts: LockOptions): Promise<() => Promise<void>> {
  // What a killed taker or releaser left: its own folders, never the lock itself.
  await clearDeadTemporaries(dir, LOCK_TEMPORARY);
  try {
    return await acquire(dir, owner);
  } catch (e) {
    if (!(e instanceof Held)) throw e;
    const holder = await ownerOfHeldLock(dir);
    if (!(await abandoned(dir, holder))) throw new LockBusyError(dir, holder, opts.timeZone);
    // The owner died holding it. Move the lock aside (atomic: of several
    // processes finding it, one wins), check it was the dead one's, retry.
    const aside = join(dir, temporaryName(`${LOCK_DIR}.dead-`));
    try {
      await rename(lockPath(dir), aside);
    } catch {
      throw new LockBusyError(dir, await readOwner(dir), opts.timeZone);
    }
    const moved = await readOwnerAt(aside);
    if (moved?.pid !== holder?.pid || moved?.since !== holder?.since) {
      // We moved a fresh lock taken in between: put it back and give way.
      await rename(aside, lockPath(dir)).catch(() => undefined);
      throw new LockBusyError(dir, moved, opts.timeZone);
    }
    await rm(aside, { recursive: true, force: true });
    if (holder) opts.onRecovered?.(holder);
    try {
      return await acquire(dir, owner);
    } catch (again) {
      if (!(again instanceof Held)) throw again;
      throw new LockBusyError(dir, await readOwner(dir), opts.timeZone);
    }
  }
}

/**
 * A held lock whose holder is known dead (its pid gone on this host, or
 * reused by a later process); or, when that cannot be told (another host, no
 * owner file), one untouched for STALE_MS.
 */
async function abandoned(dir: string, holder: LockOwner | undefined): Promise<boolean> {
  if (holder && holder.host === hostname()) return holder.pid !== process.pid && ownerIsDead({ pid: holder.pid, host: holder.host, ...(holder.start ? { start: holder.start } : {}) });
  const touched = await stat(lockPath(dir)).then((s) => s.mtimeMs, () => undefined);
  return touched !== undefined && Date.now() - touched > STALE_MS;
}

/** Who holds the lock now, for `fatecraft status`. */
export async function lockHolder(dir: string): Promise<(LockOwner & { alive: boolean }) | undefined> {
  if (!existsSync(lockPath(dir))) return undefined;
  const owner = await readOwner(dir);
  if (!owner) return undefined;
  return { ...owner, alive: owner.host !== hostname() || !ownerIsDead({ pid: owner.pid, host: owner.host, ...(owner.start ? { start: owner.start } : {}) }) };
}
