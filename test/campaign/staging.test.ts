import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isFolderSink, MemorySink, StagingFolder, WriteBehind } from '../../src/campaign/staging.js';

const made: string[] = [];
afterEach(() => made.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'fatecraft-staging-'));
  made.push(d);
  return d;
};

describe('StagingFolder', () => {
  it('writes each file at once, in nested folders, and lists them with those other threads wrote', async () => {
    const root = scratch();
    const staging = new StagingFolder(join(root, '.0001.partial'));
    await staging.write('state.yaml', 'turn: 1\n');
    await staging.write('reports/a.txt', 'A');
    mkdirSync(join(staging.dir, 'reports'), { recursive: true });
    writeFileSync(join(staging.dir, 'reports', 'b.txt'), 'B');
    staging.adopt(['reports/b.txt']);
    expect(staging.files).toEqual(['reports/a.txt', 'reports/b.txt', 'state.yaml']);
    await staging.flush();
    expect(readFileSync(join(staging.dir, 'reports', 'a.txt'), 'utf8')).toBe('A');
    expect(isFolderSink(staging)).toBe(true);
  });

  it('fails the flush when an adopted file is missing: a worker that said it wrote a file must have', async () => {
    const staging = new StagingFolder(scratch());
    staging.adopt(['reports/ghost.txt']);
    await expect(staging.flush()).rejects.toThrow(/ENOENT/);
  });
});

describe('WriteBehind', () => {
  it('has every file whole once drained, and keeps no more than its limit on the way', async () => {
    const dir = scratch();
    const behind = new WriteBehind(10);
    for (let i = 0; i < 20; i++) await behind.write(join(dir, `f${i}`), 'x'.repeat(i));
    await behind.drain();
    for (let i = 0; i < 20; i++) expect(readFileSync(join(dir, `f${i}`), 'utf8')).toBe('x'.repeat(i));
  });

  it('throws the first failure, from the next write or from drain', async () => {
    const behind = new WriteBehind();
    await behind.write(join(scratch(), 'no-such-folder', 'f'), 'x');
    await expect(behind.drain()).rejects.toThrow(/ENOENT/);
    await expect(behind.write(join(scratch(), 'f'), 'x')).rejects.toThrow(/ENOENT/);
  });
});

describe('MemorySink', () => {
  it('keeps the files in memory and is no folder for workers', async () => {
    const sink = new MemorySink();
    await sink.write('reports/a.txt', 'A');
    expect(sink.files).toEqual({ 'reports/a.txt': 'A' });
    expect(isFolderSink(sink)).toBe(false);
  });
});
