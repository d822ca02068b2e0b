/**
 * The GM's preview of the pending turn from the desk: the whole turn resolved in a scratch copy is seconds
 * of work in a big campaign, so it runs in a thread of its own (preview-worker.ts) when the compiled worker
 * is there and the desk makes its reports as `fatecraft serve` does; otherwise (the tests' sources, other
 * renderers) in the desk's thread. Either way previewPendingTurn does it: under the lock, in the GM's log.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CampaignError, type FileProblem } from '../campaign/problems.js';
import type { TurnRenderer } from '../campaign/turn-renderer.js';
import { previewPendingTurn } from '../gm/preview.js';
import { systemClock, type Clock } from '../schedule/clock.js';

export interface PreviewJob {
  dir: string;
  lockWaitMs: number;
  reason: string;
  /** The desk's time when its clock is not the system's (FATECRAFT_NOW, tests). */
  fixedNow?: string;
}

export type PreviewReply = { done: true } | { problems: FileProblem[] } | { failed: string };

export const PREVIEW_WORKER = fileURLToPath(new URL('./preview-worker.js', import.meta.url));

export interface PreviewOptions {
  clock: Clock;
  lockWaitMs: number;
  reason: string;
  renderers: TurnRenderer[];
  /** The compiled worker, when the preview runs in a thread of its own (undefined: this thread). */
  workerFile: string | undefined;
}

export async function previewFromDesk(dir: string, opts: PreviewOptions): Promise<void> {
  if (opts.workerFile === undefined || !existsSync(opts.workerFile)) {
    await previewPendingTurn(dir, { clock: opts.clock, lockWaitMs: opts.lockWaitMs, reason: opts.reason, renderers: opts.renderers });
    return;
  }
  const job: PreviewJob = { dir, lockWaitMs: opts.lockWaitMs, reason: opts.reason, ...(opts.clock === systemClock ? {} : { fixedNow: opts.clock.now().toISOString() }) };
  const reply = await new Promise<PreviewReply>((resolve, reject) => {
    const worker = new Worker(opts.workerFile!, { workerData: job });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the preview thread stopped (exit code ${code})`)));
  });
  if ('problems' in reply) throw new CampaignError(reply.problems);
  if ('failed' in reply) throw new Error(`the preview thread failed: ${reply.failed}`);
}
