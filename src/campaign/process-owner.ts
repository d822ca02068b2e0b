import { readFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * Who owns a temporary folder (a turn being written, reports being
 * re-rendered, a preview being kept). Its name carries the owner's pid, the
 * process's start time and the host, so a later run can tell a folder whose
 * writer died (safe to clear) from one a live process is still filling — a
 * pid alone is not enough, as pids are reused — and never decides by age or
 * by the name's shape alone.
 *
 *   <prefix><pid>.<start>.<host>
 *
 * <start> is the process's start time in clock ticks since boot
 * (/proc/<pid>/stat, field 22); 0 where /proc is not available, and then only
 * the pid is compared.
 */
export interface ProcessOwner {
  pid: number;
  start: number;
  host: string;
}

export function processStart(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces or ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[19]) || 0;
  } catch {
    return 0;
  }
}

let self: ProcessOwner | undefined;

export function thisProcess(): ProcessOwner {
  return (self ??= { pid: process.pid, start: processStart(process.pid), host: hostname() });
}

export const ownerTag = (owner: ProcessOwner = thisProcess()) => `${owner.pid}.${owner.start}.${owner.host}`;

/**
 * The owner named after `prefix` in a folder's name (a string, or a pattern
 * anchored at the start); a bare pid is an older run's name.
 */
export function parseOwnerTag(name: string, prefix: string | RegExp): (Partial<ProcessOwner> & { pid: number }) | undefined {
  const head = typeof prefix === 'string' ? (name.startsWith(prefix) ? prefix : undefined) : prefix.exec(name)?.[0];
  if (head === undefined || (typeof prefix !== 'string' && !name.startsWith(head))) return undefined;
  const rest = name.slice(head.length);
  const m = /^(\d+)(?:\.(\d+)\.(.+))?$/.exec(rest);
  if (!m) return undefined;
  return { pid: Number(m[1]), ...(m[2] !== undefined ? { start: Number(m[2]), host: m[3]! } : {}) };
}

/** Whether a process with this pid runs on this host (EPERM: it does, as another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the owner is known to have died: its pid is gone on this host, or
 * now belongs to a process started at another time. A folder from another
 * host, or whose owner cannot be told, is never taken for dead.
 */
export function ownerIsDead(owner: Partial<ProcessOwner> & { pid: number }): boolean {
  if (owner.host !== undefined && owner.host !== hostname()) return false;
  if (owner.pid === process.pid) return false;
  if (!pidAlive(owner.pid)) return true;
  if (!owner.start) return false;
  const now = processStart(owner.pid);
  return now !== 0 && now !== owner.start;
}

/** A temporary folder's name for this process: `<prefix><pid>.<start>.<host>`. */
export const temporaryName = (prefix: string) => `${prefix}${ownerTag()}`;

/**
 * Removes the temporaries named `<prefix>…` in `folder` whose owners are known
 * dead (a crash's leftovers); a live owner's folder, or one whose owner cannot
 * be told, is left alone. Returns the names removed.
 */
export async function clearDeadTemporaries(folder: string, prefix: string | RegExp): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return removed;
  }
  for (const name of names) {
    const owner = parseOwnerTag(name, prefix);
    if (!owner || !ownerIsDead(owner)) continue;
    await rm(join(folder, name), { recursive: true, force: true, maxRetries: 5 });
    removed.push(name);
  }
  return removed;
}
