import { parentPort, workerData } from 'node:worker_threads';
import { readYamlSheet } from './yaml-sheet.js';

/** A worker thread reading a share of the turn's YAML order files (see parallel-sheets.ts). */
parentPort?.postMessage((workerData as Uint8Array[]).map((bytes) => readYamlSheet(bytes)));
