import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PARALLEL_FROM } from '../../src/report/nation-jobs.js';

/**
 * Big campaigns render their nations' reports in worker threads. This runs the
 * built CLI (the workers are compiled files) on a generated campaign big enough
 * to use them, and once more with workers switched off: the bytes must match.
 */
const CLI = join(import.meta.dirname, '..', '..', 'dist', 'src', 'cli', 'main.js');
const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-workers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function reports(dir: string): Record<string, string> {
  const at = join(dir, 'turns', '0001', 'reports');
  return Object.fromEntries(readdirSync(at).sort().map((n) => [n, readFileSync(join(at, n), 'utf8')]));
}

describe('reports in worker threads', () => {
  it('are byte for byte the reports rendered in one thread', () => {
    const nations = String(PARALLEL_FROM + 4);
    const turn = (name: string, workers: string) => {
      const dir = join(scratch, name);
      execFileSync(process.execPath, [CLI, 'generate', dir, '--nations', nations, '--units-per-nation', '8', '--seed', 'workers']);
      execFileSync(process.execPath, [CLI, 'turn', dir], { env: { ...process.env, FATECRAFT_REPORT_WORKERS: workers } });
      return reports(dir);
    };
    const threaded = turn('threaded', '3');
    const single = turn('single', '0');
    expect(Object.keys(threaded).length).toBe(Number(nations) * 5 + 3);
    expect(threaded).toEqual(single);
  });
});
