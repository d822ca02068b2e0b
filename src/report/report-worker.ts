import { parentPort, workerData } from 'node:worker_threads';
import { renderNationFiles, type NationJob } from './nation-jobs.js';

/** A worker thread rendering some nations' reports (see nation-jobs.ts). */
parentPort?.postMessage(renderNationFiles(workerData as NationJob));
