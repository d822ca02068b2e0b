/**
 * What every mailroom operation shares: the campaign and its mail settings, the secrets, the clock, the
 * ledger, the outgoing queue and the transport, opened once per run under the campaign's mail lock.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { playedNations } from '../core/campaign.js';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { CampaignError } from '../campaign/problems.js';
import { openCampaign, type OpenCampaign } from '../campaign/store.js';
import type { OutboundMessage } from '../mail/types.js';
import { addressOf, mailDir, requireMailSettings, type MailSettings } from './config.js';
import type { BatchFlush } from './batch-flush.js';
import { composeAlert, type ComposeBase } from './compose.js';
import type { GmNote } from './decide.js';
import { Ledger, SenderStats } from './ledger.js';
import { beginOutage, endOutage } from './outage.js';
import { deliverPending, Dispatch, isDue, ServerBreaker } from './delivery.js';
import { OutboxQueue, type OutKind, type QueuedMessage, type SendSummary } from './outbox.js';
import { systemMailClock, type FaultHook, type MailClock } from './runtime.js';
import { loadSecrets, type SecretSource } from './secrets.js';
import { openTransport, type MailTransport } from './transport.js';

export interface MailroomOptions {
  clock?: MailClock;
  /** A transport to use instead of the one campaign.yaml describes (tests, embedding). */
  transport?: MailTransport;
  secrets?: SecretSource;
  /** Interrupts a run at a named point (tests). */
  faults?: FaultHook;
  /** A line for the console about each thing done. */
  log?: (line: string) => void;
}

export class Mailroom {
  readonly ledger: Ledger;
  readonly queue: OutboxQueue;
  readonly senders: SenderStats;
  readonly mailDir: string;
  private transportValue: MailTransport | undefined;

  private constructor(
    readonly dir: string,
    readonly open: OpenCampaign,
    readonly settings: MailSettings,
    readonly secrets: SecretSource,
    readonly clock: MailClock,
    readonly options: MailroomOptions,
  ) {
    this.mailDir = mailDir(dir);
    this.senders = new SenderStats(this.mailDir);
    this.ledger = new Ledger(this.mailDir, (entry) => this.senders.absorb(entry));
    this.queue = new OutboxQueue(this.mailDir);
    this.transportValue = options.transport;
  }

  static async open(dir: string, options: MailroomOptions = {}): Promise<Mailroom> {
    const open = await openCampaign(dir);
    const settings = await requireMailSettings(open);
    const secrets = options.secrets ?? loadSecrets({ campaign: open.campaign.name, campaignDir: dir });
    return new Mailroom(dir, open, settings, secrets, options.clock ?? systemMailClock, options);
  }

  /** Opens the room under the mail lock, runs `work`, saves the sender statistics and closes the transport. */
  static async run<T>(dir: string, options: MailroomOptions, work: (room: Mailroom) => Promise<T>): Promise<T> {
    const room = await Mailroom.open(dir, options);
    return withMailLock(room.mailDir, async () => {
      try {
        // Under the lock: a killed run's last done marks are put back (Ledger.recoverDone) and its counts rebuilt
        // from its ledger entries before anything is judged.
        await room.ledger.recoverDone();
        await room.senders.load(room.ledger);
        await room.senders.begin();
        return await work(room);
      } finally {
        await room.senders.save(room.clock.now()).catch(() => undefined);
        // A transport handed in by the caller is the caller's to close.
        if (options.transport === undefined) await room.transportValue?.close().catch(() => undefined);
      }
    });
  }

  get transport(): MailTransport {
    this.transportValue ??= openTransport(this.dir, this.settings, this.secrets);
    return this.transportValue;
  }

  log(line: string): void {
    this.options.log?.(line);
  }

  base(): ComposeBase {
    return { settings: this.settings, campaign: { name: this.open.campaign.name, title: this.open.campaign.title }, date: this.clock.now() };
  }

  get gmAddress(): string {
    return addressOf(this.settings.gm)!;
  }

  /** Every address of a nation, as registered in campaign.yaml (lower case). */
  addressesOf(nation: string): string[] {
    return (this.open.file.nations[nation]?.email ?? []).map((a) => addressOf(a)).filter((a): a is string => a !== undefined);
  }

