import { randomInt } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';

/**
 * Writes a file whole or not at all, and on disk before it returns: to a temporary file beside it, flushed
 * (fsync), then renamed over it. This is what write-file-atomic does with `fsync: true`, for the mailroom's
 * hot path (a fetch writes two ledger entries, the orders, the mail and a queued receipt per message, and
 * marks each receipt sent), without the rest of its work per write: a realpath (one lstat per folder of the
 * path), a stat, a chown and a chmod, an exit handler and an unlink that fails: in a profile of 1,000 mails
 * those came to more system time than the writes. A replaced file gets the mode given (default 0o666 less
 * the umask), not the old file's.
 *
 * The temporary file is named `<file>.<number>` as write-file-atomic names it, so what a killed run leaves
 * is found and removed the same way (src/campaign/dead-writes.ts).
 */
export async function writeDurably(file: string, data: string | Buffer, mode = 0o666): Promise<void> {
  const temporary = temporaryFor(file);
  try {
    const handle = await open(temporary, 'w', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

// Distinct within the process (a counter) and, very nearly, between processes (a random start).
let serial = randomInt(2 ** 31);

/** A new temporary name for a write of `file`: `<file>.<number>`. */
export function temporaryFor(file: string): string {
  serial = (serial + 1) % 2 ** 32;
  return `${file}.${serial}`;
}
