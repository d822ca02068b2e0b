import { parentPort, workerData } from 'node:worker_threads';
import { CampaignError } from '../campaign/problems.js';
import { StagingFolder } from '../campaign/staging.js';
import { loadTemplates } from './render.js';
import { jobNationView, takeNation, viewFiles, type FromWorker, type WorkerJob } from './nation-jobs.js';

/**
 * A worker thread making nations' views and report files (see nation-jobs.ts)
 * until every nation is taken. It is given the whole turn once, as it starts;
 * it writes each file as soon as it is made and hands back only the names:
 * sending the reports themselves to the main thread would hold them all in
 * memory at once. The main thread flushes them to disk with the turn.
 */
const { job, dir, shared } = workerData as WorkerJob;
const counter = new Int32Array(shared);
// The main thread's staging folder, written into from here; the main thread flushes it.
const folder = new StagingFolder(dir);

async function work(): Promise<void> {
  const templates = loadTemplates(job.templateDirs);
  for (let nation = takeNation(job, counter); nation !== undefined; nation = takeNation(job, counter)) {
    const files: string[] = [];
    for (const [rel, content] of viewFiles(jobNationView(job, nation), job.campaign, templates, job.formats)) {
      await folder.write(rel, content);
      files.push(rel);
    }
    // A nation's files are on disk when it is reported done.
    parentPort?.postMessage({ kind: 'done', files } satisfies FromWorker);
  }
}

work().catch((e: unknown) => {
  // A campaign file's problem keeps its file and line across the thread boundary; anything else is a crash.
  if (!(e instanceof CampaignError)) throw e;
  parentPort?.postMessage({ kind: 'failed', problems: e.problems } satisfies FromWorker);
});
