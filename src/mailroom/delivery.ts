/**
 * Sending what the outgoing queue holds (outbox.ts): each message handed to the server and marked sent only
 * after it took it; temporary failures retried within the run and in later runs; a server that does not
 * answer given up on for the run (ServerBreaker). See outbox.ts for the queue and its guarantees.
 */
import { MailErrorCode, isMailError } from '../mail/errors.js';
import type { MailOutbox } from '../mail/types.js';
import type { MailSettings } from './config.js';
import { emptySendSummary, toOutbound, type OutboxQueue, type OutKind, type QueuedMessage, type SendSummary } from './outbox.js';
import { passFault, type FaultHook, type MailClock } from './runtime.js';

export interface DeliverOptions {
  clock: MailClock;
  retry: MailSettings['retry'];
  concurrency?: number;
  faults?: FaultHook;
  /** Only these kinds (default: all). */
  kinds?: readonly OutKind[];
  /** Told about each message that failed for good; may queue an alert for the GM. */
  onFailed?: (entry: QueuedMessage) => Promise<void>;
  /** Told about each message some of whose recipients refused it. */
  onPartial?: (entry: QueuedMessage) => Promise<void>;
  /** Shared by the run's calls: once open, nothing more is handed to the server. */
  breaker?: ServerBreaker;
}

/** Failures without an answer in a row (no message sent in between) after which a run gives up on the server. */
const UNANSWERED_LIMIT = 2;

/**
 * A run's view of whether the server is there. A server that never answers costs a timeout per try, and a
 * turn's mail holds the tick's lock meanwhile: after two tries in a row got no answer at all, the run stops
 * trying and defers the rest at once. A 4xx is an answer (the server is there), so it never opens it.
 */
export class ServerBreaker {
  private unanswered = 0;
  /** Why it opened: the last error. */
  reason: string | undefined;

  get open(): boolean {
    return this.reason !== undefined;
  }

  answered(): void {
    this.unanswered = 0;
  }

  noAnswer(error: string): void {
    this.unanswered += 1;
    if (this.unanswered >= UNANSWERED_LIMIT) this.reason ??= error;
  }
}

const MAX_BACKOFF_MS = 6 * 60 * 60 * 1000;

/** Whether a queued message is to be sent now: pending, of the kinds asked for, and due. */
export function isDue(entry: QueuedMessage, opts: DeliverOptions, now: Date): boolean {
  return entry.status === 'pending' && (opts.kinds === undefined || opts.kinds.includes(entry.kind)) && (entry.nextAttemptAt === undefined || Date.parse(entry.nextAttemptAt) <= now.getTime());
}

/** Sends every pending message that is due, oldest first, except `skip`'s. Never throws for one message's failure. */
export async function deliverPending(queue: OutboxQueue, outbox: MailOutbox, opts: DeliverOptions, skip: ReadonlySet<string> = new Set()): Promise<SendSummary> {
  const now = opts.clock.now();
  await queue.tidy();
  const dispatch = new Dispatch(queue, outbox, opts);
  for (const entry of await queue.unsent()) if (!skip.has(entry.messageId) && isDue(entry, opts, now)) dispatch.add(entry);
  return dispatch.drain();
}

/**
 * Hands messages to the server as they are given, up to `concurrency` at once, oldest given first: a fetch
 * gives each answer once its message is done, so the answers go out while the next messages are handled
 * instead of all after them. Each message goes through deliverOne as in deliverPending (marked sent only
 * after the server took it), and is given at most once. A worker's unexpected failure (a fault hook's
 * interrupt, a disk error) stops the dispatch: nothing more is handed to the server, `failure` holds it and
 * drain() throws it.
 */
export class Dispatch {
  readonly summary = emptySendSummary();
  /** Every message given, sent or not: a later pass over the queue leaves them alone. */
  readonly given = new Set<string>();
  private readonly waiting: QueuedMessage[] = [];
  private readonly workers = new Set<Promise<void>>();
  private stop: string | undefined;
  private failed: { error: unknown } | undefined;

  constructor(
    private readonly queue: OutboxQueue,
    private readonly outbox: MailOutbox,
    private readonly opts: DeliverOptions,
  ) {}

  /** The error that stopped it, if one did. */
  get failure(): { error: unknown } | undefined {
    return this.failed;
  }

  /** Why it stopped taking messages (bad credentials or settings), if it did. */
  get stopped(): string | undefined {
    return this.stop;
  }

  /** Queues a message to be sent (once: a message given before is left alone). */
  add(entry: QueuedMessage): void {
    if (this.given.has(entry.messageId)) return;
    this.given.add(entry.messageId);
    this.waiting.push(entry);
    if (this.workers.size < Math.max(1, this.opts.concurrency ?? 1)) {
      const worker: Promise<void> = this.work().finally(() => this.workers.delete(worker));
      this.workers.add(worker);
    }
  }