  addressBook(): Record<string, string[]> {
    return Object.fromEntries(playedNations(this.open.campaign).map((n) => [n, this.addressesOf(n)]));
  }

  /** The processor's own addresses: mail from them is ours and never answered. */
  ownAddresses(): string[] {
    return [this.settings.from, ...this.settings.aliases].map((a) => addressOf(a)).filter((a): a is string => a !== undefined);
  }

  /**
   * Set while a fetch carries out a message: what is queued meanwhile is flushed with the message's batch,
   * before its "done" and before anything is sent (batch-flush.ts), instead of one fsync per message queued.
   */
  batchFlush: BatchFlush | undefined;

  /** Queues a message once (by Message-ID). True when it was queued now. */
  async enqueue(message: OutboundMessage, kind: OutKind, about?: string): Promise<boolean> {
    return this.queue.enqueue(message, { kind, ...(about ? { about } : {}) }, this.clock.now(), this.batchFlush);
  }

  /** Queues an alert for the GM, once per key. */
  async alert(note: GmNote): Promise<string> {
    return this.queueAlert(note, this.batchFlush);
  }

  private async queueAlert(note: GmNote, flush: BatchFlush | undefined): Promise<string> {
    const message = composeAlert(this.base(), note);
    if (await this.queue.enqueue(message, { kind: 'alert', about: note.subject }, this.clock.now(), flush)) this.log(`GM alert: ${note.subject}`);
    return message.messageId;
  }

  /** Sends what is due in the queue; failures for good raise a GM alert (sent in the same run). */
  async deliver(kinds?: readonly OutKind[]): Promise<SendSummary> {
    return this.delivery(kinds).finish();
  }

  /**
   * A run's sending, begun before the run has queued everything: give() hands messages the run has just
   * queued to the server at once (smtp.concurrency at a time) while the run goes on; finish() waits for them,
   * then sends whatever else is due (earlier runs' messages, alerts about failures), each message once.
   */
  delivery(kinds?: readonly OutKind[]): RunDelivery {
    const onFailed = async (entry: QueuedMessage) => {
      this.log(`could not send ${entry.messageId} (${entry.about ?? entry.kind}) to ${entry.message.to.join(', ')}: ${entry.lastError ?? 'failed'}`);
      if (entry.kind === 'alert') return; // an alert about a failed alert would fail the same way
      // Flushed at once: it runs beside a fetch's batch, whose flush may come after the alert is sent.
      await this.queueAlert({
        key: `send-failed:${entry.messageId}`,
        subject: `could not send ${entry.about ?? entry.kind} to ${entry.message.to.join(', ')}`,
        text: `The ${entry.kind} "${entry.message.subject}" (${entry.messageId}) to ${entry.message.to.join(', ')} could not be sent:\n  ${entry.lastError ?? 'unknown error'}\nIt is marked failed in mail/outbox-queue/. Fix the address or the server, set its status back to pending, and run fatecraft mail send.`,
      }, undefined);
    };
    const onPartial = async (entry: QueuedMessage) => {
      if (entry.kind === 'alert') return;
      await this.queueAlert({
        key: `send-partial:${entry.messageId}`,
        subject: `${entry.rejected?.join(', ')} refused ${entry.about ?? entry.kind}`,
        text: `The ${entry.kind} "${entry.message.subject}" reached ${entry.accepted?.join(', ') || 'no one'}, but the server refused ${entry.rejected?.join(', ')}.`,
      }, undefined);
    };
    const breaker = new ServerBreaker();
    const options = { clock: this.clock, retry: this.settings.retry, concurrency: this.transport.concurrency, ...(this.options.faults ? { faults: this.options.faults } : {}), onFailed, onPartial, breaker };
    const chosen = { ...options, ...(kinds ? { kinds } : {}) };
    const early = new Dispatch(this.queue, this.transport.outbox, chosen);
    return {
      give: async (messageIds) => {
        if (early.failure !== undefined || early.stopped !== undefined) return;
        const now = this.clock.now();
        for (const id of messageIds) {
          if (early.given.has(id)) continue;
          const entry = await this.queue.get(id).catch(() => undefined); // unreadable: left to the last pass, which skips it too
          if (entry !== undefined && isDue(entry, chosen, now)) early.add(entry);
        }
      },
      check: () => {
        if (early.failure !== undefined) throw early.failure.error;
      },
      abandon: () => early.abandon(),
      finish: async () => {
        const given = await early.drain();
        const rest = given.stopped === undefined ? await deliverPending(this.queue, this.transport.outbox, chosen, early.given) : undefined;
        const first = rest === undefined ? given : joined(given, rest);
        for (const id of first.sent) this.log(`sent ${id}`);
        if (first.stopped !== undefined) return first;
        // Alerts raised by this run's failures go out now too.
        const alerts = await deliverPending(this.queue, this.transport.outbox, { ...options, kinds: ['alert'] });
        const summary = joined(first, alerts);
        delete summary.unreachable;
        if (breaker.reason !== undefined) summary.unreachable = breaker.reason;
        await this.noteServer(summary);
        return summary;
      },
    };
  }

