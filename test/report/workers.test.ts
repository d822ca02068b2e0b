import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PARALLEL_FROM } from '../../src/report/report-crew.js';
import { ROOT, runBuilt } from '../support/built-cli.js';
import { runInProcess } from '../support/command-line.js';

/**
 * Big campaigns read their order files and render their nations' reports in
 * worker threads. This runs the built CLI (the workers are compiled files) on
 * a generated campaign big enough to use them, and once more with workers
 * switched off: the turn and its reports must be the same bytes. (The
 * campaigns are generated in this process: no threads there.)
 */
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
  it('is byte for byte the turn read and reported in one thread', async () => {
    const nations = String(PARALLEL_FROM + 4);
    const generated = join(scratch, 'generated');
    expect((await runInProcess(['generate', generated, '--nations', nations, '--units-per-nation', '8', '--seed', 'workers'])).status).toBe(0);
    const turn = (name: string, workers: string) => {
      const dir = join(scratch, name);
      cpSync(generated, dir, { recursive: true });
      const run = runBuilt(['turn', dir], { env: { FATECRAFT_THREADS: workers } });
      expect(run.status, run.stderr).toBe(0);
      return turnFiles(dir);
    };
    const threaded = turn('threaded', '3');
    const single = turn('single', '0');
    // Re-rendered later by `fatecraft report`, in threads too: the same bytes again.
    expect(runBuilt(['report', join(scratch, 'threaded')], { env: { FATECRAFT_THREADS: '3' } }).status).toBe(0);
    expect(turnFiles(join(scratch, 'threaded'))).toEqual(threaded);
    // Three files a nation (text, HTML, order sheet); gm.html and nations.txt; state.yaml and events.yaml (the world map is inside gm.html).
    expect(Object.keys(threaded).length).toBe(Number(nations) * 3 + 2 + 2);
    expect(threaded['events.yaml']).toMatch(/type: order_rejected/);
    expect(threaded).toEqual(single);
  });

  it('starts its report workers once the state is read and before it resolves, and none when the state cannot be read', async () => {
    const dir = join(scratch, 'warm');
    expect((await runInProcess(['generate', dir, '--nations', String(PARALLEL_FROM + 4), '--units-per-nation', '4', '--seed', 'warm'])).status).toBe(0);
    const traced = () => {
      const trace = join(scratch, 'trace.txt');
      writeFileSync(trace, '');
      const run = runBuilt(['turn', dir], { env: { FATECRAFT_THREADS: '3', FATECRAFT_TRACE: trace }, nodeArgs: ['--import', join(ROOT, 'test', 'support', 'trace-io.mjs')] });
      // Each thread records its own starts and opens: this thread's report workers, and the starting state's read.
      const all = readFileSync(trace, 'utf8').split('\n');
      const lines = all.filter((l) => /^worker .*report-worker\.js$/.test(l) || /^open .*turns\/0000\/state\.yaml$/.test(l));
      // The order files' readers, with the state's read for when they start.
      const sheetLines = all.filter((l) => /^worker .*sheet-worker\.js$/.test(l) || /^open .*turns\/0000\/state\.yaml$/.test(l));
      return { run, lines, sheetLines };
    };
    const state = join(dir, 'turns', '0000', 'state.yaml');
    const good = readFileSync(state, 'utf8');
    // Turn 0's state names a nation the campaign does not have: the turn fails reading it, before any worker
    // is started (the world's size decides whether they pay). Dismissing workers a later failure leaves
    // behind: test/jobs/run-turn-warm.test.ts.
    writeFileSync(state, good.replace(/^(    nation: )n0003$/m, '$1nobody'));
    const failed = traced();
    expect(failed.run.status).toBe(1);
    expect(failed.run.stderr).toMatch(/no nation "nobody" in campaign\.yaml/);
    expect(failed.run.stderr).not.toMatch(/unexpected error|    at /);
    expect(failed.lines.map((l) => l.split(' ')[0])).toEqual(['open']);
    expect(readdirSync(join(dir, 'turns'))).toEqual(['0000']);

    writeFileSync(state, good);
    const resolved = traced();
    expect(resolved.run.status, resolved.run.stderr).toBe(0);
    // The two started once the state was read did the work: no more were started once the turn was resolved.
    expect(resolved.lines.map((l) => l.split(' ')[0])).toEqual(['open', 'worker', 'worker']);
    // The order files were read by two threads chosen for them, started before the state is read (this thread reads it meanwhile).
    expect(resolved.sheetLines.map((l) => l.split(' ')[0])).toEqual(['worker', 'worker', 'open']);
    expect(readdirSync(join(dir, 'turns', '0001', 'reports')).length).toBe((PARALLEL_FROM + 4) * 3 + 2);
  });

  it("takes back, in this thread, every view posted to a worker that has not begun it, and the worker then makes none of them", async () => {
    const generated = join(scratch, 'held');
    expect((await runInProcess(['generate', generated, '--nations', String(PARALLEL_FROM + 4), '--units-per-nation', '4', '--seed', 'held'])).status).toBe(0);
    const single = join(scratch, 'held-single');
    cpSync(generated, single, { recursive: true });
    expect(runBuilt(['turn', single], { env: { FATECRAFT_THREADS: '0' } }).status).toBe(0);
    const nationFiles = Object.keys(turnFiles(single)).filter((f) => /^reports\/n\d+\.txt$/.test(f));
    expect(nationFiles).toHaveLength(PARALLEL_FROM + 4);

    // One worker, which holds its first view back until every nation's text report is in the folder (made here, then).
    const threaded = join(scratch, 'held-threaded');
    cpSync(generated, threaded, { recursive: true });
    const log = join(scratch, 'held.log');
    writeFileSync(log, '');
    const run = runBuilt(['turn', threaded], {
      env: { FATECRAFT_THREADS: '2', FATECRAFT_HELD_LOG: log, FATECRAFT_HELD_FILES: JSON.stringify(nationFiles) },
      nodeArgs: ['--import', join(ROOT, 'test', 'support', 'held-report-worker.mjs')],
    });
    expect(run.status, run.stderr).toBe(0);
    const said = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { kind: string; files?: string[] });
    expect(said[0]).toEqual({ kind: 'released' });
    const done = said.slice(1);
    // The worker was given views (a head start, then more while it held them all) and made the files of none.
    expect(done.length).toBeGreaterThan(1);
    expect(done.every((m) => m.kind === 'done' && m.files?.length === 0)).toBe(true);
    expect(turnFiles(threaded)).toEqual(turnFiles(single));
  });

  it('fails the whole turn, and stops, when a report cannot be made', async () => {
    const dir = join(scratch, 'broken');
    expect((await runInProcess(['generate', dir, '--nations', String(PARALLEL_FROM + 4), '--units-per-nation', '4', '--seed', 'broken'])).status).toBe(0);
    mkdirSync(join(dir, 'templates'));
    // Only one nation's report fails, in whichever thread takes it: the error is the same.
    writeFileSync(join(dir, 'templates', 'nation.txt.hbs'), 'Report for {{nation.name}}{{#if (eq nation.id "n0040")}}: {{noSuchField}}{{/if}}\n');
    const run = runBuilt(['turn', dir], { env: { FATECRAFT_THREADS: '3' } });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/templates\/nation\.txt\.hbs: line 1: report template nation\.txt\.hbs failed: "noSuchField" not defined/);
    expect(run.stderr).not.toMatch(/unexpected error|    at /);
    expect(readdirSync(join(dir, 'turns'))).toEqual(['0000']);
  });
});
