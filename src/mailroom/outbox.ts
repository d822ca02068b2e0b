/**
 * The outgoing queue: mail/outbox-queue/<message-id>.yaml, one file per message, written atomically. A message
 * is queued once (its Message-ID is derived from what it is, so queueing it again finds the file and does
 * nothing) and marked sent only after the server accepted it. A run killed at any point, or a server that
 * answers 4xx, leaves it pending: the next run sends what is missing and nothing twice.
 *
 * A sent message moves to outbox-queue/sent/: the queue's own folder holds only what is pending or failed, so
 * a run (and the idle tick) reads a few files however long the campaign has run, not every message it ever
 * sent. The move writes the sent copy first and then removes the queued one; a run killed between the two
 * leaves both, and the sent copy wins (the queued one is removed on the next read), so nothing is sent twice.
 *
 * One window remains, as with any SMTP client: a kill after the server said 250 and before the queue file
 * is rewritten sends that one message again on the next run, with the same Message-ID.
 *
 *   4xx, dropped connection, timeout (ETEMP)  retried within the run with growing pauses, then in later runs
 *                                             (backoff doubling up to six hours); failed after retry.maxRuns
 *   no answer twice in a row (refused,        the run stops trying the server (ServerBreaker): the rest is
 *     timed out: MailError.unreachable)       deferred untried, due again after retry.backoffMinutes
 *   5xx (EPERM)                               failed at once; the GM is alerted
 *   bad credentials or settings (EAUTH, ECONFIG)  the run stops; the message stays pending
 *
 * The sending itself is delivery.ts.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import jsyaml from 'js-yaml';
import { writeYaml } from '../campaign/yaml-io.js';
import { outboxFileName } from '../mail/folder-transport.js';
import type { OutboundMessage } from '../mail/types.js';
import { checkQueuedTimes } from './stored-times.js';
import { writeFileAtomic } from '../host/atomic-file.js';
import type { BatchFlush } from './batch-flush.js';

export type OutKind = 'receipt' | 'reply' | 'report' | 'gm-report' | 'alert' | 'reminder' | 'notice' | 'press' | 'sign-in';
export type OutStatus = 'pending' | 'sent' | 'failed';

interface StoredAttachment {
  filename: string;
  contentType?: string;
  encoding: 'utf8' | 'base64';
  content: string;
}

export interface QueuedMessage {
  messageId: string;
  kind: OutKind;
  status: OutStatus;
  /** What it is about, for the GM: "argenta turn 3". */
  about?: string;
  createdAt: string;
  /** Delivery attempts so far, over all runs. */
  attempts: number;
  /** Runs that ended with the message still unsent. */
  failedRuns: number;
  nextAttemptAt?: string;
  sentAt?: string;
  /** When it was given up on (status failed): `status --check` counts failures since the GM last ran resume. */
  failedAt?: string;
  lastError?: string;
  accepted?: string[];
  rejected?: string[];
  response?: string;
  message: Omit<OutboundMessage, 'attachments' | 'date'> & { date: string; attachments?: StoredAttachment[] };
}

export interface SendSummary {
  sent: string[];
  /** Still pending after a temporary failure: tried again in a later run. */
  deferred: string[];
  failed: string[];
  /** Some recipients refused while others accepted. */
  partial: string[];
  /** Why the run stopped early (bad credentials or settings), if it did. */
  stopped?: string;
  /** The server did not answer, so the run stopped trying it and deferred the rest: the last error. */
  unreachable?: string;
}

export const emptySendSummary = (): SendSummary => ({ sent: [], deferred: [], failed: [], partial: [] });

export class OutboxQueue {
  readonly dir: string;

  /** Where sent messages are kept. */
  readonly sentDir: string;

  constructor(mailDir: string) {
    this.dir = join(mailDir, 'outbox-queue');
    this.sentDir = join(this.dir, SENT_FOLDER);
  }

  /** The file of a message still to send (or failed). */
  fileFor(messageId: string): string {
    return join(this.dir, fileName(messageId));
  }

  /** The file of a message once sent. */
  sentFileFor(messageId: string): string {
    return join(this.sentDir, fileName(messageId));
  }

  /** Whether a message with this Message-ID was ever queued, sent or not. */
  has(messageId: string): boolean {
    return existsSync(this.fileFor(messageId)) || existsSync(this.sentFileFor(messageId));
  }

  /**
   * Queues a message unless one with its Message-ID is already queued (sent or not). True when queued now.
   * With `flush`, the new file is not flushed here but noted for the batch's flush (batch-flush.ts): until
   * then a power cut may leave it cut short, and a queued file that does not read is then written again.
   */
  async enqueue(message: OutboundMessage, meta: { kind: OutKind; about?: string }, now: Date, flush?: BatchFlush): Promise<boolean> {
    if (existsSync(this.sentFileFor(message.messageId))) return false;
    if (existsSync(this.fileFor(message.messageId)) && (await this.read(this.fileFor(message.messageId)).then(() => true, () => false))) return false;
    const { attachments, date, ...rest } = message;
    const entry: QueuedMessage = {
      messageId: message.messageId,
      kind: meta.kind,
      status: 'pending',
      ...(meta.about ? { about: meta.about } : {}),
      createdAt: now.toISOString(),
      attempts: 0,
      failedRuns: 0,
      message: {
        ...rest,
        date: new Date(date).toISOString(),
        ...(attachments?.length
          ? {
              attachments: attachments.map((a) =>
                typeof a.content === 'string'
                  ? { filename: a.filename, ...(a.contentType ? { contentType: a.contentType } : {}), encoding: 'utf8' as const, content: a.content }
                  : { filename: a.filename, ...(a.contentType ? { contentType: a.contentType } : {}), encoding: 'base64' as const, content: a.content.toString('base64') },
              ),
            }
          : {}),
      },
    };
    await this.write(entry, flush);
    return true;
  }

