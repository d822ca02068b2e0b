import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PARALLEL_FROM, THREADS_PAY_FROM, threadsForWork } from '../../src/report/report-crew.js';

/**
 * How many threads a turn's reports are rendered with: by default, this thread alone until the work (nations,
 * and units at twenty to a nation) is big enough for a worker's start to pay; FATECRAFT_THREADS, when set, is
 * the GM's choice and holds from PARALLEL_FROM nations on.
 */
afterEach(() => {
  vi.unstubAllEnvs();
});

/** What the default gives where threads pay: one per core, at most 8. */
const cores = Math.min(8, availableParallelism());

function unset(): void {
  vi.stubEnv('FATECRAFT_THREADS', undefined);
  vi.stubEnv('FATECRAFT_REPORT_WORKERS', undefined);
}

describe('the report threads', () => {
  it('are this thread alone by default while the work is small, one per core once it is not', () => {
    unset();
    // Measured on two cores (docs/benchmarks.md, issue 37's eighth session): 3–5% of the wall for 16–19% more CPU.
    expect(threadsForWork(100, 100 * 100)).toBe(1);
    expect(threadsForWork(1000, 1000)).toBe(1);
    // And 10–18% of the wall time at these.
    expect(threadsForWork(300, 300 * 100)).toBe(cores);
    expect(threadsForWork(1000, 1000 * 20)).toBe(cores);
    expect(threadsForWork(1000, 1000 * 100)).toBe(cores);
    // The line itself, in nations' worth of work.
    expect(threadsForWork(THREADS_PAY_FROM - 1, 0)).toBe(1);
    expect(threadsForWork(THREADS_PAY_FROM, 0)).toBe(cores);
    expect(threadsForWork(PARALLEL_FROM, (THREADS_PAY_FROM - PARALLEL_FROM) * 20)).toBe(cores);
    // Few nations with huge armies: still too few to share out.
    expect(threadsForWork(PARALLEL_FROM - 1, 1_000_000)).toBe(1);
  });

  it('are as many as FATECRAFT_THREADS says, from PARALLEL_FROM nations, however small the work', () => {
    vi.stubEnv('FATECRAFT_THREADS', '3');
    expect(threadsForWork(PARALLEL_FROM, PARALLEL_FROM * 4)).toBe(3);
    expect(threadsForWork(1000, 1000)).toBe(3);
    expect(threadsForWork(PARALLEL_FROM - 1, 0)).toBe(1);
    vi.stubEnv('FATECRAFT_THREADS', '1');
    expect(threadsForWork(1000, 1000 * 100)).toBe(1);
    // The older name still counts as the GM's choice.
    unset();
    vi.stubEnv('FATECRAFT_REPORT_WORKERS', '2');
    expect(threadsForWork(100, 100 * 100)).toBe(2);
  });
});
