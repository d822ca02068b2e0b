import { closeSync, fsync, mkdirSync, openSync, writeFileSync, writevSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { promisify } from 'node:util';
import { mapInFlight } from '../host/in-flight.js';

/**
 * Where a turn's files go while they are written. A big turn writes thousands
 * of files (five per nation); holding them all in memory cost gigabytes, so
 * every writer — this thread or a report worker — puts each file on disk as
 * soon as it is made, into a folder that is not yet in place. The owner then
 * flushes the folder and moves it (or its files) into place.
 */
export interface FileSink {
  /** Writes one file, by path relative to the folder being built. */
  write(rel: string, content: FileContent): Promise<void>;
}

/** A file's content: text (written in UTF-8), bytes, or bytes in blocks written one after the other (a big YAML file as its writer filled them). */
export type FileContent = string | Uint8Array | readonly Uint8Array[];

/** A sink backed by a folder, which other threads may write into directly. */
export interface FolderSink extends FileSink {
  readonly dir: string;
  /** Files another thread wrote into `dir` itself, to be flushed with the rest. */
  adopt(rels: readonly string[]): void;
}

export const isFolderSink = (sink: FileSink): sink is FolderSink => 'dir' in sink && 'adopt' in sink;

/** Collects files in memory: small jobs and tests. */
export class MemorySink implements FileSink {
  readonly files: Record<string, string | Uint8Array> = {};
  write(rel: string, content: FileContent): Promise<void> {
    this.files[rel] = isBlocks(content) ? Buffer.concat(content) : content;
    return Promise.resolve();
  }
}

/** fsync calls in flight at once: enough to keep the disk queue full, few enough for the thread pool. */
const FLUSH_CONCURRENCY = 16;

export class StagingFolder implements FolderSink {
  private readonly written = new Set<string>();
  private readonly folders = new Set<string>();

  constructor(readonly dir: string) {}

  /** Every file written so far, relative to the folder, sorted. */
  get files(): string[] {
    return [...this.written].sort();
  }

  /**
   * Writes the file before returning. Into the page cache that is a tenth of
   * a millisecond for a 100 KB report here; handing each write to the thread
   * pool instead (the earlier design) cost three times the CPU per file in
   * promises and file handles, and held the files on their way in memory. The
   * disk itself is waited on once, by the flush at the end, many at a time.
   * A failed write rejects the promise (the executor turns a throw into a rejection), as a sink's should.
   */
  write(rel: string, content: FileContent): Promise<void> {
    return new Promise((resolve) => {
      const path = join(this.dir, rel);
      const folder = dirname(path);
      if (!this.folders.has(folder)) {
        mkdirSync(folder, { recursive: true });
        this.noteFolders(rel);
      }
      if (isBlocks(content)) writeBlocks(path, content);
      else writeFileSync(path, content);
      this.written.add(rel);
      resolve();
    });
  }

  adopt(rels: readonly string[]): void {
    for (const rel of rels) {
      this.written.add(rel);
      this.noteFolders(rel);
    }
  }

  /**
   * Puts every file and folder on disk, so a rename of the folder (or of its
   * files) cannot survive a power cut without them. Files are flushed all at
   * the end and many at a time, which costs a fraction of flushing each as it
   * is written.
   */
  async flush(): Promise<void> {
    await mapInFlight(this.files.map((rel) => join(this.dir, rel)), FLUSH_CONCURRENCY, syncFile);
    // Deepest first, so each folder's entry in its parent is flushed after its own.
    for (const folder of [...this.folders].sort((a, b) => b.split(sep).length - a.split(sep).length || (a < b ? -1 : 1))) await syncDir(folder);
    await syncDir(this.dir);
  }

  private noteFolders(rel: string): void {
    for (let folder = dirname(join(this.dir, rel)); folder.length > this.dir.length; folder = dirname(folder)) this.folders.add(folder);
  }
}

const isBlocks = (content: FileContent): content is readonly Uint8Array[] => Array.isArray(content);

/** A new file of the blocks, in order, by writev: the whole of each, however many calls the system takes. */
function writeBlocks(path: string, blocks: readonly Uint8Array[]): void {
  const fd = openSync(path, 'w');
  try {
    let pending = blocks.filter((b) => b.length > 0);
    while (pending.length > 0) {
      let written = writevSync(fd, pending);
      if (written === 0) throw new Error(`writing ${path}: the system took none of ${pending.length} blocks`);
      // A short write (a signal, a full disk that then errs) leaves the rest for the next call.
      let first = 0;
      while (first < pending.length && written >= pending[first]!.length) written -= pending[first++]!.length;
      pending = pending.slice(first);
      if (written > 0) pending[0] = pending[0]!.subarray(written);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Puts a file's data on disk. Only the fsync, which waits on the disk, goes to the thread pool; opening and
 * closing the descriptor are quick calls made here. Through a FileHandle all three went there: flushing 4,000
 * files of 15 KB, 16 at a time, cost this thread 225–249 ms of user CPU so, against 79–92 ms now, and the flush
 * took 0.72–1.25 s of wall against 0.56–0.93 s (two rounds each, alternating; docs/benchmarks.md).
 */
export async function syncFile(path: string): Promise<void> {
  const fd = openSync(path, 'r');
  try {
    await fsyncOf(fd);
  } finally {
    closeSync(fd);
  }
}

const fsyncOf = promisify(fsync);

/** Flushes a folder's entries (renames into it) to disk, as syncFile flushes a file. */
export async function syncDir(path: string): Promise<void> {
  const fd = openSync(path, 'r');
  try {
    await fsyncOf(fd);
  } catch {
    // Some file systems refuse fsync on folders; the rename is still atomic.
  } finally {
    closeSync(fd);
  }
}
