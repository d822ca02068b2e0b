import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Named points in a tick (and in any writing of a turn folder:
 * before-turn-rename; in taking the campaign lock: lock-owner-written; in a
 * GM operation: gm-*, src/schedule/whole-operation.ts) where a test can interrupt the process, to prove that
 * running it again ends where an uninterrupted run would, and that a second
 * command finds the lock taken:
 *
 *   FATECRAFT_FAILPOINT=<name>             SIGKILL at that point
 *   FATECRAFT_FAILPOINT=<name>:pause=<ms>  wait there that long (real time), then carry on
 *
 * Inert unless the variable is set.
 */
export const FAILPOINTS = ['lock-owner-written', 'locked', 'after-fetch', 'after-remind', 'before-resolve', 'before-turn-rename', 'after-resolve', 'after-open-next', 'after-reports', 'after-alerts', 'gm-op-recorded', 'gm-files-staged', 'gm-journal-written', 'gm-files-committed', 'gm-token-set', 'gm-op-finished', 'gm-mail-queued'] as const;

export type Failpoint = (typeof FAILPOINTS)[number];

export async function failpoint(name: Failpoint): Promise<void> {
  const spec = process.env.FATECRAFT_FAILPOINT;
  if (!spec) return;
  const [point, action] = spec.split(':');
  if (point !== name) return;
  const pause = /^pause=(\d+)$/.exec(action ?? '');
  if (pause) await sleep(Number(pause[1]));
  else process.kill(process.pid, 'SIGKILL');
}
