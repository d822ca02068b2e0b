/**
 * An IMAP mailbox as a MailInbox (imapflow). Messages are addressed by UID under the mailbox's UIDVALIDITY,
 * so an id stays valid across connections and becomes invalid (ENOTFOUND) if the server renumbers.
 *
 * imapflow habits this module depends on (docs/mail-testing.md has the evidence):
 * - NOOP before fetching: a selected mailbox's cached EXISTS can be stale and imapflow then fetches nothing.
 * - fetchAll, never commands inside a `for await` fetch loop (that deadlocks).
 * - UIDVALIDITY is a BigInt; it is kept as a string so ids and JSON stay plain.
 */
import type { ConnectionOptions } from 'node:tls';
import type { FetchMessageObject, ImapFlow, MailboxObject } from 'imapflow';
import { MailError, MailErrorCode, fromImapError, isImapConnectionError, isMailError } from './errors.js';
import { DEFAULT_MAX_MESSAGE_BYTES, type InboxEntry, type MailInbox, type ProcessedFolder } from './types.js';

export interface ImapInboxOptions {
  host: string;
  port: number;
  /** Implicit TLS (port 993). Default false: plain, upgraded by STARTTLS when the server offers it. */
  secure?: boolean;
  auth: { user: string; pass: string };
  /** Mailbox to read. Default INBOX. */
  mailbox?: string;
  /** Where markProcessed() moves to. Defaults `Processed` and `Quarantine`; created when missing. */
  folders?: Partial<Record<ProcessedFolder, string>>;
  /** Larger messages are listed as `tooLarge` without downloading them. */
  maxMessageBytes?: number;
  tls?: ConnectionOptions;
  connectionTimeoutMs?: number;
  /**
   * A connection that drops is retried at once on a new one; if that fails too while the server was
   * reachable earlier in this run (a restart), the inbox waits these pauses in turn, trying again after each,
   * before it gives up. Default RECONNECT_PAUSES_MS. A server never reached gets the one retry alone.
   */
  reconnectPausesMs?: readonly number[];
  /** How a pause is waited (tests pass their own). Default: a timer. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Pauses between reconnections while a server that was there comes back (about 30 s in all): a restarted
 * Dovecot greets again within a second or two on a quiet machine, several on a loaded one.
 */
export const RECONNECT_PAUSES_MS: readonly number[] = [250, 500, 1_000, 2_000, 4_000, 8_000, 15_000];

export class ImapInbox implements MailInbox {
  private client: ImapFlow | undefined;
  private currentUidValidity: string | undefined;
  private readonly createdFolders = new Set<string>();
  private readonly mailbox: string;
  private readonly maxMessageBytes: number;
  private readonly label: string;
  /** Whether a connection ever succeeded: a server that was there is waited for while it restarts. */
  private reached = false;

  constructor(private readonly options: ImapInboxOptions) {
    this.mailbox = options.mailbox ?? 'INBOX';
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.label = `imap://${options.auth.user}@${options.host}:${options.port}/${this.mailbox}`;
  }

  /** The mailbox's UIDVALIDITY as of the last list() or markProcessed(); undefined before either. */
  get uidValidity(): string | undefined {
    return this.currentUidValidity;
  }

  async list(): Promise<InboxEntry[]> {
    return this.withMailbox('listing', async (client, uidValidity) => {
      if (client.mailbox === false || client.mailbox.exists === 0) return [];
      // Sizes first, so oversized messages are never downloaded.
      const headers = await client.fetchAll(
        '1:*',
        { uid: true, size: true, internalDate: true, envelope: true },
        { uid: true },
      );
      headers.sort((a, b) => a.uid - b.uid);
      const wanted = headers.filter((message) => (message.size ?? 0) <= this.maxMessageBytes).map((m) => m.uid);
      const sources = new Map<number, Buffer>();
      if (wanted.length > 0) {
        const bodies = await client.fetchAll(uidSet(wanted), { uid: true, source: true }, { uid: true });
        for (const body of bodies) {
          if (body.source !== undefined) sources.set(body.uid, body.source);
        }
      }

      const entries: InboxEntry[] = [];
      for (const message of headers) {
        const common = {
          id: `imap:${uidValidity}:${message.uid}`,
          size: message.size ?? 0,
          ...receivedAt(message),
        };
        if ((message.size ?? 0) > this.maxMessageBytes) {
          entries.push({ ...common, tooLarge: true, ...envelopeSummary(message) });
          continue;
        }
        const raw = sources.get(message.uid);
        if (raw !== undefined) entries.push({ ...common, raw }); // else: moved away between the two fetches
      }
      return entries;
    });
  }

