import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { threadCount, threadsChosen } from '../host/threads.js';
import type { OrderSheet } from './sheet.js';
import { readYamlSheet } from './yaml-sheet.js';

/**
 * Reading a thousand YAML order files is a second or more of work, and each
 * file is read on its own: in a big campaign, worker threads read a share
 * each. The sheets are the same whichever thread read them.
 */
export const PARALLEL_SHEETS_FROM = 60;
/**
 * ...and this many bytes of them, unless FATECRAFT_THREADS says how many
 * threads to use: a worker's own start costs a few hundred milliseconds of
 * CPU, more than reading small sheets here (989 one-unit sheets, 150 KB, take
 * this thread 20 ms warm; 1,000 hundred-unit ones, 3.5 MB, take 750 ms).
 */
const PARALLEL_SHEETS_BYTES = 1_000_000;

// The compiled worker beside this file; from TypeScript sources (tests) there is none.
const workerFile = fileURLToPath(new URL('./sheet-worker.js', import.meta.url));

export interface SheetReadOptions {
  /**
   * This thread has other work meanwhile (a turn loads its state while the
   * sheets are read), so it takes no share: the workers read every file. A
   * campaign too small for workers has its sheets read here, at once.
   */
  elsewhere?: boolean;
}

export async function readYamlSheets(files: readonly Uint8Array[], opts: SheetReadOptions = {}): Promise<OrderSheet[]> {
  const big = threadsChosen() || files.reduce((sum, bytes) => sum + bytes.byteLength, 0) >= PARALLEL_SHEETS_BYTES;
  const threads = big && existsSync(workerFile) ? threadCount(files.length, PARALLEL_SHEETS_FROM) : 1;
  if (threads < 2) return files.map((bytes) => readYamlSheet(bytes));
  const readers = opts.elsewhere ? threads - 1 : threads;
  // Contiguous shares, so the sheets come back in order by simple concatenation.
  const size = Math.ceil(files.length / readers);
  const shares = Array.from({ length: readers }, (_, i) => files.slice(i * size, (i + 1) * size));
  if (opts.elsewhere) return (await Promise.all(shares.map((share) => inWorker(share)))).flat();
  const others = shares.slice(1).map((share) => inWorker(share));
  const mine = (shares[0] ?? []).map((bytes) => readYamlSheet(bytes));
  return [...mine, ...(await Promise.all(others)).flat()];
}

function inWorker(files: readonly Uint8Array[]): Promise<OrderSheet[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerFile, { workerData: files });
    worker.once('message', (sheets: OrderSheet[]) => resolve(sheets));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`order worker stopped with exit code ${code}`));
    });
  });
}
