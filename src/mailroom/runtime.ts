import { parseIsoTime } from '../campaign/iso-time.js';

/**
 * What the mailroom takes from its surroundings: time, and the points where a test may interrupt it.
 */

/** The mailroom's clock. Nothing under src/mailroom reads the time another way. */
export interface MailClock {
  now(): Date;
  /** Pauses between retries; a test clock may return at once. */
  sleep(ms: number): Promise<void>;
}

export const systemMailClock: MailClock = {
  now: () => new Date(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** FATECRAFT_NOW (ISO 8601) fixes the time, as for `fatecraft tick`; pauses are then skipped. */
export function mailClockFromEnv(env: NodeJS.ProcessEnv = process.env): MailClock {
  const fixed = env.FATECRAFT_NOW;
  if (fixed === undefined || fixed === '') return systemMailClock;
  const at = parseIsoTime(fixed);
  if (at === undefined) throw new Error(`FATECRAFT_NOW is not a time: "${fixed}" (write e.g. 2025-03-09T18:00:00Z)`);
  return { now: () => new Date(at), sleep: () => Promise.resolve() };
}

/**
 * Every point between two steps of the mailroom where a run may be cut short. A test's fault hook throws at
 * one of them to prove that running again ends where an uninterrupted run would;
 * FATECRAFT_MAIL_FAILPOINT=<point>[:<n>] kills the process outright (SIGKILL) at the n-th time it passes
 * the point (the first by default).
 */
export const FAULT_POINTS = [
  /** Inbound: after the inbox was listed, before any message was handled. */
  'after-list',
  /** Inbound: the decision is in the ledger, nothing done yet. */
  'after-decide',
  /** Inbound: the orders (and the raw mail) are filed. */
  'after-file',
  /** Inbound: the answer is in the outbox queue. */
  'after-enqueue',
  /** Inbound: the ledger says done; the message is still in the inbox. */
  'after-done',
  /** Inbound: the message was moved out of the inbox. */
  'after-move',
  /** Outbound: a nation's report of the turn is in the queue (`mail send`, the tick's reports). */
  'after-queue-report',
  /** Outbound: about to hand a message to the server. */
  'before-send',
  /** Outbound: the server accepted it; the queue does not know yet. */
  'after-send',
  /** Outbound: the queue marks it sent. */
  'after-mark',
] as const;

export type FaultPoint = (typeof FAULT_POINTS)[number];

export type FaultHook = (point: FaultPoint, detail: string) => void | Promise<void>;

/** Wraps what a fault hook threw, so the executor lets it through instead of quarantining a message. */
export class FaultInterrupt extends Error {
  constructor(readonly point: FaultPoint, readonly original: unknown) {
    super(`interrupted at ${point}: ${(original as Error)?.message ?? String(original)}`);
    this.name = 'FaultInterrupt';
  }
}

const passes = new Map<string, number>();

export async function passFault(hook: FaultHook | undefined, point: FaultPoint, detail: string): Promise<void> {
  const wanted = process.env.FATECRAFT_MAIL_FAILPOINT;
  if (wanted !== undefined && wanted !== '') {
    const [name, nth] = wanted.split(':');
    if (name === point) {
      const count = (passes.get(point) ?? 0) + 1;
      passes.set(point, count);
      if (count >= Number(nth ?? '1')) process.kill(process.pid, 'SIGKILL');
    }
  }
  if (hook === undefined) return;
  try {
    await hook(point, detail);
  } catch (error) {
    throw new FaultInterrupt(point, error);
  }
}

/** The hook's own error, for callers of the public API. */
export function unwrapFault(error: unknown): unknown {
  return error instanceof FaultInterrupt ? error.original : error;
}