  async markProcessed(id: string, folder: ProcessedFolder): Promise<void> {
    const target = this.options.folders?.[folder] ?? folder;
    const { uidValidity, uid } = parseImapId(id);
    await this.withMailbox(`moving ${id} to ${target}`, async (client, currentUidValidity) => {
      if (uidValidity !== currentUidValidity) {
        throw new MailError(
          MailErrorCode.ENOTFOUND,
          `${id}: ${this.label} now has UIDVALIDITY ${currentUidValidity}, so the UID no longer names that message`,
        );
      }
      await this.ensureFolder(client, target);
      // Check first: a UID MOVE of a missing UID succeeds silently, and "already moved" must be visible.
      const found = await client.search({ uid: String(uid) }, { uid: true });
      assertAlive(client);
      if (found === false) {
        throw new MailError(MailErrorCode.EPERM, `${id}: ${this.label} refused to search for it`);
      }
      if (!Array.isArray(found) || !found.includes(uid)) {
        throw new MailError(MailErrorCode.ENOTFOUND, `${id}: no longer in ${this.label}`);
      }
      const moved = await client.messageMove(String(uid), target, { uid: true });
      assertAlive(client);
      if (moved === false || moved === undefined) {
        this.createdFolders.delete(target); // in case someone deleted it: recreate on the next attempt
        throw new MailError(MailErrorCode.EPERM, `${id}: ${this.label} refused to move it to ${target}`);
      }
    });
  }

  async markAllProcessed(ids: readonly string[], folder: ProcessedFolder): Promise<void> {
    if (ids.length === 0) return;
    const target = this.options.folders?.[folder] ?? folder;
    const named = ids.map(parseImapId);
    await this.withMailbox(`moving ${ids.length} messages to ${target}`, async (client, currentUidValidity) => {
      // A UID of another UIDVALIDITY no longer names its message (markProcessed's ENOTFOUND): passed over.
      const uids = [...new Set(named.filter((n) => n.uidValidity === currentUidValidity).map((n) => n.uid))].sort((a, b) => a - b);
      if (uids.length === 0) return;
      await this.ensureFolder(client, target);
      // Those still here: a UID MOVE would pass over the others silently, but a MOVE of none at all is not asked.
      const found = await client.search({ uid: uidSet(uids) }, { uid: true });
      assertAlive(client);
      if (found === false) {
        throw new MailError(MailErrorCode.EPERM, `${this.label} refused to search for ${ids.length} messages`);
      }
      const here = new Set(Array.isArray(found) ? found : []);
      const present = uids.filter((uid) => here.has(uid));
      if (present.length === 0) return;
      const moved = await client.messageMove(uidSet(present), target, { uid: true });
      assertAlive(client);
      if (moved === false || moved === undefined) {
        this.createdFolders.delete(target); // in case someone deleted it: recreate on the next attempt
        throw new MailError(MailErrorCode.EPERM, `${this.label} refused to move ${present.length} messages to ${target}`);
      }
    });
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) return;
    try {
      if (client.usable) await client.logout();
    } catch {
      // Already gone; close() below frees the socket either way.
    }
    client.close();
  }

