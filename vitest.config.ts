import { defineConfig } from 'vitest/config';
import { hangLimit, measuredSlowness, SLOWNESS_VARIABLE } from './test/support/limits.js';
import { memoryScratchRoot } from './test/support/scratch-root.js';

// How busy the machine is as the run begins, for every time limit of the run (test/support/limits.ts).
process.env[SLOWNESS_VARIABLE] ??= String(measuredSlowness());
// Every node process the tests start (the built CLI, a hundred or so a run) reads the certificate bundle
// this variable names before anything else, ~50 ms of CPU each where a machine sets it (this one does, for
// its proxy); the tests' processes talk to loopback servers only, which need no outside authority.
delete process.env.NODE_EXTRA_CA_CERTS;
// Scratch campaigns in memory unless TMPDIR says otherwise (test/support/scratch-root.ts).
const scratch = memoryScratchRoot();
if (scratch) process.env.TMPDIR = scratch;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Limits only catch hangs: generous, scaled by the slowness measured above, and a test that reaches
    // one says what it waited for (test/support/timeouts.ts).
    testTimeout: hangLimit(),
    hookTimeout: hangLimit(),
    setupFiles: ['test/support/timeouts.ts', 'test/support/isolation.ts', 'test/support/cpu-log.ts'],
    // The test files of a worker share its process and the program's modules, loaded once (a fresh
    // process per file spent more time loading them than most files spend testing); what a file changes
    // in the process is put back after it (test/support/isolation.ts).
    isolate: false,
    // Builds dist/ once when it is older than src/ (npm test has just built it).
    globalSetup: ['test/support/global-setup.ts'],
    env: { [SLOWNESS_VARIABLE]: process.env[SLOWNESS_VARIABLE], ...(scratch ? { TMPDIR: scratch } : {}) },
    // Mail tests start real servers; files run in parallel on 2 cores at most.
    maxWorkers: 2,
  },
});
