import { accessSync, constants, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pidAlive } from '../../src/campaign/process-owner.js';

/**
 * Where the tests' scratch campaigns go. They copy, write (atomically, with fsync) and delete thousands of
 * small files; on a disk that is slow to sync or to delete (this machine's ext4 is mounted with `discard`)
 * that was much of the suite's time, in memory it is almost none: copying the demo campaign 20 times and
 * deleting the copies took 2.3 s in /tmp and 0.3 s in /dev/shm. So, unless TMPDIR is set (the user's choice
 * stands), a run puts its scratch folders in a folder of its own under /dev/shm when that is a writable
 * folder, and removes it at the end (test/support/global-setup.ts); a run that was killed leaves it
 * behind, and the next run removes it.
 */
const SHM = '/dev/shm';
const PREFIX = 'fatecraft-tests-';

export function memoryScratchRoot(): string | undefined {
  if (process.env.TMPDIR) return undefined;
  try {
    if (!statSync(SHM).isDirectory()) return undefined;
    accessSync(SHM, constants.W_OK);
  } catch {
    return undefined;
  }
  for (const name of readdirSync(SHM)) {
    const pid = Number(name.slice(PREFIX.length));
    if (name.startsWith(PREFIX) && pid > 0 && pid !== process.pid && !pidAlive(pid)) rmSync(join(SHM, name), { recursive: true, force: true });
  }
  const root = join(SHM, `${PREFIX}${process.pid}`);
  mkdirSync(root, { recursive: true });
  return root;
}

/** Removes the run's folder under /dev/shm, if it made one. */
export function removeMemoryScratchRoot(): void {
  const root = process.env.TMPDIR;
  if (root?.startsWith(join(SHM, PREFIX))) rmSync(root, { recursive: true, force: true });
}
