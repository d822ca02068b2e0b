import { chmodSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/host/atomic-file.js';

/** The atomic writer the mail loop and the schedule write their files with (src/host/atomic-file.ts). */
const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-atomic-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;
const folder = () => {
  const dir = join(scratch, `case-${++n}`);
  mkdirSync(dir);
  return dir;
};

describe('writeFileAtomic', () => {
  it('writes the file whole and leaves nothing else beside it', async () => {
    const dir = folder();
    await writeFileAtomic(join(dir, 'ledger.yaml'), 'status: done\n');
    await writeFileAtomic(join(dir, 'raw.eml'), Buffer.from([0xff, 0x00, 0x41]), { fsync: false });
    expect(readFileSync(join(dir, 'ledger.yaml'), 'utf8')).toBe('status: done\n');
    expect([...readFileSync(join(dir, 'raw.eml'))]).toEqual([0xff, 0x00, 0x41]);
    expect(readdirSync(dir).sort()).toEqual(['ledger.yaml', 'raw.eml']);
  });

  it('puts a new file in the old one\'s place rather than writing into it: a reader of the old file reads it whole', async () => {
    const dir = folder();
    const file = join(dir, 'queue.yaml');
    writeFileSync(file, 'old old old\n');
    const reader = openSync(file, 'r');
    try {
      await writeFileAtomic(file, 'new\n');
      const buffer = Buffer.alloc(64);
      const read = readSync(reader, buffer, 0, 64, 0);
      expect(buffer.subarray(0, read).toString()).toBe('old old old\n');
    } finally {
      closeSync(reader);
    }
    expect(readFileSync(file, 'utf8')).toBe('new\n');
  });

  it('gives the mode asked for exactly, keeps an existing file\'s, and a new file the usual one', async () => {
    const dir = folder();
    const umask = process.umask();
    await writeFileAtomic(join(dir, 'secret.eml'), 'x', { mode: 0o600 });
    expect(statSync(join(dir, 'secret.eml')).mode & 0o777).toBe(0o600);
    await writeFileAtomic(join(dir, 'wide.yaml'), 'x', { mode: 0o666 });
    expect(statSync(join(dir, 'wide.yaml')).mode & 0o777).toBe(0o666);
    writeFileSync(join(dir, 'kept.yaml'), 'a');
    chmodSync(join(dir, 'kept.yaml'), 0o640);
    await writeFileAtomic(join(dir, 'kept.yaml'), 'b');
    expect(statSync(join(dir, 'kept.yaml')).mode & 0o777).toBe(0o640);
    await writeFileAtomic(join(dir, 'fresh.yaml'), 'c');
    expect(statSync(join(dir, 'fresh.yaml')).mode & 0o777).toBe(0o666 & ~umask);
  });

  it('lands writes to one file in the order they were asked for', async () => {
    const dir = folder();
    const file = join(dir, 'senders.yaml');
    // The first writes are the biggest: unordered, a later small write would be done first and be overwritten.
    const writes = Array.from({ length: 12 }, (_, i) => writeFileAtomic(file, `${i}\n`.repeat(1_000_000 >> i)));
    await Promise.all(writes);
    const last = readFileSync(file, 'utf8');
    expect([last.slice(0, 3), last.length]).toEqual(['11\n', 3 * (1_000_000 >> 11)]);
    expect(readdirSync(dir)).toEqual(['senders.yaml']);
  });

  it('makes a missing folder when asked to, and only then', async () => {
    const dir = folder();
    await expect(writeFileAtomic(join(dir, 'ledger', 'a.yaml'), 'x')).rejects.toMatchObject({ code: 'ENOENT' });
    await writeFileAtomic(join(dir, 'ledger', 'deep', 'a.yaml'), 'x', { makeFolder: true });
    await writeFileAtomic(join(dir, 'ledger', 'deep', 'b.yaml'), 'y', { makeFolder: true });
    expect(readdirSync(join(dir, 'ledger', 'deep')).sort()).toEqual(['a.yaml', 'b.yaml']);
    expect(readdirSync(dir)).toEqual(['ledger']);
  });

  it('fails as the file system does, leaving no temporary file, and the next write to the file still happens', async () => {
    const dir = folder();
    await expect(writeFileAtomic(join(dir, 'no-such-folder', 'a.yaml'), 'x')).rejects.toMatchObject({ code: 'ENOENT' });
    // A folder where the file should go: the rename fails.
    mkdirSync(join(dir, 'taken.yaml'));
    writeFileSync(join(dir, 'taken.yaml', 'inside'), '');
    const failed = writeFileAtomic(join(dir, 'taken.yaml'), 'x');
    const after = writeFileAtomic(join(dir, 'other.yaml'), 'y');
    await expect(failed).rejects.toThrow();
    await after;
    expect(readdirSync(dir).sort()).toEqual(['other.yaml', 'taken.yaml']);
    rmSync(join(dir, 'taken.yaml'), { recursive: true });
    await writeFileAtomic(join(dir, 'taken.yaml'), 'z');
    expect(readFileSync(join(dir, 'taken.yaml'), 'utf8')).toBe('z');
  });
});