  /**
   * Runs `work` with the mailbox selected and fresh. A dropped connection (server restart, idle timeout)
   * is retried at once on a new connection, and, when that fails too and the server was reached before
   * (it is restarting), again after each of the reconnection pauses; both operations are safe to repeat.
   * If a MOVE went through but its answer was lost, the retry reports ENOTFOUND, which the caller can treat
   * as done.
   */
  private async withMailbox<T>(what: string, work: (client: ImapFlow, uidValidity: string) => Promise<T>): Promise<T> {
    const pauses = this.options.reconnectPausesMs ?? RECONNECT_PAUSES_MS;
    const sleep = this.options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    for (let attempt = 1; ; attempt++) {
      try {
        const client = await this.connection();
        const lock = await client.getMailboxLock(this.mailbox);
        try {
          await client.noop();
          assertAlive(client);
          this.currentUidValidity = String((client.mailbox as MailboxObject).uidValidity);
          return await work(client, this.currentUidValidity);
        } finally {
          lock.release();
        }
      } catch (error) {
        if (isMailError(error)) throw error;
        if (isImapConnectionError(error)) {
          // The first retry at once (a dropped idle connection needs only a new one); then, for a server
          // that was there, a pause before each further try while it comes back.
          const pause = attempt === 1 ? 0 : this.reached ? pauses[attempt - 2] : undefined;
          if (pause !== undefined) {
            await this.close();
            if (pause > 0) await sleep(pause);
            continue;
          }
        }
        throw fromImapError(error, `${what} ${this.label}`);
      }
    }
  }

  private async connection(): Promise<ImapFlow> {
    if (this.client?.usable) return this.client;
    await this.close(); // an ImapFlow instance cannot reconnect; start a new one
    // Loaded on the first connection: a command that only sends, or a folder campaign, never needs it.
    const { ImapFlow } = await import('imapflow');
    const client = new ImapFlow({
      host: this.options.host,
      port: this.options.port,
      secure: this.options.secure ?? false,
      auth: { user: this.options.auth.user, pass: this.options.auth.pass },
      logger: false, // the default logger writes JSON lines to stdout
      disableAutoIdle: true, // a batch job: IDLE would only delay the next command
      connectionTimeout: this.options.connectionTimeoutMs ?? 10_000,
      ...(this.options.tls === undefined ? {} : { tls: this.options.tls }),
    });
    // Socket errors are also emitted as events; without a listener Node would crash the process.
    // The failing command rejects as well, and that is where they are handled.
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (error) {
      client.close();
      throw error;
    }
    this.client = client;
    this.reached = true;
    return client;
  }

  private async ensureFolder(client: ImapFlow, path: string): Promise<void> {
    if (this.createdFolders.has(path)) return;
    await client.mailboxCreate(path); // resolves { created: false } when it already exists
    this.createdFolders.add(path);
  }
}

/**
 * imapflow resolves some commands quietly when the connection is gone (NOOP resolves, MOVE and SEARCH
 * return false or undefined, the selected mailbox is reset). Without this check a dead connection would
 * read as "empty inbox" or "server refused"; with it, withMailbox() reconnects and retries.
 */
function assertAlive(client: ImapFlow): void {
  if (!client.usable || client.mailbox === false) {
    throw Object.assign(new Error('IMAP connection lost'), { code: 'NoConnection' });
  }
}

/** Ascending UIDs as an IMAP sequence set with ranges ("1:3,7"), keeping the command short. */
export function uidSet(uids: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < uids.length; ) {
    let j = i;
    while (j + 1 < uids.length && uids[j + 1] === uids[j]! + 1) j++;
    parts.push(i === j ? String(uids[i]) : `${uids[i]}:${uids[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

export function parseImapId(id: string): { uidValidity: string; uid: number } {
  const match = /^imap:(\d+):(\d+)$/.exec(id);
  if (match === null) {
    throw new MailError(MailErrorCode.ENOTFOUND, `${JSON.stringify(id)} is not a message of an IMAP inbox`);
  }
  return { uidValidity: match[1]!, uid: Number(match[2]) };
}

function receivedAt(message: FetchMessageObject): { receivedAt?: string } {
  if (message.internalDate === undefined) return {};
  const date = new Date(message.internalDate);
  return Number.isNaN(date.getTime()) ? {} : { receivedAt: date.toISOString() };
}

function envelopeSummary(message: FetchMessageObject): { from?: string; subject?: string } {
  const from = message.envelope?.from?.[0]?.address;
  const subject = message.envelope?.subject;
  return { ...(from === undefined ? {} : { from }), ...(subject === undefined ? {} : { subject }) };
}
