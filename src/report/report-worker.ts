import { parentPort, workerData } from 'node:worker_threads';
import { CampaignError } from '../campaign/problems.js';
import { StagingFolder } from '../campaign/staging.js';
import { loadTemplates } from './render.js';
import { viewFiles } from './nation-jobs.js';
import { CLAIMED_BY_WORKER, UNCLAIMED, type FromWorker, type ToWorker, type WorkerJob } from './report-crew.js';

/**
 * A worker thread turning nations' views into their report files (see
 * nation-jobs.ts) until told to stop. It gets ready (the templates compiled)
 * as it starts, perhaps while the turn is still being resolved, and is given
 * its folder by `begin`. It writes each file as soon as it is made and hands
 * back only the names: sending the reports themselves to the main thread
 * would hold them all in memory at once. The main thread flushes them to disk
 * with the turn.
 */
const job = workerData as WorkerJob;
const templates = loadTemplates(job.templateDirs);
// The main thread's staging folder, written into from here (the main thread flushes it), its "given up" flag and the nations' claims.
let work: { folder: StagingFolder; cancelled: Int32Array; claims: Int32Array } | undefined;

// Views are handled one at a time, in order; a view's files are on disk when
// it is reported done, and the main thread flushes them with the turn.
let chain = Promise.resolve();
parentPort?.on('message', (message: ToWorker) => {
  chain = chain.then(() =>
    handle(message).catch((e: unknown) => {
      // A campaign file's problem keeps its file and line across the thread boundary; anything else is a crash.
      if (!(e instanceof CampaignError)) throw e;
      parentPort?.postMessage({ kind: 'failed', problems: e.problems } satisfies FromWorker);
      parentPort?.close();
    }),
  );
});

async function handle(message: ToWorker): Promise<void> {
  if (message.kind === 'stop') {
    parentPort?.close();
    return;
  }
  if (message.kind === 'begin') {
    work = { folder: new StagingFolder(message.dir), cancelled: new Int32Array(message.cancelled), claims: new Int32Array(message.claims) };
    return;
  }
  if (!work) throw new Error('a view came before the folder to write it into');
  const files: string[] = [];
  // Once the work is given up (a failure anywhere), the views still queued are dropped; so is a view whose
  // nation the main thread took back (its files are made there).
  if (Atomics.load(work.cancelled, 0) === 0 && Atomics.compareExchange(work.claims, message.claim, UNCLAIMED, CLAIMED_BY_WORKER) === UNCLAIMED) {
    for (const [rel, content] of viewFiles(message.view, job.campaign, templates, job.formats)) {
      await work.folder.write(rel, content);
      files.push(rel);
    }
  }
  parentPort?.postMessage({ kind: 'done', files } satisfies FromWorker);
}
