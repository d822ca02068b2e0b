/**
 * The desk's checker: the live check and the receipt of orders on file worked out in a few worker threads
 * (check-worker.ts), never in the thread that serves the pages, so a page is not kept waiting behind a big
 * sheet's check. Each thread takes one job at a time; jobs wait in a bounded queue, and past it the player
 * is told the checker is busy, so a flood of checks costs bounded memory. A job that runs past its time
 * limit has its thread ended and replaced.
 *
 * The state cannot change within a turn, so an answer is kept by everything it depends on (the campaign
 * files' version, the nation, the sheet's SHA-256, the token, what is on file, the deadline): checking an
 * unchanged sheet again costs a lookup. A new version of the files (a turn resolved) drops the campaign's
 * kept answers. Without compiled threads (the TypeScript sources, as the tests run them) or with
 * FATECRAFT_THREADS=1, the same answers are worked out in this thread.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CampaignError, type FileProblem } from '../campaign/problems.js';
import { threadCount } from '../host/threads.js';
import type { CampaignReader } from './campaigns.js';
import { answerCheck, type CheckAnswer, type CheckJob } from './check-job.js';
import { KeptMap } from '../core/kept-map.js';

/** Messages between the desk and a checker thread. */
export interface ToChecker {
  id: number;
  job: CheckJob;
}
export type FromChecker = { id: number; answer: CheckAnswer } | { id: number; problems: FileProblem[] } | { id: number; failed: string };

/** The checker's queue is full, or a job ran out of time: the player is asked to try again. */
export class CheckerBusy extends Error {}

export interface CheckerOptions {
  /** Checker threads (0: this thread). Default: one less than FATECRAFT_THREADS or the cores, at most 4. */
  threads?: number;
  /** The compiled worker (default: check-worker.js beside this file). */
  workerFile?: string;
  /** Jobs that may wait for a thread; more are refused as busy. */
  queueLimit?: number;
  /** How long one job may run before its thread is ended (ms). */
  timeLimitMs?: number;
  /** Answers kept (the oldest go first). */
  kept?: number;
  /** Lines of answers kept, all told (accepted orders and problems): a few hostile sheets fill it, not memory. */
  keptLines?: number;
}

const DEFAULT_WORKER = fileURLToPath(new URL('./check-worker.js', import.meta.url));
const MAX_THREADS = 4;

interface Waiting {
  job: CheckJob;
  resolve: (answer: CheckAnswer) => void;
  reject: (e: Error) => void;
}

interface Hand {
  worker: Worker;
  busy?: { id: number; waiting: Waiting; timer: NodeJS.Timeout };
}

export class Checker {
  /** Checker threads at most (0: every check in this thread). */
  readonly threads: number;
  private readonly workerFile: string;
  private readonly queueLimit: number;
  private readonly timeLimitMs: number;
  private readonly hands: Hand[] = [];
  private readonly queue: Waiting[] = [];
  /** Answers by job, weighed by their lines. */
  private readonly kept: KeptMap<string, Promise<CheckAnswer>>;
  /** The files' version each campaign's kept answers belong to. */
  private readonly versions = new Map<string, string>();
  private nextId = 0;
  private holds = 0;
  private closed = false;

  constructor(opts: CheckerOptions = {}) {
    this.workerFile = opts.workerFile ?? DEFAULT_WORKER;
    const wanted = opts.threads ?? Math.min(MAX_THREADS, threadCount(Number.MAX_SAFE_INTEGER, 0) - 1);
    this.threads = existsSync(this.workerFile) ? Math.max(0, wanted) : 0;
    this.queueLimit = opts.queueLimit ?? 256;
    this.timeLimitMs = opts.timeLimitMs ?? 60_000;
    this.kept = new KeptMap({ entries: opts.kept ?? 1000, weight: opts.keptLines ?? 200_000, refresh: true });
  }

  /** The answer to a job against the campaign's latest state: kept, or worked out in a checker thread. */
  async check<K extends CheckJob['kind']>(campaign: CampaignReader, job: Extract<CheckJob, { kind: K }>): Promise<Extract<CheckAnswer, { kind: K }>> {
    // A job's answer is of its own kind (answerCheck).
    return (await this.answer(campaign, job)) as Extract<CheckAnswer, { kind: K }>;
  }

  private async answer(campaign: CampaignReader, job: CheckJob): Promise<CheckAnswer> {
    const version = await campaign.version();
    this.forgetOlder(job.dir, version);
    const key = `${job.dir}\u0000${version}\u0000${keyOf(job)}`;
    // Used again, an answer goes to the back of the line to be forgotten.
    const kept = this.kept.get(key);
    if (kept !== undefined) return kept;
    const answer = this.threads === 0 ? this.here(campaign, job) : this.elsewhere(job);
    this.keep(key, answer);
    return answer;
  }

