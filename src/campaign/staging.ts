import { mkdirSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';

/**
 * Where a turn's files go while they are written. A big turn writes thousands
 * of files (five per nation); holding them all in memory cost gigabytes, so
 * every writer — this thread or a report worker — puts each file on disk as
 * soon as it is made, into a folder that is not yet in place. The owner then
 * flushes the folder and moves it (or its files) into place.
 */
export interface FileSink {
  /** Writes one file, by path relative to the folder being built. */
  write(rel: string, content: string | Uint8Array): Promise<void>;
}

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
  write(rel: string, content: string | Uint8Array): Promise<void> {
    this.files[rel] = content;
    return Promise.resolve();
  }
}

/** fsync calls in flight at once: enough to keep the disk queue full, few enough for the thread pool. */
const FLUSH_CONCURRENCY = 16;

/**
 * Writes files without waiting for each: the thread making them goes on with
 * the next while the thread pool writes (a file system takes a millisecond or
 * two per new file, seconds over a big turn). Only when more than `limit`
 * bytes are on their way (a string's length counted as its size: close
 * enough for a bound) does a write wait, so memory stays bounded; the first
 * failure is thrown by the next write or by drain.
 */
export class WriteBehind {
  private readonly pending = new Set<Promise<void>>();
  private bytes = 0;
  private failure: Error | undefined;

  constructor(private readonly limit = 64 * 1024 * 1024) {}

  async write(path: string, content: string | Uint8Array): Promise<void> {
    if (this.failure) throw this.failure;
    const size = content.length;
    const done: Promise<void> = writeFile(path, content).then(
      () => undefined,
      (e: Error) => {
        this.failure ??= e;
      },
    );
    const tracked = done.finally(() => {
      this.pending.delete(tracked);
      this.bytes -= size;
    });
    this.pending.add(tracked);
    this.bytes += size;
    while (this.bytes > this.limit && this.pending.size > 0) await Promise.race(this.pending);
    if (this.failure) throw this.failure;
  }

  /** Waits for every write started; throws the first failure. */
  async drain(): Promise<void> {
    await Promise.all(this.pending);
    if (this.failure) throw this.failure;
  }
}

export class StagingFolder implements FolderSink {
  private readonly written = new Set<string>();
  private readonly folders = new Set<string>();

  constructor(readonly dir: string) {}

  /** Every file written so far, relative to the folder, sorted. */
  get files(): string[] {
    return [...this.written].sort();
  }

  private readonly behind = new WriteBehind();

  /** Starts the write and returns at once unless too many bytes are still on their way (see WriteBehind). */
  async write(rel: string, content: string | Uint8Array): Promise<void> {
    const path = join(this.dir, rel);
    const folder = dirname(path);
    if (!this.folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.noteFolders(rel);
    }
    this.written.add(rel);
    await this.behind.write(path, content);
  }

  /** Waits for the writes still on their way (before the folder is removed after a failure, say). */
  drain(): Promise<void> {
    return this.behind.drain();
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
    await this.behind.drain();
    const paths = this.files.map((rel) => join(this.dir, rel));
    let next = 0;
    const flusher = async () => {
      while (next < paths.length) await syncFile(paths[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(FLUSH_CONCURRENCY, paths.length) }, flusher));
    // Deepest first, so each folder's entry in its parent is flushed after its own.
    for (const folder of [...this.folders].sort((a, b) => b.split(sep).length - a.split(sep).length || (a < b ? -1 : 1))) await syncDir(folder);
    await syncDir(this.dir);
  }

  private noteFolders(rel: string): void {
    for (let folder = dirname(join(this.dir, rel)); folder.length > this.dir.length; folder = dirname(folder)) this.folders.add(folder);
  }
}

export async function syncFile(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Flushes a folder's entries (renames into it) to disk. */
export async function syncDir(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } catch {
    // Some file systems refuse fsync on folders; the rename is still atomic.
  } finally {
    await fh.close();
  }
}