  /** Waits for every message given to be sent (or deferred, or failed), then says how it went; throws a worker's failure. */
  async drain(): Promise<SendSummary> {
    await this.settle();
    if (this.failed !== undefined) throw this.failed.error;
    if (this.stop !== undefined) this.summary.stopped = this.stop;
    if (this.opts.breaker?.reason !== undefined) this.summary.unreachable = this.opts.breaker.reason;
    return this.summary;
  }

  /** Takes nothing more and waits for what is being sent (a run that failed leaves nothing running behind it). */
  async abandon(): Promise<void> {
    this.waiting.length = 0;
    await this.settle();
  }

  private async settle(): Promise<void> {
    while (this.workers.size > 0) await Promise.all(this.workers);
  }

  private async work(): Promise<void> {
    for (let entry = this.waiting.shift(); entry !== undefined && this.stop === undefined && this.failed === undefined; entry = this.waiting.shift()) {
      let result: OneResult;
      try {
        result = await deliverOne(this.queue, this.outbox, entry, this.opts);
      } catch (error) {
        this.failed ??= { error };
        return;
      }
      const id = entry.messageId;
      if (result === 'sent') this.summary.sent.push(id);
      else if (result === 'partial') {
        this.summary.sent.push(id);
        this.summary.partial.push(id);
      }
      else if (result === 'deferred') this.summary.deferred.push(id);
      else if (result === 'failed') this.summary.failed.push(id);
      else this.stop ??= result.stop;
    }
  }
}

type OneResult = 'sent' | 'partial' | 'deferred' | 'failed' | { stop: string };

async function deliverOne(queue: OutboxQueue, outbox: MailOutbox, entry: QueuedMessage, opts: DeliverOptions): Promise<OneResult> {
  const message = toOutbound(entry);
  for (let attempt = 1; ; attempt++) {
    if (opts.breaker?.open) return attempt === 1 ? deferUntried(queue, entry, opts) : endOfRunFailure(queue, entry, opts);
    await passFault(opts.faults, 'before-send', entry.messageId);
    entry.attempts += 1;
    try {
      const result = await outbox.send(message);
      opts.breaker?.answered();
      await passFault(opts.faults, 'after-send', entry.messageId);
      entry.status = 'sent';
      entry.sentAt = opts.clock.now().toISOString();
      entry.accepted = result.accepted;
      entry.rejected = result.rejected;
      entry.response = result.response;
      delete entry.nextAttemptAt;
      delete entry.lastError;
      await queue.write(entry);
      await passFault(opts.faults, 'after-mark', entry.messageId);
      if (result.rejected.length > 0) {
        await opts.onPartial?.(entry);
        return 'partial';
      }
      return 'sent';
    } catch (error) {
      if (!isMailError(error)) throw error;
      entry.lastError = `${error.code}${error.responseCode ? ` ${error.responseCode}` : ''}: ${error.message}`;
      if (error.unreachable) opts.breaker?.noAnswer(entry.lastError);
      else opts.breaker?.answered();
      if (error.code === MailErrorCode.EAUTH || error.code === MailErrorCode.ECONFIG) {
        await queue.write(entry);
        return { stop: entry.lastError };
      }
      if (error.code === MailErrorCode.ETEMP && attempt < opts.retry.attemptsPerRun && !opts.breaker?.open) {
        await opts.clock.sleep(opts.retry.firstDelayMs * 4 ** (attempt - 1));
        continue;
      }
      if (error.code === MailErrorCode.ETEMP) return endOfRunFailure(queue, entry, opts);
      return fail(queue, entry, opts);
    }
  }
}

/** A temporary failure at the end of the run's tries: tried again in a later run, or failed after retry.maxRuns. */
async function endOfRunFailure(queue: OutboxQueue, entry: QueuedMessage, opts: DeliverOptions): Promise<OneResult> {
  entry.failedRuns += 1;
  if (entry.failedRuns >= opts.retry.maxRuns) return fail(queue, entry, opts);
  const wait = Math.min(MAX_BACKOFF_MS, opts.retry.backoffMinutes * 60_000 * 2 ** (entry.failedRuns - 1));
  entry.nextAttemptAt = new Date(opts.clock.now().getTime() + wait).toISOString();
  await queue.write(entry);
  return 'deferred';
}

async function fail(queue: OutboxQueue, entry: QueuedMessage, opts: DeliverOptions): Promise<OneResult> {
  entry.status = 'failed';
  entry.failedAt = opts.clock.now().toISOString();
  delete entry.nextAttemptAt;
  await queue.write(entry);
  await opts.onFailed?.(entry);
  return 'failed';
}

/**
 * A message the run did not hand to a server that stopped answering: due again after retry.backoffMinutes,
 * its count of failed runs unchanged (the server is at fault, not the message).
 */
async function deferUntried(queue: OutboxQueue, entry: QueuedMessage, opts: DeliverOptions): Promise<OneResult> {
  entry.lastError = `not tried: the server did not answer (${opts.breaker?.reason ?? 'no answer'})`;
  entry.nextAttemptAt = new Date(opts.clock.now().getTime() + opts.retry.backoffMinutes * 60_000).toISOString();
  await queue.write(entry);
  return 'deferred';
}
