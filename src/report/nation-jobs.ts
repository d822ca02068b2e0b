import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Campaign } from '../core/campaign.js';
import type { LoggedEvent } from '../core/events.js';
import type { NationId } from '../core/ids.js';
import type { TurnOrders } from '../core/orders.js';
import type { GameState } from '../core/state.js';
import { nationView } from './nation-view.js';
import { threadCount } from '../jobs/threads.js';
import { CampaignError, type FileProblem } from '../campaign/problems.js';
import { isFolderSink, type FileSink, type FolderSink } from '../campaign/staging.js';
import { NATION_FORMATS, renderNationReports, type NationFormat, type ReportTemplates } from './render.js';

/**
 * Rendering the nations' reports: each nation's files are a pure
 * function of the turn, so a big campaign shares its nations between this
 * thread and worker threads, each writing its files itself, and a small one
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
  /** Which of a nation's files to make (campaign.yaml `reports.formats`; all when absent). */
  formats?: readonly NationFormat[];
}

export const REPORTS_DIR = 'reports';

/** Below this many nations, starting workers costs more than it saves. */
export const PARALLEL_FROM = 60;

/** One nation's files (five unless the campaign asks for fewer), by path relative to the turn folder. */
export function nationFiles(job: NationJob, templates: ReportTemplates, nation: NationId): [string, string][] {
  const view = nationView(job.campaign, job.before, job.state, job.events, nation, {
    orders: job.orders,
    legend: job.legend,
    ...(job.deadline !== undefined ? { deadline: job.deadline } : {}),
    ...(job.inlineNationsUpTo !== undefined ? { inlineNationsUpTo: job.inlineNationsUpTo } : {}),
  });
  const out = renderNationReports(view, job.campaign, templates, job.formats);
  const files: [string, string][] = [];
  for (const format of NATION_FORMATS) {
    const content = out[format];
    if (content !== undefined) files.push([`${REPORTS_DIR}/${nation}${FILE_ENDINGS[format]}`, content]);
  }
  return files;
}

const FILE_ENDINGS: Record<NationFormat, string> = { txt: '.txt', html: '.html', yaml: '.yaml', svg: '.svg', orders: '-orders.yaml' };

/** Nations handed out at a time: small enough to even out the threads' loads, big enough to make messages rare. */
const BATCH = 8;

// The worker is the compiled report-worker.js beside this file; running from
// TypeScript sources (tests) there is none, and everything stays in-thread.
const workerFile = fileURLToPath(new URL('./report-worker.js', import.meta.url));

/** Messages between this thread and a report worker. */
export type ToWorker = { kind: 'batch'; nations: NationId[] } | { kind: 'stop' };
/** "failed": a campaign file (a template) is wrong; anything else reaches this thread as the worker's error. */
export type FromWorker = { kind: 'ready' } | { kind: 'done'; files: string[] } | { kind: 'failed'; problems: FileProblem[] };

/** What a worker is given once: the turn, and the folder to write into. */
export interface WorkerJob {
  job: NationJob;
  dir: string;
}

/**
 * Renders every nation of the job into the sink, each nation's files written
 * as soon as they are made, so memory holds one report at a time per thread.
 *
 * In a big campaign, worker threads (one per further core) and this thread
 * take nations from one queue a batch at a time: this thread starts at once
 * while the workers start up, and whatever else it does meanwhile (the GM's
 * report) simply leaves more batches to them. Workers need a folder to write
 * into; any other sink renders in this thread.
 */
export async function renderNations(job: NationJob, sink: FileSink, templates: ReportTemplates): Promise<void> {
  const threads = existsSync(workerFile) && isFolderSink(sink) ? Math.min(threadCount(job.nations.length, PARALLEL_FROM), Math.ceil(job.nations.length / BATCH)) : 1;
  const queue = [...job.nations];
  const take = (): NationId[] => queue.splice(0, BATCH);
  // The first failure, in any thread, ends the queue: every other thread then
  // gets no more work, finishes what it is writing and stops, and only then is
  // the failure passed on (the caller removes the folder they write into).
  let failure: { error: unknown } | undefined;
  const fail = (error: unknown) => {
    failure ??= { error };
    queue.length = 0;
  };
  const workers = isFolderSink(sink) ? Array.from({ length: threads - 1 }, () => inWorker(job, sink, take).catch(fail)) : [];
  try {
    for (let batch = take(); batch.length > 0; batch = take()) {
      for (const nation of batch) for (const [rel, content] of nationFiles(job, templates, nation)) await sink.write(rel, content);
      // Let the event loop run: workers asking for their next batch must not wait for this thread's whole share.
      if (workers.length > 0) await new Promise((resolve) => setImmediate(resolve));
    }
  } catch (e) {
    fail(e);
  }
  await Promise.all(workers);
  if (failure) throw failure.error;
}

/**
 * Runs one worker until the queue is empty. It asks for work once it has
 * started (so no batch waits on a thread still starting up), then keeps two
 * batches in hand so it never waits for this thread either.
 */
function inWorker(job: NationJob, sink: FolderSink, take: () => NationId[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerFile, { workerData: { job: { ...job, nations: [] }, dir: sink.dir } satisfies WorkerJob });
    let inHand = 0;
    const feed = () => {
      const nations = take();
      if (nations.length > 0) {
        inHand++;
        worker.postMessage({ kind: 'batch', nations } satisfies ToWorker);
      } else if (inHand === 0) {
        worker.postMessage({ kind: 'stop' } satisfies ToWorker);
      }
    };
    worker.on('message', (message: FromWorker) => {
      if (message.kind === 'ready') {
        feed();
        feed();
        return;
      }
      if (message.kind === 'failed') {
        reject(new CampaignError(message.problems));
        return;
      }
      sink.adopt(message.files);
      inHand--;
      feed();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 && inHand === 0 ? resolve() : reject(new Error(`report worker stopped with exit code ${code}`))));
  });
}
