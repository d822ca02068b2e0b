import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Campaign } from '../core/campaign.js';
import type { LoggedEvent } from '../core/events.js';
import type { NationId } from '../core/ids.js';
import type { TurnOrders } from '../core/orders.js';
import type { GameState } from '../core/state.js';
import { nationView } from './nation-view.js';
import { isFolderSink, type FileSink } from '../campaign/staging.js';
import { loadTemplates, renderNationReports, type ReportTemplates } from './render.js';

/**
 * Rendering the nations' reports: each nation's five files are a pure
 * function of the turn, so a big campaign splits its nations over worker
 * threads (one per core), each writing its files itself, and a small one
 * renders them in this thread. The files are the same bytes either way.
 */
export interface NationJob {
  campaign: Campaign;
  before: GameState;
  state: GameState;
  events: readonly LoggedEvent[];
  nations: readonly NationId[];
  orders: TurnOrders;
  legend: Readonly<Record<string, string>>;
  templateDirs: readonly string[];
  deadline?: string;
  inlineNationsUpTo?: number;
}

export const REPORTS_DIR = 'reports';

/** Below this many nations, starting workers costs more than it saves. */
export const PARALLEL_FROM = 60;

/** One nation's five files, by path relative to the turn folder. */
export function nationFiles(job: NationJob, templates: ReportTemplates, nation: NationId): [string, string][] {
  const view = nationView(job.campaign, job.before, job.state, job.events, nation, {
    orders: job.orders,
    legend: job.legend,
    ...(job.deadline !== undefined ? { deadline: job.deadline } : {}),
    ...(job.inlineNationsUpTo !== undefined ? { inlineNationsUpTo: job.inlineNationsUpTo } : {}),
  });
  const out = renderNationReports(view, job.campaign, templates);
  return [
    [`${REPORTS_DIR}/${nation}.txt`, out.txt],
    [`${REPORTS_DIR}/${nation}.html`, out.html],
    [`${REPORTS_DIR}/${nation}.yaml`, out.yaml],
    [`${REPORTS_DIR}/${nation}.svg`, out.svg],
    [`${REPORTS_DIR}/${nation}-orders.yaml`, out.orders],
  ];
}

/** How many threads to use: FATECRAFT_REPORT_WORKERS, else one per core (at most 8). */
function workerCount(nations: number): number {
  const set = process.env.FATECRAFT_REPORT_WORKERS;
  const wanted = set !== undefined && /^\d+$/.test(set) ? Number(set) : Math.min(8, availableParallelism());
  return nations < PARALLEL_FROM ? 0 : Math.min(wanted, nations);
}

// The worker is the compiled report-worker.js beside this file; running from
// TypeScript sources (tests) there is none, and everything stays in-thread.
const workerFile = fileURLToPath(new URL('./report-worker.js', import.meta.url));

/**
 * Renders every nation of the job into the sink, each nation's files written
 * as soon as they are made, so memory holds one report at a time per thread.
 * Workers need a folder to write into; any other sink renders in this thread.
 */
export async function renderNations(job: NationJob, sink: FileSink): Promise<void> {
  const count = existsSync(workerFile) && isFolderSink(sink) ? workerCount(job.nations.length) : 0;
  if (count < 2 || !isFolderSink(sink)) {
    const templates = loadTemplates(job.templateDirs);
    for (const nation of job.nations) for (const [rel, content] of nationFiles(job, templates, nation)) await sink.write(rel, content);
    return;
  }
  const chunks: NationId[][] = Array.from({ length: count }, () => []);
  job.nations.forEach((n, i) => chunks[i % count]?.push(n));
  const written = await Promise.all(chunks.map((nations) => inWorker({ ...job, nations }, sink.dir)));
  for (const rels of written) sink.adopt(rels);
}

/** What a worker is given: its share of the nations and the folder to write into. */
export interface WorkerJob {
  job: NationJob;
  dir: string;
}

function inWorker(job: NationJob, dir: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerFile, { workerData: { job, dir } satisfies WorkerJob });
    worker.once('message', (rels: string[]) => resolve(rels));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`report worker stopped with exit code ${code}`));
    });
  });
}
