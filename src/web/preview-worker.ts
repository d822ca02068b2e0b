import { parentPort, workerData } from 'node:worker_threads';
import { CampaignError } from '../campaign/problems.js';
import { previewPendingTurn } from '../gm/preview.js';
import { reportRenderer } from '../report/renderer.js';
import { FakeClock, systemClock } from '../schedule/clock.js';
import type { PreviewJob, PreviewReply } from './preview.js';

/**
 * A thread resolving the pending turn in a scratch copy for the GM (preview.ts), so the desk's own thread
 * goes on serving pages meanwhile. The reports are made as `fatecraft serve` makes a turn's (report renderer).
 */
const job = workerData as PreviewJob;
const clock = job.fixedNow === undefined ? systemClock : new FakeClock(job.fixedNow);
const reply = (message: PreviewReply) => parentPort?.postMessage(message);
previewPendingTurn(job.dir, { clock, lockWaitMs: job.lockWaitMs, reason: job.reason, renderers: [reportRenderer()] }).then(
  () => reply({ done: true }),
  (e: unknown) => reply(e instanceof CampaignError ? { problems: e.problems } : { failed: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
);
