import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';

/**
 * Loaded before every test file (vitest.config.ts, setupFiles). With FATECRAFT_TEST_CPU_LOG=<file>, appends
 * one line per test file: its CPU seconds in the test process, in the processes it waited for (the built
 * CLI, Chromium...), and its wall seconds. CPU time, unlike the wall clock, hardly changes on a busy
 * machine: it is what docs/testing.md's per-file figures are. Off (and free) without the variable.
 */
const log = process.env.FATECRAFT_TEST_CPU_LOG;

/** utime, stime, cutime, cstime of this process in seconds, from /proc (Linux). */
function times(): number[] {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields.slice(11, 15).map((t) => Number(t) / 100);
}

if (log) {
  // Taken as this file is loaded, before the test file's own imports (setup files run first for each file).
  const start = times();
  const wall = performance.now();
  afterAll(() => {
    const [u, s, cu, cs] = times().map((t, i) => t - start[i]!);
    const file = expect.getState().testPath ?? 'unknown';
    appendFileSync(log, `${JSON.stringify({ file, self: +(u! + s!).toFixed(2), children: +(cu! + cs!).toFixed(2), wall: +((performance.now() - wall) / 1000).toFixed(1) })}\n`);
  });
}
