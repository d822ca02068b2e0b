import { cpus, loadavg } from 'node:os';

/**
 * Time limits in the tests only catch hangs; nothing in the tests measures speed. A limit is a generous
 * base (many times what a quiet 2-core machine needs) times the machine's slowness when the run began.
 * vitest.config.ts measures it once and hands it to every test process as FATECRAFT_TEST_SLOWNESS; set
 * that variable yourself to give a machine busier still more time.
 */
export const SLOWNESS_VARIABLE = 'FATECRAFT_TEST_SLOWNESS';

/**
 * How much slower than a quiet machine this one runs a process now, at least 1: the larger of the load
 * average per core and the wall time a short piece of CPU work takes over the CPU time it gets (the share
 * of a core this process is given, which the load average reports only a minute late).
 */
export function measuredSlowness(): number {
  const perCore = loadavg()[0]! / Math.max(1, cpus().length);
  const started = performance.now();
  const cpu = process.cpuUsage();
  let spent = 0;
  while (spent < 100) {
    for (let i = 0; i < 100_000; i++) Math.sqrt(i);
    const used = process.cpuUsage(cpu);
    spent = (used.user + used.system) / 1000;
  }
  const share = (performance.now() - started) / spent;
  return Math.max(1, Math.round(Math.max(perCore, share) * 10) / 10);
}

export function slowness(): number {
  const set = Number(process.env[SLOWNESS_VARIABLE]);
  return Number.isFinite(set) && set >= 1 ? set : 1;
}

/** The base every test and hook gets: a test that needs more than a few seconds on a quiet machine is rare. */
export const TEST_LIMIT_MS = 5 * 60_000;

/** A base limit scaled by the slowness the run began with. */
export function hangLimit(baseMs: number = TEST_LIMIT_MS): number {
  return Math.round(baseMs * slowness());
}

/** What a timeout's message adds: that this is a hang catcher, and how busy the machine is. */
export function busyNote(): string {
  const [one] = loadavg();
  return `Time limits here only catch hangs; a machine busier than when the run began can also reach them (load average now ${one!.toFixed(1)} on ${cpus().length} cores; the run began with a slowness factor of ${slowness()}: set ${SLOWNESS_VARIABLE}=<factor> for more time).`;
}
