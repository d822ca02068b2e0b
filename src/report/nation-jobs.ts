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
import { loadTemplates, renderNationReports } from './render.js';

/**
 * Rendering the nations' reports: each nation's five files are a pure
 * function of the turn, so a big campaign splits its nations over worker
 * threads (one per core) and a small one renders them in this thread. The
 * files are the same bytes either way.
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

export function renderNationFiles(job: NationJob): Record<string, string> {
  const templates = loadTemplates(job.templateDirs);
  const files: Record<string, string> = {};
  const opts = {
    orders: job.orders,
    legend: job.legend,
    ...(job.deadline !== undefined ? { deadline: job.deadline } : {}),
    ...(job.inlineNationsUpTo !== undefined ? { inlineNationsUpTo: job.inlineNationsUpTo } : {}),
  };
  for (const nation of job.nations) {
    const view = nationView(job.campaign, job.before, job.state, job.events, nation, opts);
    const out = renderNationReports(view, job.campaign, templates);
    files[`${REPORTS_DIR}/${nation}.txt`] = out.txt;
    files[`${REPORTS_DIR}/${nation}.html`] = out.html;
    files[`${REPORTS_DIR}/${nation}.yaml`] = out.yaml;
    files[`${REPORTS_DIR}/${nation}.svg`] = out.svg;
    files[`${REPORTS_DIR}/${nation}-orders.yaml`] = out.orders;
  }
  return files;
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

export async function renderNations(job: NationJob): Promise<Record<string, string>> {
  const count = existsSync(workerFile) ? workerCount(job.nations.length) : 0;
  if (count < 2) return renderNationFiles(job);
  const chunks: NationId[][] = Array.from({ length: count }, () => []);
  job.nations.forEach((n, i) => chunks[i % count]?.push(n));
  const parts = await Promise.all(chunks.map((nations) => inWorker({ ...job, nations })));
  return Object.assign({}, ...parts) as Record<string, string>;
}

function inWorker(job: NationJob): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerFile, { workerData: job });
    worker.once('message', (files: Record<string, string>) => resolve(files));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`report worker stopped with exit code ${code}`));
    });
  });
}