  /**
   * Stops handing jobs to the threads until the returned function is called: they wait in the queue (and
   * past its limit are refused as busy). The tests hold the checker to see the desk serve pages meanwhile.
   */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      this.pump();
    };
  }

  /** Jobs waiting for a thread. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Ends the threads; jobs not answered are refused as busy. */
  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.queue.splice(0)) w.reject(new CheckerBusy('the desk is stopping'));
    await Promise.all(this.hands.splice(0).map((hand) => {
      hand.busy?.waiting.reject(new CheckerBusy('the desk is stopping'));
      if (hand.busy) clearTimeout(hand.busy.timer);
      return hand.worker.terminate();
    }));
  }

  private async here(campaign: CampaignReader, job: CheckJob): Promise<CheckAnswer> {
    const { view, state } = await campaign.state();
    return answerCheck(job, view.open.campaign, state);
  }

  private elsewhere(job: CheckJob): Promise<CheckAnswer> {
    if (this.closed) return Promise.reject(new CheckerBusy('the desk is stopping'));
    if (this.queue.length >= this.queueLimit) return Promise.reject(new CheckerBusy(`${this.queue.length} checks are waiting`));
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.pump();
    });
  }

  /** Hands waiting jobs to idle threads, starting threads up to the limit as they are needed. */
  private pump(): void {
    while (this.holds === 0 && this.queue.length > 0) {
      let hand = this.hands.find((h) => h.busy === undefined);
      if (hand === undefined && this.hands.length < this.threads) hand = this.start();
      if (hand === undefined) return;
      const waiting = this.queue.shift()!;
      const id = this.nextId++;
      const timer = setTimeout(() => this.fail(hand, new CheckerBusy(`a check ran longer than ${this.timeLimitMs} ms`)), this.timeLimitMs);
      hand.busy = { id, waiting, timer };
      hand.worker.ref();
      hand.worker.postMessage({ id, job: waiting.job } satisfies ToChecker);
    }
  }

  private start(): Hand {
    const worker = new Worker(this.workerFile);
    // An idle checker does not keep the process alive (it is referenced while it has a job).
    worker.unref();
    const hand: Hand = { worker };
    worker.on('message', (reply: FromChecker) => {
      const busy = hand.busy;
      if (busy === undefined || busy.id !== reply.id) return;
      clearTimeout(busy.timer);
      hand.busy = undefined;
      hand.worker.unref();
      if ('answer' in reply) busy.waiting.resolve(reply.answer);
      else if ('problems' in reply) busy.waiting.reject(new CampaignError(reply.problems));
      else busy.waiting.reject(new Error(`a checker thread failed: ${reply.failed}`));
      this.pump();
    });
    worker.on('error', (e) => this.fail(hand, e));
    worker.on('exit', () => this.fail(hand, new Error('a checker thread stopped')));
    this.hands.push(hand);
    return hand;
  }

  /** A thread that failed or ran out of time is ended; its job is refused and another thread takes the queue. */
  private fail(hand: Hand, error: Error): void {
    const at = this.hands.indexOf(hand);
    if (at < 0) return;
    this.hands.splice(at, 1);
    if (hand.busy) {
      clearTimeout(hand.busy.timer);
      hand.busy.waiting.reject(error);
      hand.busy = undefined;
    }
    void hand.worker.terminate();
    if (!this.closed) this.pump();
  }

  /** The oldest answers go while there are too many, or too many lines of them (weighed once they are in). */
  private keep(key: string, answer: Promise<CheckAnswer>): void {
    this.kept.set(key, answer, 0);
    answer.then(
      (a) => {
        if (this.kept.peek(key) === answer) this.kept.set(key, answer, linesOf(a));
      },
      // A refusal as busy, or a failure, is not kept: the next check tries again.
      () => {
        if (this.kept.peek(key) === answer) this.kept.delete(key);
      },
    );
  }

  /** A campaign's files changed (a turn resolved): its kept answers are of the old state, and go. */
  private forgetOlder(dir: string, version: string): void {
    const known = this.versions.get(dir);
    if (known === version) return;
    this.versions.set(dir, version);
    if (known === undefined) return;
    const prefix = `${dir}\u0000${known}\u0000`;
    for (const key of [...this.kept.keys()]) if (key.startsWith(prefix)) this.kept.delete(key);
  }
}

const digest = (data: string | Uint8Array) => createHash('sha256').update(data).digest('base64url');

/** Everything an answer depends on besides the state: the sheet by its digest. */
function keyOf(job: CheckJob): string {
  if (job.kind === 'on-file') return ['on-file', job.nation, job.format, digest(job.bytes)].join('\u0000');
  return ['judge', job.nation, digest(job.text), job.token === undefined ? '-' : digest(job.token), job.retired.join(','), job.onFile, job.late, job.turn ?? '-', job.address].join('\u0000');
}

/** How big an answer is: its receipt's lines (orders understood, problems), and the reader's problems. */
function linesOf(answer: CheckAnswer): number {
  const receipt = answer.kind === 'on-file' ? answer.receipt : 'receipt' in answer.decision ? answer.decision.receipt : undefined;
  const problems = answer.kind === 'judge' && 'problems' in answer.decision ? (answer.decision.problems?.length ?? 0) : 0;
  return 1 + (receipt ? receipt.accepted.length + receipt.problems.length : 0) + problems;
}