  /** Records when the server stops and starts answering again; the GM hears once per outage. */
  private async noteServer(summary: SendSummary): Promise<void> {
    if (summary.unreachable !== undefined) {
      this.log(`the mail server did not answer; ${summary.deferred.length} message(s) deferred untried or after their tries: ${summary.unreachable}`);
      const outage = await beginOutage(this.mailDir, this.clock.now(), summary.unreachable);
      if (outage === undefined) return; // the GM was told when it began
      await this.alert({
        key: `smtp-unreachable:${outage.since}`,
        subject: 'the mail server does not answer',
        text: [
          `Since ${outage.since} the mail server ${this.transport.describe} has not answered:`,
          `  ${outage.error}`,
          `Each run now stops after the first tries and leaves the mail in the queue (${summary.deferred.length} message(s) when this was written); it goes out, this alert with it, as soon as the server answers again. You are told once per outage, so this may reach you late.`,
          'Check the server, or the smtp: block (host, port, timeouts) in campaign.yaml; fatecraft mail status shows what waits.',
        ].join('\n'),
      });
      return;
    }
    if (summary.sent.length > 0) {
      const ended = await endOutage(this.mailDir);
      if (ended !== undefined) this.log(`the mail server answers again (it did not since ${ended.since})`);
    }
  }
}

/** A run's sending (Mailroom.delivery). */
export interface RunDelivery {
  /** Hands these queued messages to the server now (those still pending and due), while the run goes on. */
  give(messageIds: readonly string[]): Promise<void>;
  /** Throws what stopped the sending given so far (a fault hook's interrupt, a disk error), if anything did. */
  check(): void;
  /** Waits for what was given, sends whatever else is due and the alerts about failures; says how it went. */
  finish(): Promise<SendSummary>;
  /** Takes nothing more and waits for what is being sent: for a run that failed. */
  abandon(): Promise<void>;
}

/** Two passes' summaries as one (the later pass's reason for stopping, if it stopped). */
function joined(a: SendSummary, b: SendSummary): SendSummary {
  const stopped = b.stopped ?? a.stopped;
  const unreachable = b.unreachable ?? a.unreachable;
  return {
    sent: [...a.sent, ...b.sent],
    deferred: [...a.deferred, ...b.deferred],
    failed: [...a.failed, ...b.failed],
    partial: [...a.partial, ...b.partial],
    ...(stopped !== undefined ? { stopped } : {}),
    ...(unreachable !== undefined ? { unreachable } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The mail lock: one mail run per campaign at a time
// ---------------------------------------------------------------------------------------------------------

const LOCK_FILE = '.mail.lock';

/**
 * Takes mail/.mail.lock (pid and host inside) for the duration of `work`. A lock left by a process that no
 * longer runs on this host is taken over. Independent of the campaign lock of `fatecraft tick`, which calls
 * the mailroom while holding its own.
 */
export async function withMailLock<T>(dir: string, work: () => Promise<T>): Promise<T> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  const me = `${process.pid}@${hostname()}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, me);
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
      const [pid, host] = holder.split('@');
      if (holder === '' || (host === hostname() && !alive(Number(pid)))) {
        rmSync(file, { force: true });
        continue;
      }
      if (attempt >= 50) {
        throw new CampaignError([{ file, message: `another mail run (process ${holder}) is under way; try again when it has finished (delete this file if that process is gone)` }]);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(file, { force: true });
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
