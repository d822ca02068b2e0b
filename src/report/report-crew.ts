import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Campaign } from '../core/campaign.js';
import type { GameState } from '../core/state.js';
import { threadCount, threadsChosen } from '../host/threads.js';
import { CampaignError, type FileProblem } from '../campaign/problems.js';
import type { FolderSink } from '../campaign/staging.js';
import type { NationFormat } from './render.js';
import type { NationView } from './types.js';

/**
 * The report worker threads (report-worker.ts) as this thread sees them. A
 * worker needs only the campaign, the template folders and the formats to get
 * ready — loading the program and compiling the templates, most of a second —
 * so a turn can start its crew before it resolves (`ReportCrew.warm`), while the
 * second core has nothing else to do; the folder to write into comes with
 * `begin`, once the turn is resolved and its folder made.
 */

// The worker is the compiled report-worker.js beside this file; running from
// TypeScript sources (tests) there is none, and everything stays in-thread.
const workerFile = fileURLToPath(new URL('./report-worker.js', import.meta.url));

/** Below this many nations, workers have too little to share, whatever FATECRAFT_THREADS says. */
export const PARALLEL_FROM = 60;

/**
 * A turn's report work in nations' worth: one thread's CPU for a nation's files is about what twenty of its
 * units add to them (5.4 ms a nation and 0.28 ms a unit, fitted to the 1,000 × 1, 100 × 100 and 1,000 × 100
 * turns; docs/benchmarks.md, issue 37's eighth session).
 */
const UNITS_PER_NATION_OF_WORK = 20;

/**
 * Below this much report work, unless FATECRAFT_THREADS says otherwise, the turn renders in this thread: a
 * worker's start (its program, the templates, its own compiled code) costs about a second of CPU. On two
 * cores it saved 3–5% of the wall time at 100 nations × 100 units (594 nations' worth) and 1,000 × 1 (1,050)
 * for 16–19% more CPU; 10–18% of it at 300 × 100 (1,800) and 1,000 × 20 (2,000) for 3–15% more.
 */
export const THREADS_PAY_FROM = 1_500;

/** What a worker is given as it starts: all it needs to get ready. */
export interface WorkerJob {
  campaign: Campaign;
  templateDirs: readonly string[];
  formats?: readonly NationFormat[];
}

/** Messages between this thread and a report worker. */
export type ToWorker =
  /**
   * The folder to write into (this thread's staging folder); one Int32 set to 1 when the work is given up; and
   * one Int32 per nation of the job, its claim: whichever thread turns it from UNCLAIMED makes its files, and
   * the other passes it over.
   */
  | { kind: 'begin'; dir: string; cancelled: SharedArrayBuffer; claims: SharedArrayBuffer }
  | { kind: 'nation'; view: NationView; claim: number }
  | { kind: 'stop' };
/** "failed": a campaign file (a template) is wrong; anything else reaches this thread as the worker's error. */
export type FromWorker = { kind: 'done'; files: string[] } | { kind: 'failed'; problems: FileProblem[] };

/**
 * How many threads a turn of this many nations renders with, this one included (1: this thread alone), its
 * work measured on the world before the turn: the same measure when the crew is started (`ReportCrew.warm`,
 * before the turn is resolved) and when the rendering decides.
 */
export function reportThreads(nations: number, before: Pick<GameState, 'units'>): number {
  return existsSync(workerFile) ? threadsForWork(nations, Object.keys(before.units).length) : 1;
}

/** The same, given the compiled worker (exported for its test: running from sources there is none). */
export function threadsForWork(nations: number, units: number): number {
  if (!threadsChosen() && nations + units / UNITS_PER_NATION_OF_WORK < THREADS_PAY_FROM) return 1;
  return threadCount(nations, PARALLEL_FROM);
}

/** A report worker at work. */
export interface Hand {
  /** Views posted and not yet reported done. */
  inHand: number;
  /** Hands the view over; `claim` is its nation's place in the job's claims. */
  post(view: NationView, claim: number): void;
  /** Settles when the worker has stopped, every file it made written and adopted. */
  finished: Promise<void>;
  stop(): void;
}

