/**
 * The inbound ledger: one YAML file per message under mail/ledger/, named by a hash of the message's key,
 * written atomically. The key is the Message-ID (or, without one, a digest of the body), so a message is
 * recognised whether it comes back under the same UID after a crash, under a new UID after a UIDVALIDITY
 * change, or as a second delivery. Each file records what was decided and whether it was carried out:
 *
 *   decided      the decision is recorded; its effects may be partly done (a rerun finishes exactly it)
 *   done         everything is done; only moving the message out of the inbox may be left
 *   quarantined  the message could not be handled; it waits in the quarantine folder
 *   retry        the GM asked to handle a quarantined message again (fatecraft mail reprocess)
 *
 * Beside it: senders.yaml (recent messages and answers per address, for the flood limits: an index of the
 * ledger, see SenderStats) and bounces.yaml.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import jsyaml from 'js-yaml';
import { writeFileAtomic } from '../host/atomic-file.js';
import { writeYaml } from '../campaign/yaml-io.js';
import type { ProcessedFolder } from '../mail/types.js';
import { syncPath, type BatchFlush } from './batch-flush.js';
import type { Decision } from './decide.js';
import type { AuthSummary, BounceFacts } from './headers.js';
import { sha256 } from './headers.js';
import { checkLedgerTimes } from './stored-times.js';

export type LedgerStatus = 'decided' | 'done' | 'quarantined' | 'retry';

export interface InboundFacts {
  messageId?: string;
  from?: string;
  subject?: string;
  inReplyTo?: string;
  references?: string[];
}

export interface LedgerEntry {
  key: string;
  /** Digest of the body and identity headers: tells a second delivery from a different message reusing a Message-ID. */
  digest?: string;
  status: LedgerStatus;
  /** Where the message was seen: imap:<uidvalidity>:<uid> or file:<name>, first one first. */
  transportIds: string[];
  /** Seen again under another transport id after it was handled (a duplicate delivery). */
  duplicates?: number;
  inbound: InboundFacts;
  receivedAt: string;
  size: number;
  decidedAt?: string;
  doneAt?: string;
  decision?: Decision;
  /** One line for the GM: what happened. */
  outcome?: string;
  /** Where the message went when it left the inbox. */
  folder?: ProcessedFolder;
  auth?: AuthSummary;
  /** Message-IDs of what was queued in answer. */
  queued?: string[];
  /** Why it was quarantined, when an error did it. */
  error?: string;
  /** Earlier outcomes, when the GM had it reprocessed. */
  history?: { at: string; outcome: string }[];
}

export class Ledger {
  readonly dir: string;

  /** `written` is told of every entry once it is on disk: the flood counts follow the ledger. */
  constructor(
    readonly mailDir: string,
    private readonly written?: (entry: LedgerEntry) => void,
  ) {
    this.dir = join(mailDir, 'ledger');
  }

  fileFor(key: string): string {
    return join(this.dir, `${sha256(key).slice(0, 40)}.yaml`);
  }

