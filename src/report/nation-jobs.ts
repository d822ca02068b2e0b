import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Campaign } from '../core/campaign.js';
import type { LoggedEvent } from '../core/events.js';
import type { NationId } from '../core/ids.js';
import type { TurnOrders } from '../core/orders.js';
import type { GameState } from '../core/state.js';
import { nationView } from './nation-view.js';
import { gmLogLines } from './gm-log.js';
import { threadCount } from '../host/threads.js';
import { CampaignError, type FileProblem } from '../campaign/problems.js';
import { isFolderSink, type FileSink, type FolderSink } from '../campaign/staging.js';
import { NATION_FORMATS, renderNationReports, type NationFormat, type ReportTemplates } from './render.js';
import type { NationView } from './types.js';

/**
 * Rendering the nations' reports. A nation's view is made from the whole turn
 * (the world before and after, the events, the orders); its files are made
 * from the view alone, with the campaign's map and catalogue. In a big
 * campaign worker threads are given the whole turn once, as they start, and
 * then make nations' views and files alike: a view is made where it is
 * rendered, so nothing is copied per nation, and this thread, which also
 * makes the GM's report and the turn's own files, is not the one making
 * every view. Every thread takes the next nation from one shared counter, so
 * the work evens out whatever each nation costs. A small campaign renders in
 * this thread alone. The files are the same bytes either way.
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
  /** The deadline as players on another clock read it, by nation; the others read `deadline`. */
  deadlineByNation?: Readonly<Record<string, string>>;
  /** With `reports.gmLog`: the schedule's lines of the GM's log; each nation's adjustments are added (gm-log.ts). */
  gmLog?: readonly string[];
  inlineNationsUpTo?: number;
  /** Which of a nation's files to make (campaign.yaml `reports.formats`; DEFAULT_NATION_FORMATS when absent). */
  formats?: readonly NationFormat[];
}

export const REPORTS_DIR = 'reports';

/** Below this many nations, starting workers costs more than it saves. */
export const PARALLEL_FROM = 60;

export function jobNationView(job: NationJob, nation: NationId): NationView {
  const view = nationView(job.campaign, job.before, job.state, job.events, nation, {
    orders: job.orders,
    legend: job.legend,
    ...(job.deadline !== undefined ? { deadline: job.deadlineByNation?.[nation] ?? job.deadline } : {}),
    ...(job.inlineNationsUpTo !== undefined ? { inlineNationsUpTo: job.inlineNationsUpTo } : {}),
  });
  return job.gmLog ? { ...view, gmLog: gmLogLines(job.campaign, nation, job.gmLog, job.orders.gm) } : view;
}

/** One nation's files (DEFAULT_NATION_FORMATS unless the campaign says), by path relative to the turn folder. */
export function viewFiles(view: NationView, campaign: Campaign, templates: ReportTemplates, formats?: readonly NationFormat[]): [string, string][] {
  const out = renderNationReports(view, campaign, templates, formats);
  const files: [string, string][] = [];
  for (const format of NATION_FORMATS) {
    const content = out[format];
    if (content !== undefined) files.push([`${REPORTS_DIR}/${view.nation.id}${FILE_ENDINGS[format]}`, content]);
  }
  return files;
}

const FILE_ENDINGS: Record<NationFormat, string> = { txt: '.txt', html: '.html', yaml: '.yaml', svg: '.svg', orders: '-orders.yaml' };

// The worker is the compiled report-worker.js beside this file; running from
// TypeScript sources (tests) there is none, and everything stays in-thread.
const workerFile = fileURLToPath(new URL('./report-worker.js', import.meta.url));

/** Messages from a report worker: "failed": a campaign file (a template) is wrong; anything else reaches this thread as the worker's error. */
export type FromWorker = { kind: 'done'; files: string[] } | { kind: 'failed'; problems: FileProblem[] };

/** What a worker is given once: the whole turn, copied as it starts. */
export interface WorkerJob {
  job: NationJob;
  /** The folder to write into (this thread's staging folder). */
  dir: string;
  /**
   * Int32s shared by every thread: [0] the next nation to take (an index
   * into job.nations), [1] set to 1 when the work is given up (a failure
   * anywhere), after which no nation is started.
   */
  shared: SharedArrayBuffer;
}

/** The next nation for this thread, or undefined when every one is taken or the work is given up. */
export function takeNation(job: NationJob, shared: Int32Array): NationId | undefined {
  if (Atomics.load(shared, 1) !== 0) return undefined;
  const i = Atomics.add(shared, 0, 1);
  return i < job.nations.length ? job.nations[i] : undefined;
}

/** A report worker as this thread sees it. */
interface Hand {
  /** Settles when the worker has stopped, every file it made written and adopted. */
  finished: Promise<void>;
}

/**
 * Renders every nation of the job into the sink, each nation's files written
 * as soon as they are made, so memory holds a few reports at a time.
 * `beside` is this thread's other work (the GM's report): in a big campaign it
 * runs once the workers have a head start, so no core idles meanwhile.
 * Workers need a folder to write into; any other sink renders in this thread.
 */
export async function renderNations(job: NationJob, sink: FileSink, templates: ReportTemplates, beside: () => Promise<void> = () => Promise.resolve()): Promise<void> {
  const threads = existsSync(workerFile) && isFolderSink(sink) ? threadCount(job.nations.length, PARALLEL_FROM) : 1;
  const renderHere = async (nation: NationId) => {
    for (const [rel, content] of viewFiles(jobNationView(job, nation), job.campaign, templates, job.formats)) await sink.write(rel, content);
  };
  if (threads <= 1 || !isFolderSink(sink)) {
    await beside();
    for (const nation of job.nations) await renderHere(nation);
    return;
  }

  const shared = new SharedArrayBuffer(8);
  const counter = new Int32Array(shared);
  // The first failure, in any thread, ends the work: no nation is started
  // after it, the workers finish the files they are writing and stop, and
  // only then is the failure passed on (the caller removes the folder they
  // all write into).
  let failure: { error: unknown } | undefined;
  const fail = (error: unknown) => {
    failure ??= { error };
    Atomics.store(counter, 1, 1);
  };
  // The workers start on the nations at once; this thread makes the GM's report first, then joins them.
  const hands = Array.from({ length: threads - 1 }, () => startWorker({ job, dir: sink.dir, shared }, sink));
  const finished = Promise.all(hands.map((h) => h.finished.catch(fail)));
  // Yields to the event loop, where the workers' "done" messages wait.
  const breathe = () => new Promise((resolve) => setImmediate(resolve));
  try {
    await beside();
    for (let nation = takeNation(job, counter); nation !== undefined; nation = takeNation(job, counter)) {
      await renderHere(nation);
      await breathe();
    }
  } catch (e) {
    fail(e);
  }
  await finished;
  if (failure) throw failure.error;
}

function startWorker(workerJob: WorkerJob, sink: FolderSink): Hand {
  const worker = new Worker(workerFile, { workerData: workerJob });
  return {
    finished: new Promise((resolve, reject) => {
      worker.on('message', (message: FromWorker) => {
        if (message.kind === 'failed') reject(new CampaignError(message.problems));
        else if (message.kind === 'done') sink.adopt(message.files);
      });
      worker.once('error', reject);
      worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`report worker stopped with exit code ${code}`))));
    }),
  };
}
