/**
 * The files a batch of messages wrote without waiting for each one's fsync, flushed together (the group
 * commit of `mail fetch`, docs/mail.md "Exactly once"). A message's effects (its filed orders and mail, its
 * queued answers) are written whole (a temporary file renamed into place) but not flushed one by one; before
 * the batch's first "done" mark, every such file and the folders that name them are flushed at once, so a
 * "done" on disk always stands on effects on disk. Until then each message's ledger entry, flushed before
 * its effects began, says "decided", and a run after a crash, even a power cut, carries the decision out
 * again, writing the same files whole.
 */
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';

export class BatchFlush {
  private readonly files = new Set<string>();

  /** Notes a file written (renamed into place) without its fsync. */
  add(file: string): void {
    this.files.add(file);
  }

  get size(): number {
    return this.files.size;
  }

  /** Flushes every file noted since the last flush, then the folders holding them (their new names). */
  async flush(): Promise<void> {
    if (this.files.size === 0) return;
    const files = [...this.files];
    this.files.clear();
    await Promise.all(files.map((file) => syncPath(file)));
    await Promise.all([...new Set(files.map((file) => dirname(file)))].map((dir) => syncPath(dir)));
  }
}

/** Flushes a file, or a folder (the names written or removed in it); one gone is passed over. */
export async function syncPath(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    // Removed since it was written (a later submission's other form): nothing of it to flush.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