  async get(messageId: string): Promise<QueuedMessage | undefined> {
    for (const file of [this.sentFileFor(messageId), this.fileFor(messageId)]) if (existsSync(file)) return this.read(file);
    return undefined;
  }

  /** Every message ever queued, sent ones included, oldest first (the whole history: a GM's question, not a run's). */
  async all(): Promise<QueuedMessage[]> {
    return this.list(true);
  }

  /** The messages pending or failed, oldest first: what a run reads, however long the campaign has run. */
  async unsent(): Promise<QueuedMessage[]> {
    return this.list(false);
  }

  /** The messages, sent or not, whose Message-ID starts with `prefix` ("<fatecraft.token.argenta."), oldest first: read without the rest. */
  async withPrefix(prefix: string): Promise<QueuedMessage[]> {
    return this.list(true, fileName(`${prefix}x>`).slice(0, -'x.yaml'.length));
  }

  /** Only reads: `tidy` finishes the moves a killed run left half done. */
  private async list(withSent: boolean, prefix = ''): Promise<QueuedMessage[]> {
    const sent = new Set((await yamlNames(this.sentDir)).filter((n) => n.startsWith(prefix)));
    const out: QueuedMessage[] = [];
    for (const name of await yamlNames(this.dir)) {
      if (sent.has(name) || !name.startsWith(prefix)) continue;
      const entry = await this.read(join(this.dir, name)).catch(() => undefined);
      // A sent message still in the queue's folder (from before sent/ existed) counts as sent.
      if (entry && (entry.status !== 'sent' || withSent)) out.push(entry);
    }
    if (withSent) {
      for (const name of sent) {
        const entry = await this.read(join(this.sentDir, name)).catch(() => undefined);
        if (entry) out.push(entry);
      }
    }
    return out.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.messageId < b.messageId ? -1 : 1));
  }

  /**
   * Puts every sent message in sent/: removes a queued file whose sent copy is there (a run killed while
   * moving it) and moves sent messages kept in the queue's folder by earlier versions. Run by the sender.
   */
  async tidy(): Promise<void> {
    const sent = new Set(await yamlNames(this.sentDir));
    for (const name of await yamlNames(this.dir)) {
      if (sent.has(name)) {
        await unlink(join(this.dir, name));
        continue;
      }
      const entry = await this.read(join(this.dir, name)).catch(() => undefined);
      if (entry?.status === 'sent') await this.write(entry);
    }
  }

  /** How many messages were sent, without reading those in sent/. */
  async sentCount(): Promise<number> {
    const sent = new Set(await yamlNames(this.sentDir));
    let kept = 0;
    for (const name of await yamlNames(this.dir)) {
      if (sent.has(name)) continue;
      const entry = await this.read(join(this.dir, name)).catch(() => undefined);
      if (entry?.status === 'sent') kept++;
    }
    return sent.size + kept;
  }

  /** Saves a message's state: a sent one moves to sent/ (written there first, then removed from the queue). */
  async write(entry: QueuedMessage, flush?: BatchFlush): Promise<void> {
    const text = writeYaml(JSON.parse(JSON.stringify(entry)));
    const [here, there] = entry.status === 'sent' ? [this.sentFileFor(entry.messageId), this.fileFor(entry.messageId)] : [this.fileFor(entry.messageId), this.sentFileFor(entry.messageId)];
    await writeFileAtomic(here, text, { makeFolder: true, fsync: flush === undefined });
    flush?.add(here);
    // A message marked unsent again by hand or by a tool (rare) leaves sent/ the same way.
    await unlink(there).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  }

  private async read(file: string): Promise<QueuedMessage> {
    const text = await readFile(file, 'utf8');
    const value = jsyaml.load(text, { schema: jsyaml.CORE_SCHEMA }) as QueuedMessage | null;
    if (!value || typeof value !== 'object' || typeof value.messageId !== 'string') throw new Error(`${file}: not a queued message`);
    checkQueuedTimes(value, text, file);
    return value;
  }
}

/** Sent messages' folder, inside the queue's. */
export const SENT_FOLDER = 'sent';

const fileName = (messageId: string) => outboxFileName(messageId).replace(/\.eml$/, '.yaml');

/** The message files of a folder (none when it is missing), sorted. */
async function yamlNames(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [] as string[];
    throw e;
  });
  return names.filter((n) => n.endsWith('.yaml') && !n.startsWith('.')).sort();
}

export function toOutbound(entry: QueuedMessage): OutboundMessage {
  const { attachments, ...rest } = entry.message;
  return {
    ...rest,
    ...(attachments?.length
      ? { attachments: attachments.map((a) => ({ filename: a.filename, ...(a.contentType ? { contentType: a.contentType } : {}), content: a.encoding === 'base64' ? Buffer.from(a.content, 'base64') : a.content })) }
      : {}),
  };
}
