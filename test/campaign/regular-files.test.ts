import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRegularFile, readRegularFiles } from '../../src/campaign/regular-file.js';

const dir = mkdtempSync(join(tmpdir(), 'fatecraft-regular-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readRegularFiles', () => {
  it('reads many files, each answer in the place of its path, odd entries refused among them', () => {
    const paths: string[] = [];
    // A folder, a link, a FIFO (never waited on) and a missing file among them.
    for (let i = 0; i < 40; i++) {
      const path = join(dir, `f${String(i).padStart(2, '0')}.yaml`);
      if (i === 5) mkdirSync(path);
      else if (i === 17) symlinkSync(join(dir, 'f00.yaml'), path);
      else if (i === 23) execFileSync('mkfifo', [path]);
      else if (i !== 31) writeFileSync(path, `file ${i}\n`.repeat(i + 1));
      paths.push(path);
    }
    const reads = readRegularFiles(paths);
    expect(reads).toHaveLength(40);
    for (let i = 0; i < 40; i++) {
      const read = reads[i]!;
      // Each answer is what reading that one file alone gives.
      const alone = readRegularFile(paths[i]!);
      expect(read.ok).toBe(alone.ok);
      if (read.ok && alone.ok) {
        expect(read.bytes.toString()).toBe(`file ${i}\n`.repeat(i + 1));
        expect(read.identity).toEqual(alone.identity);
      }
    }
    expect(reads[5]).toEqual({ ok: false, reason: 'it is a folder, not a regular file' });
    expect(reads[17]).toEqual({ ok: false, reason: 'it is a symbolic link, not a regular file' });
    expect(reads[23]).toEqual({ ok: false, reason: 'it is a named pipe (FIFO), not a regular file' });
    expect(reads[31]).toEqual({ ok: false, reason: 'it cannot be read (ENOENT)' });
    expect(readRegularFiles([])).toEqual([]);
  });
});
