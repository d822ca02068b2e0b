import { availableParallelism } from 'node:os';

/** FATECRAFT_THREADS as set (FATECRAFT_REPORT_WORKERS is its older name), or undefined when unset or not a number. */
function threadsSet(): number | undefined {
  const set = process.env.FATECRAFT_THREADS ?? process.env.FATECRAFT_REPORT_WORKERS;
  return set !== undefined && /^\d+$/.test(set) ? Number(set) : undefined;
}

/** Whether the GM chose the number of threads (FATECRAFT_THREADS): then no measure of the work overrides it. */
export function threadsChosen(): boolean {
  return threadsSet() !== undefined;
}

/**
 * How many threads a big piece of work (reading order files, rendering
 * reports) may use, this one included: FATECRAFT_THREADS when set (0 or 1:
 * this thread only), else one per core, at most 8. Below `parallelFrom`
 * items, starting threads costs more than it saves.
 */
export function threadCount(items: number, parallelFrom: number): number {
  const wanted = threadsSet() ?? Math.min(8, availableParallelism());
  return items < parallelFrom ? 1 : Math.max(1, Math.min(wanted, items));
}
