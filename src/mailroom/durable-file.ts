import { writeFileAtomic } from '../host/atomic-file.js';

export { temporaryFor } from '../host/atomic-file.js';

/**
 * The mailroom's durable write (ledger entries, filed orders and mail, queued answers): whole or not at all,
 * on disk before it returns. It is src/host/atomic-file.ts's write, which the schedule and the seats use too:
 * a temporary file `<file>.<number>` (what src/campaign/dead-writes.ts clears after a killed run), flushed,
 * renamed over the file, without write-file-atomic's realpath, chown, chmod and exit hooks per write. The
 * file gets the mode given; without one, an existing file keeps its own.
 */
export function writeDurably(file: string, data: string | Buffer, mode?: number): Promise<void> {
  return writeFileAtomic(file, data, mode === undefined ? {} : { mode });
}
