import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PARALLEL_FROM } from '../../src/report/nation-jobs.js';

/**
 * Big campaigns read their order files and render their nations' reports in
 * worker threads. This runs the built CLI (the workers are compiled files) on
 * a generated campaign big enough to use them, and once more with workers
 * switched off: the turn and its reports must be the same bytes.
 */
const CLI = join(import.meta.dirname, '..', '..', 'dist', 'src', 'cli', 'main.js');
const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-workers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function turnFiles(dir: string): Record<string, string> {
  const at = join(dir, 'turns', '0001');
  const files: Record<string, string> = {};
  for (const name of ['state.yaml', 'events.yaml']) files[name] = readFileSync(join(at, name), 'utf8');
  for (const name of readdirSync(join(at, 'reports')).sort()) files[`reports/${name}`] = readFileSync(join(at, 'reports', name), 'utf8');
  return files;
}

describe('a turn in worker threads', () => {
  it('is byte for byte the turn read and reported in one thread', () => {
    const nations = String(PARALLEL_FROM + 4);
    const turn = (name: string, workers: string) => {
      const dir = join(scratch, name);
      execFileSync(process.execPath, [CLI, 'generate', dir, '--nations', nations, '--units-per-nation', '8', '--seed', 'workers']);
      execFileSync(process.execPath, [CLI, 'turn', dir], { env: { ...process.env, FATECRAFT_THREADS: workers } });
      return turnFiles(dir);
    };
    const threaded = turn('threaded', '3');
    const single = turn('single', '0');
    // Re-rendered later by `fatecraft report`, in threads too: the same bytes again.
    execFileSync(process.execPath, [CLI, 'report', join(scratch, 'threaded')], { env: { ...process.env, FATECRAFT_THREADS: '3' } });
    expect(turnFiles(join(scratch, 'threaded'))).toEqual(threaded);
    // Three files a nation (text, HTML, order sheet); gm.html and nations.txt; state.yaml and events.yaml (the world map is inside gm.html).
    expect(Object.keys(threaded).length).toBe(Number(nations) * 3 + 2 + 2);
    expect(threaded['events.yaml']).toMatch(/type: order_rejected/);
    expect(threaded).toEqual(single);
  }, 90_000); // two turns and a re-render, each a whole CLI process

  it('fails the whole turn, and stops, when a report cannot be made', () => {
    const dir = join(scratch, 'broken');
    execFileSync(process.execPath, [CLI, 'generate', dir, '--nations', String(PARALLEL_FROM + 4), '--units-per-nation', '4', '--seed', 'broken']);
    mkdirSync(join(dir, 'templates'));
    // Only one nation's report fails, in whichever thread takes it: the error is the same.
    writeFileSync(join(dir, 'templates', 'nation.txt.hbs'), 'Report for {{nation.name}}{{#if (eq nation.id "n0040")}}: {{noSuchField}}{{/if}}\n');
    const run = spawnSync(process.execPath, [CLI, 'turn', dir], { env: { ...process.env, FATECRAFT_THREADS: '3' }, encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/templates\/nation\.txt\.hbs: line 1: report template nation\.txt\.hbs failed: "noSuchField" not defined/);
    expect(run.stderr).not.toMatch(/unexpected error|    at /);
    expect(readdirSync(join(dir, 'turns'))).toEqual(['0000']);
  });
});
