import { availableParallelism } from 'node:os';

/**
 * How many threads a big piece of work (reading order files, rendering
 * reports) may use, this one included: FATECRAFT_THREADS when set (0 or 1:
 * this thread only; FATECRAFT_REPORT_WORKERS is its older name), else one per
 * core, at most 8. Below `parallelFrom` items, starting threads costs more
 * than it saves.
 */
export function threadCount(items: number, parallelFrom: number): number {
  const set = process.env.FATECRAFT_THREADS ?? process.env.FATECRAFT_REPORT_WORKERS;
  const wanted = set !== undefined && /^\d+$/.test(set) ? Number(set) : Math.min(8, availableParallelism());
  return items < parallelFrom ? 1 : Math.max(1, Math.min(wanted, items));
}