  async get(key: string): Promise<LedgerEntry | undefined> {
    let text: string;
    try {
      text = await readFile(this.fileFor(key), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const entry = jsyaml.load(text, { schema: jsyaml.CORE_SCHEMA }) as LedgerEntry | null;
    if (entry === null || typeof entry !== 'object' || entry.key !== key) {
      throw new Error(`${this.fileFor(key)}: not a ledger entry for ${key} (edited by hand?)`);
    }
    checkLedgerTimes(entry, text, this.fileFor(key));
    return entry;
  }

  /** Writes an entry whole, flushed; with `flush`, not flushed here but noted to be flushed with a batch (batch-flush.ts). */
  async put(entry: LedgerEntry, flush?: BatchFlush): Promise<void> {
    const file = this.fileFor(entry.key);
    await writeFileAtomic(file, writeYaml(stripUndefined(entry)), { makeFolder: true, fsync: flush === undefined });
    flush?.add(file);
    this.written?.(entry);
  }

  /**
   * Records a batch's entries done with one flush (a fetch's group commit): the entries go whole into
   * mail/ledger-done.yaml, flushed with its folder, and then into their own files without waiting for each
   * fsync (noted in `flush`). Until the next batch has flushed those files (settleDone), the journal stands
   * for them: a run that finds it (after a power cut, its entries' files may be old or cut short) writes them
   * again first (recoverDone).
   */
  async putDone(entries: readonly LedgerEntry[], flush: BatchFlush): Promise<void> {
    await writeFileAtomic(this.doneJournal, writeYaml(entries.map((entry) => stripUndefined(entry))), { makeFolder: true });
    await syncPath(this.mailDir);
    for (const entry of entries) await this.put(entry, flush);
  }

  /** The last batch's entries are flushed in their own files (`flush` has run): its journal goes. */
  async settleDone(): Promise<void> {
    try {
      await unlink(this.doneJournal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    await syncPath(this.mailDir);
  }

  /** Writes again, flushed, the entries a batch's journal holds, then removes it: before anything reads the ledger. */
  async recoverDone(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.doneJournal, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const entries = journalEntries(text);
    if (entries === undefined) {
      throw new Error(`${this.doneJournal}: not a list of ledger entries (edited by hand?); restore it or, if every entry in it is done in mail/ledger/, delete it`);
    }
    for (const entry of entries) await this.put(entry);
    await rm(this.doneJournal);
    await syncPath(this.mailDir);
  }

  /** The entries of a batch's journal left on disk; none when there is none, or it does not read (recoverDone says so). */
  private async journalled(): Promise<LedgerEntry[]> {
    try {
      return journalEntries(await readFile(this.doneJournal, 'utf8')) ?? [];
    } catch {
      return [];
    }
  }

  private get doneJournal(): string {
    return join(this.mailDir, 'ledger-done.yaml');
  }

  /**
   * Every entry, oldest first (for `mail status` and reprocessing; not on the hot path). A batch's journal
   * still on disk (a run cut short, a power cut) is read over the entries' own files, which it stands for until
   * the next mail run writes it back (recoverDone): so `mail status`, which takes no lock and writes nothing,
   * shows a batch's messages done as the next run will find them.
   */
  async all(): Promise<LedgerEntry[]> {
    if (!existsSync(this.dir)) return [];
    const names = (await readdir(this.dir)).filter((n) => n.endsWith('.yaml') && !n.startsWith('.'));
    const byKey = new Map<string, LedgerEntry>();
    for (const name of names) {
      try {
        const entry = jsyaml.load(await readFile(join(this.dir, name), 'utf8'), { schema: jsyaml.CORE_SCHEMA }) as LedgerEntry | null;
        if (entry && typeof entry === 'object' && typeof entry.key === 'string') byKey.set(entry.key, entry);
      } catch {
        // A damaged entry is skipped here; handling its message again reports it.
      }
    }
    for (const entry of await this.journalled()) byKey.set(entry.key, entry);
    return [...byKey.values()].sort((a, b) => (a.receivedAt < b.receivedAt ? -1 : a.receivedAt > b.receivedAt ? 1 : a.key < b.key ? -1 : 1));
  }
}

/** A batch's journal's entries; undefined when the text is not a list of ledger entries (it may throw on YAML that does not parse). */
function journalEntries(text: string): LedgerEntry[] | undefined {
  const entries: unknown = jsyaml.load(text, { schema: jsyaml.CORE_SCHEMA });
  if (!Array.isArray(entries)) return undefined;
  return entries.every((e: LedgerEntry | null) => e !== null && typeof e === 'object' && typeof e.key === 'string') ? (entries as LedgerEntry[]) : undefined;
}

/** js-yaml writes `undefined` as nothing only inside maps it can skip; drop them so files stay clean. */
function stripUndefined<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

// ---------------------------------------------------------------------------------------------------------
// Sender statistics (flood limits)
// ---------------------------------------------------------------------------------------------------------

const DAY_MS = 24 * 60 * 60 * 1000;

interface SenderRecord {
  /** Ledger keys of the address's messages and when they arrived. */
  messages: Record<string, string>;
  /** Ledger keys of the messages answered automatically, and when the answer was decided. */
  replies: Record<string, string>;
  /** Ledger keys of the address's orders filed or held (they carried the token), and when they arrived. */
  filed?: Record<string, string>;
}

/**
 * Recent traffic per address, for the flood limits: an index of the ledger. A ledger entry holds its sender,
 * its arrival and whether it is answered, so a count is durable in the very write that makes its decision
 * durable. mail/senders.yaml is the index saved at the end of a run. A run first writes mail/senders.unsaved
 * and removes it after that save; a run that finds the marker knows the last one died and rebuilds the index
 * from the ledger. Either way the next message is judged on the same counts as in an uninterrupted run.
 */
export class SenderStats {
  private data: Record<string, SenderRecord> = {};
  private dirty = false;
  /** save() writes nothing unless load() finished: a half-read index must not replace the file. */
  private loaded = false;
  private readonly file: string;
  private readonly marker: string;

  constructor(private readonly mailDir: string) {
    this.file = join(mailDir, 'senders.yaml');
    this.marker = join(mailDir, 'senders.unsaved');
  }

  /** Reads mail/senders.yaml, or rebuilds it from the ledger when the last run did not save it or it is damaged. */
  async load(ledger: Ledger): Promise<void> {
    this.data = {};
    this.loaded = false;
    if (!existsSync(this.marker)) {
      if (!existsSync(this.file)) {
        this.loaded = true;
        return;
      }
      try {
        const value = jsyaml.load(await readFile(this.file, 'utf8'), { schema: jsyaml.CORE_SCHEMA });
        if (value && typeof value === 'object') {
          this.data = value as Record<string, SenderRecord>;
          this.loaded = true;
          return;
        }
      } catch {
        // damaged: rebuilt below
      }
    }
    for (const entry of await ledger.all()) this.absorb(entry);
    // Written back unless there was nothing to count and nothing on disk: a rebuild leaves what one run would.
    this.dirty = Object.keys(this.data).length > 0 || existsSync(this.file);
    this.loaded = true;
  }

  /** Marks the index unsaved until save(): a run killed before then leaves the marker for the next one. */
  async begin(): Promise<void> {
    if (existsSync(this.marker)) return;
    await writeFileAtomic(this.marker, '# A mail run is under way, or was killed: mail/senders.yaml is then rebuilt from the ledger.\n', { fsync: true, makeFolder: true });
  }

  /** Counts what a ledger entry says about its sender (told of every entry written). Repeating it changes nothing. */
  absorb(entry: LedgerEntry): void {
    const from = entry.inbound?.from;
    if (from !== undefined) this.note(from, 'messages', entry.key, entry.receivedAt);
    const replyTo = entry.decision !== undefined && 'replyTo' in entry.decision ? entry.decision.replyTo : undefined;
    if (replyTo !== undefined) this.note(replyTo, 'replies', entry.key, entry.decidedAt ?? entry.receivedAt);
    if (from !== undefined && (entry.decision?.kind === 'file' || entry.decision?.kind === 'hold')) this.note(from, 'filed', entry.key, entry.receivedAt);
  }

  /**
   * Orders from the address filed (or held) within 24 hours before `at`, other than `key`: only messages with
   * the nation's token count, so no one who forges a player's address can use up the player's share.
   */
  recentFiled(address: string, at: Date, key: string): number {
    const since = at.getTime() - DAY_MS;
    return Object.entries(this.data[address]?.filed ?? {}).filter(([k, t]) => k !== key && Date.parse(t) > since && Date.parse(t) <= at.getTime()).length;
  }

  /** Messages from the address that arrived within 24 hours before `at`, other than `key`. */
  recentMessages(address: string, at: Date, key: string): number {
    const since = at.getTime() - DAY_MS;
    return Object.entries(this.data[address]?.messages ?? {}).filter(([k, t]) => k !== key && Date.parse(t) > since && Date.parse(t) <= at.getTime()).length;
  }

  recentReplies(address: string, now: Date): number {
    const since = now.getTime() - DAY_MS;
    return Object.values(this.data[address]?.replies ?? {}).filter((t) => Date.parse(t) > since).length;
  }

  private note(address: string, what: keyof SenderRecord, key: string, at: string): void {
    const record = (this.data[address] ??= { messages: {}, replies: {} });
    const times = (record[what] ??= {});
    if (times[key] === undefined) {
      times[key] = at;
      this.dirty = true;
    }
  }

  /** Writes the file (sorted, so a rebuilt index reads the same), dropping what is older than two days; then removes the marker. */
  async save(now: Date): Promise<void> {
    if (!this.loaded) return;
    if (this.dirty) {
      const since = now.getTime() - 2 * DAY_MS;
      const recent = (times: Record<string, string> = {}) =>
        Object.fromEntries(
          Object.keys(times)
            .sort()
            .filter((k) => Date.parse(times[k]!) > since)
            .map((k) => [k, times[k]!]),
        );
      const kept: Record<string, SenderRecord> = {};
      for (const address of Object.keys(this.data).sort()) {
        const messages = recent(this.data[address]!.messages);
        const replies = recent(this.data[address]!.replies);
        const filed = recent(this.data[address]!.filed);
        if (Object.keys(messages).length + Object.keys(replies).length > 0) kept[address] = { messages, replies, ...(Object.keys(filed).length ? { filed } : {}) };
      }
      this.data = kept;
      await writeFileAtomic(this.file, `# Recent mail per address, for the flood limits (written by fatecraft mail from the ledger).\n${writeYaml(kept)}`, { fsync: true, makeFolder: true });
      this.dirty = false;
    }
    await rm(this.marker, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Bounces
// ---------------------------------------------------------------------------------------------------------

export interface BounceRecord {
  /** The ledger key of the delivery report. */
  key: string;
  at: string;
  address: string;
  nations: string[];
  action: string;
  status?: string;
  diagnostic?: string;
  originalMessageId?: string;
}

const MAX_BOUNCES = 1000;

/** mail/bounces.yaml: every delivery failure reported to us, newest last, for the GM and `mail status`. */
export async function recordBounce(mailDir: string, key: string, at: string, facts: BounceFacts, nationsByAddress: (address: string) => string[]): Promise<void> {
  const file = join(mailDir, 'bounces.yaml');
  const list = await readBounces(mailDir);
  if (list.some((b) => b.key === key)) return;
  for (const r of facts.recipients) {
    list.push({
      key,
      at,
      address: r.address,
      nations: nationsByAddress(r.address),
      action: r.action,
      ...(r.status ? { status: r.status } : {}),
      ...(r.diagnostic ? { diagnostic: r.diagnostic } : {}),
      ...(facts.originalMessageId ? { originalMessageId: facts.originalMessageId } : {}),
    });
  }
  await writeFileAtomic(file, `# Delivery failures reported to the campaign (written by fatecraft mail).\n${writeYaml(list.slice(-MAX_BOUNCES))}`, { fsync: true });
}

export async function readBounces(mailDir: string): Promise<BounceRecord[]> {
  const file = join(mailDir, 'bounces.yaml');
  if (!existsSync(file)) return [];
  const value = jsyaml.load(await readFile(file, 'utf8'), { schema: jsyaml.CORE_SCHEMA });
  return Array.isArray(value) ? (value as BounceRecord[]) : [];
}
