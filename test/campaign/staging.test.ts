import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isFolderSink, MemorySink, StagingFolder } from '../../src/campaign/staging.js';

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

describe('StagingFolder.write', () => {
  it('fails at once, naming the cause, when the file cannot be written, and lists only what was written', async () => {
    const staging = new StagingFolder(scratch());
    await staging.write('reports', 'a file where a folder should be');
    await expect(staging.write('reports/a.txt', 'A')).rejects.toThrow(/ENOTDIR|EEXIST/);
    expect(staging.files).toEqual(['reports']);
  });

  it('writes a file given in blocks as their bytes one after the other, empty blocks and many of them included', async () => {
    const staging = new StagingFolder(scratch());
    // More blocks than one writev takes (IOV_MAX is 1,024 on Linux), of uneven sizes, some empty, some multi-byte text.
    const blocks = Array.from({ length: 2_500 }, (_, i) => Buffer.from(i % 7 === 0 ? '' : `${i}:${'é'.repeat(i % 5)}\n`));
    await staging.write('events.yaml', blocks);
    await staging.write('empty.yaml', [Buffer.alloc(0)]);
    expect(readFileSync(join(staging.dir, 'events.yaml')).equals(Buffer.concat(blocks))).toBe(true);
    expect(readFileSync(join(staging.dir, 'empty.yaml')).length).toBe(0);
    expect(staging.files).toEqual(['empty.yaml', 'events.yaml']);
  });
});

describe('MemorySink', () => {
  it('keeps the files in memory and is no folder for workers', async () => {
    const sink = new MemorySink();
    await sink.write('reports/a.txt', 'A');
    await sink.write('state.yaml', [Buffer.from('turn: '), Buffer.from('1\n')]);
    expect(sink.files).toEqual({ 'reports/a.txt': 'A', 'state.yaml': Buffer.from('turn: 1\n') });
    expect(isFolderSink(sink)).toBe(false);
  });
});
