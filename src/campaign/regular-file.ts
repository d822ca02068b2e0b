import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync } from 'node:fs';

/**
 * Reads a file players or mail can put in place (an order file, a mail in
 * the folder inbox) only when it is a regular file in the folder itself: a
 * directory named x.yaml, a FIFO (whose read would wait for a writer for
 * ever), a device or a symbolic link (which may point anywhere on the
 * machine) is refused with what it is, never followed and never waited on.
 *
 * lstat gives the refusal its words; the file is then opened without
 * following a link (O_NOFOLLOW) and without waiting (O_NONBLOCK), and the
 * handle itself is checked, so an entry swapped for a link or a FIFO between
 * the two steps is refused too.
 *
 * The calls block this thread: these are small local files, and a thousand
 * order files read so take some 25 ms, against 250 ms of wall time and
 * 170 ms of this thread's own CPU when each file's five steps went through
 * the thread pool, 16 at a time (the promises, handles and callbacks cost
 * more than the reads; measured on the 988 order files of a generated
 * campaign, docs/benchmarks.md).
 */
export type RegularFileRead = { ok: true; bytes: Buffer; identity: FileIdentity } | { ok: false; reason: string };

/**
 * Which file was read: a turn keeps its order files by linking them rather
 * than writing their bytes again, and links only the very file it read.
 */
export interface FileIdentity {
  path: string;
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** What a non-regular entry is, in a GM's words. */
function kindOf(stat: { isDirectory(): boolean; isSymbolicLink(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

const refusal = (kind: string) => `it is ${kind}, not a regular file`;

/** Errors that concern the one file, not the machine: it is refused, and the rest is read. */
const FILE_ERRORS = new Set(['EACCES', 'EPERM', 'ENOENT']);

/**
 * The bytes of the regular file at `path`, or why it was not read. Errors
 * of the machine (EIO, EMFILE...) are thrown.
 */
export function readRegularFile(path: string): RegularFileRead {
  try {
    return readIfRegular(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== undefined && FILE_ERRORS.has(code)) return { ok: false, reason: `it cannot be read (${code})` };
    throw e;
  }
}

/** readRegularFile for each path, the answers in the order of the paths. */
export function readRegularFiles(paths: readonly string[]): RegularFileRead[] {
  return paths.map(readRegularFile);
}

function readIfRegular(path: string): RegularFileRead {
  const entry = lstatSync(path);
  if (!entry.isFile()) return { ok: false, reason: refusal(kindOf(entry)) };
  let fd;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (e) {
    // O_NOFOLLOW on a link: ELOOP (Linux, macOS) or EMLINK (FreeBSD).
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') return { ok: false, reason: refusal('a symbolic link') };
    throw e;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, reason: refusal(kindOf(stat)) };
    const bytes = readFileSync(fd);
    return { ok: true, bytes, identity: { path, dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs } };
  } finally {
    closeSync(fd);
  }
}
