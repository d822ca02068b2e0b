import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Named points in a tick (and in any writing of a turn folder:
 * before-turn-rename; in taking the campaign lock: lock-owner-written; in a
 * GM operation: gm-*, src/schedule/whole-operation.ts, which a seat taken by mail goes through too, then
 * seat-welcome-queued) where a test can interrupt the process, to prove that
 * running it again ends where an uninterrupted run would, and that a second
 * command finds the lock taken:
 *
 *   FATECRAFT_FAILPOINT=<name>             SIGKILL at that point
 *   FATECRAFT_FAILPOINT=<name>:pause=<ms>  wait there that long (real time), then carry on
 *   FATECRAFT_FAILPOINT=<name>:until=<file>  wait there until the file exists (at most UNTIL_MAX_MS), then
 *                                         carry on: a test holds a process at a step for exactly as long
 *                                         as it needs, however slow the machine
 *   FATECRAFT_FAILPOINT=<name>,<name>...[:<action>]  the same at whichever of the points comes first: one
 *                                         process shows that none of them is on a command's way (it ends
 *                                         unkilled), where a process per point costs a second of CPU each
 *
 * Inert unless the variable is set.
 */
export const FAILPOINTS = ['lock-owner-written', 'locked', 'after-fetch', 'after-remind', 'before-resolve', 'before-turn-rename', 'after-resolve', 'after-open-next', 'after-reports', 'after-alerts', 'gm-op-recorded', 'gm-files-staged', 'gm-journal-written', 'gm-files-committed', 'gm-token-set', 'gm-op-finished', 'gm-mail-queued', 'seat-welcome-queued'] as const;

export type Failpoint = (typeof FAILPOINTS)[number];

export async function failpoint(name: Failpoint): Promise<void> {
  const spec = process.env.FATECRAFT_FAILPOINT;
  if (!spec) return;
  const at = spec.indexOf(':');
  const [point, action] = at < 0 ? [spec, ''] : [spec.slice(0, at), spec.slice(at + 1)];
  if (!point.split(',').includes(name)) return;
  const pause = /^pause=(\d+)$/.exec(action);
  const until = /^until=(.+)$/.exec(action);
  if (pause) await sleep(Number(pause[1]));
  else if (until) await waitForFile(until[1]!);
  else process.kill(process.pid, 'SIGKILL');
}

/** A process left waiting by a test that died goes on by itself after this long. */
export const UNTIL_MAX_MS = 15 * 60_000;

async function waitForFile(path: string): Promise<void> {
  for (const end = Date.now() + UNTIL_MAX_MS; !existsSync(path) && Date.now() < end; ) await sleep(20);
}
