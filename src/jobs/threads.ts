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

/**
 * What a worker thread of a turn is started with. Its work is a stream of
 * short-lived strings and objects (a nation's report, an order sheet), so a
 * young generation larger than V8's default (16 MB semi-spaces) lets most of
 * them die uncopied: in a 1,000-nation turn the report worker's scavenges
 * took 0.53 s with this against 0.90–0.97 s by default (docs/benchmarks.md),
 * at the price of up to that much more memory per worker.
 */
export const WORKER_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 192 } as const;
