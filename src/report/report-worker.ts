import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { loadTemplates } from './render.js';
import { nationFiles, type FromWorker, type ToWorker, type WorkerJob } from './nation-jobs.js';

/**
 * A worker thread rendering batches of nations' reports (see nation-jobs.ts)
 * until told to stop. It writes each file as soon as it is made and hands back
 * only their names: sending the reports themselves to the main thread would
 * hold them all in memory at once. The main thread flushes them to disk with
 * the turn.
 */
const { job, dir } = workerData as WorkerJob;
const templates = loadTemplates(job.templateDirs);
const made = new Set<string>();

parentPort?.on('message', (message: ToWorker) => {
  if (message.kind === 'stop') {
    parentPort?.close();
    return;
  }
  const files: string[] = [];
  for (const nation of message.nations) {
    for (const [rel, content] of nationFiles(job, templates, nation)) {
      const path = join(dir, rel);
      if (!made.has(dirname(path))) {
        mkdirSync(dirname(path), { recursive: true });
        made.add(dirname(path));
      }
      writeFileSync(path, content);
      files.push(rel);
    }
  }
  parentPort?.postMessage({ kind: 'done', files } satisfies FromWorker);
});
parentPort?.postMessage({ kind: 'ready' } satisfies FromWorker);