/** What every thread of a rendering shares: the "given up" flag and the nations' claims (see `begin`). */
export interface Shared {
  cancelled: SharedArrayBuffer;
  claims: SharedArrayBuffer;
}

/** A nation's claim (`begin`): unclaimed, a worker's, the main thread's. */
export const UNCLAIMED = 0;
export const CLAIMED_BY_WORKER = 1;
export const CLAIMED_HERE = 2;

/** A worker started, not yet given its folder. */
class Recruit {
  private readonly worker: Worker;
  private sink: FolderSink | undefined;
  private dismissed = false;
  private readonly hand: Hand;

  constructor(readonly job: WorkerJob) {
    this.worker = new Worker(workerFile, { workerData: job });
    // A crew waiting for its turn never keeps the process alive (a turn that fails before rendering dismisses it).
    this.worker.unref();
    const worker = this.worker;
    // Listened to from the start: a worker that fails while getting ready fails the rendering that takes it.
    const hand: Hand = {
      inHand: 0,
      post(view, claim) {
        hand.inHand++;
        worker.postMessage({ kind: 'nation', view, claim } satisfies ToWorker);
      },
      stop: () => worker.postMessage({ kind: 'stop' } satisfies ToWorker),
      finished: new Promise((resolve, reject) => {
        worker.on('message', (message: FromWorker) => {
          if (message.kind === 'failed') reject(new CampaignError(message.problems));
          else if (message.kind === 'done') {
            this.sink?.adopt(message.files);
            hand.inHand--;
          }
        });
        worker.once('error', (e) => (this.dismissed ? resolve() : reject(e)));
        worker.once('exit', (code) => (code === 0 || this.dismissed ? resolve() : reject(new Error(`report worker stopped with exit code ${code}`))));
      }),
    };
    // Until taken, nobody awaits it: a failure is kept for whoever does.
    hand.finished.catch(() => undefined);
    this.hand = hand;
  }

  /** Puts the worker to work on a folder. */
  begin(sink: FolderSink, shared: Shared): Hand {
    this.sink = sink;
    this.worker.ref();
    this.worker.postMessage({ kind: 'begin', dir: sink.dir, ...shared } satisfies ToWorker);
    return this.hand;
  }

  dismiss(): void {
    this.dismissed = true;
    void this.worker.terminate();
  }
}

/**
 * Report workers started ahead of their work. `take` hands them to a rendering
 * of the same campaign, templates and formats (any other is given fresh ones);
 * the rest are dismissed.
 */
export class ReportCrew {
  private recruits: Recruit[];

  private constructor(recruits: Recruit[]) {
    this.recruits = recruits;
  }

  /** Workers for a turn of this many nations from the world `before` it, started now; none when it renders in this thread. */
  static warm(job: WorkerJob, nations: number, before: Pick<GameState, 'units'>): ReportCrew {
    return new ReportCrew(Array.from({ length: reportThreads(nations, before) - 1 }, () => new Recruit(job)));
  }

  /** `count` workers at work on the sink's folder: this crew's first, if it was started for the same job. */
  static hire(count: number, job: WorkerJob, sink: FolderSink, shared: Shared, crew?: ReportCrew): Hand[] {
    const ready = crew?.take(job, count) ?? [];
    crew?.dismiss();
    const fresh = Array.from({ length: count - ready.length }, () => new Recruit(job));
    return [...ready, ...fresh].map((recruit) => recruit.begin(sink, shared));
  }

  private take(job: WorkerJob, count: number): Recruit[] {
    const same = (r: Recruit) => r.job.campaign === job.campaign && JSON.stringify([r.job.templateDirs, r.job.formats]) === JSON.stringify([job.templateDirs, job.formats]);
    const taken = this.recruits.filter(same).slice(0, count);
    this.recruits = this.recruits.filter((r) => !taken.includes(r));
    return taken;
  }

  /** Stops the workers not taken (all of them, when the turn failed before its reports). */
  dismiss(): void {
    for (const recruit of this.recruits) recruit.dismiss();
    this.recruits = [];
  }
}
