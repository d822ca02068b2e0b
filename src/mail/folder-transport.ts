/**
 * The no-server transport: mail as .eml files in the campaign directory. A GM drops players' mails into
 * `mail/inbox/`, runs the turn, and sends what appears in the outbox by hand (or not at all in tests).
 *
 *   <mailDir>/inbox/*.eml      → read by list()
 *   <mailDir>/processed/       ← markProcessed(id, 'Processed')
 *   <mailDir>/quarantine/      ← markProcessed(id, 'Quarantine')
 *   <outboxDir>/<message-id>.eml ← FolderOutbox.send()
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createTransport } from 'nodemailer';
import { writeFileAtomic } from '../host/atomic-file.js';
import { normalizeMessageId, toMailOptions } from './compose.js';
import { MailError, MailErrorCode, fromFsError, fromSmtpError, isMailError } from './errors.js';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  type InboxEntry,
  type MailInbox,
  type MailOutbox,
  type OutboundMessage,
  type ProcessedFolder,
  type SendResult,
} from './types.js';

const ID_PREFIX = 'file:';
const FOLDER_DIRS: Record<ProcessedFolder, string> = { Processed: 'processed', Quarantine: 'quarantine' };

export interface FolderInboxOptions {
  /** The campaign's mail directory, holding inbox/, processed/ and quarantine/. */
  mailDir: string;
  maxMessageBytes?: number;
}

export class FolderInbox implements MailInbox {
  private readonly inboxDir: string;
  private readonly maxMessageBytes: number;

  constructor(private readonly options: FolderInboxOptions) {
    this.inboxDir = path.join(options.mailDir, 'inbox');
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  async list(): Promise<InboxEntry[]> {
    let names: string[];
    try {
      const entries = await fsp.readdir(this.inboxDir, { withFileTypes: true });
      // Dotfiles are editors' and our own temp files, never mail.
      names = entries
        .filter((entry) => entry.isFile() && !entry.name.startsWith('.') && entry.name.toLowerCase().endsWith('.eml'))
        .map((entry) => entry.name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []; // no mail has arrived yet
      throw fromFsError(error, `reading ${this.inboxDir}`);
    }
    // Code-unit order, not localeCompare: the same on every machine.
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

    const result: InboxEntry[] = [];
    for (const name of names) {
      const file = path.join(this.inboxDir, name);
      try {
        const entry = await readInboxFile(file, this.maxMessageBytes);
        if (!entry) continue; // swapped for a link, a FIFO or a folder since the listing: not mail
        result.push({ id: ID_PREFIX + name, ...entry });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // moved away while we listed
        throw fromFsError(error, `reading ${file}`);
      }
    }
    return result;
  }

  async markProcessed(id: string, folder: ProcessedFolder): Promise<void> {
    const name = fileNameFromId(id);
    const source = path.join(this.inboxDir, name);
    const targetDir = path.join(this.options.mailDir, FOLDER_DIRS[folder]);
    try {
      await fsp.mkdir(targetDir, { recursive: true });
      await fsp.rename(source, await freeName(targetDir, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !(await exists(source))) {
        throw new MailError(MailErrorCode.ENOTFOUND, `${id}: not in ${this.inboxDir}`, { cause: error });
      }
      throw fromFsError(error, `moving ${source} to ${targetDir}`);
    }
  }

  async markAllProcessed(ids: readonly string[], folder: ProcessedFolder): Promise<void> {
    for (const id of ids) {
      await this.markProcessed(id, folder).catch((error: unknown) => {
        if (!(isMailError(error) && error.code === MailErrorCode.ENOTFOUND)) throw error;
      });
    }
  }

  async close(): Promise<void> {
    // Nothing held open.
  }
}

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * A mail file of the inbox, read only if it is a regular file there: opened
 * without following a link or waiting on a FIFO, and checked on the handle,
 * so an entry swapped after the listing is neither followed nor waited on.
 */
async function readInboxFile(file: string, maxBytes: number): Promise<{ size: number; tooLarge: true } | { size: number; raw: Buffer } | undefined> {
  let handle;
  try {
    handle = await fsp.open(file, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') return undefined;
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return undefined;
    // No receivedAt: a folder has no server to say when a mail arrived, and a file's time says when it was
    // written or copied, which anyone can set. A mail arrives when a fetch first sees it (docs/mail.md).
    const common = { size: stat.size };
    return stat.size > maxBytes ? { ...common, tooLarge: true } : { ...common, raw: await handle.readFile() };
  } finally {
    await handle.close();
  }
}

function fileNameFromId(id: string): string {
  const name = id.startsWith(ID_PREFIX) ? id.slice(ID_PREFIX.length) : '';
  // Ids come from list(), but refuse anything that could point outside the inbox.
  if (name === '' || name !== path.basename(name) || name === '.' || name === '..') {
    throw new MailError(MailErrorCode.ENOTFOUND, `${JSON.stringify(id)} is not a message of a folder inbox`);
  }
  return name;
}

/** `name`, or `name.2.eml`, `name.3.eml`… when a same-named mail was already moved there: never overwrite. */
async function freeName(dir: string, name: string): Promise<string> {
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 1; ; n++) {
    const candidate = path.join(dir, n === 1 ? name : `${stem}.${n}${ext}`);
    if (!(await exists(candidate))) return candidate;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fsp.lstat(file);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Outbox
// ---------------------------------------------------------------------------------------------------------

export interface FolderOutboxOptions {
  dir: string;
}

export class FolderOutbox implements MailOutbox {
  // CRLF like on the wire, so a written file is byte for byte what SmtpOutbox would send.
  private readonly transport = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

  constructor(private readonly options: FolderOutboxOptions) {}

  /** Where send() writes the message with this Message-ID. */
  pathFor(messageId: string): string {
    return path.join(this.options.dir, outboxFileName(messageId));
  }

  async send(message: OutboundMessage): Promise<SendResult> {
    const file = this.pathFor(message.messageId);
    let bytes: Buffer;
    try {
      const info = await this.transport.sendMail(toMailOptions(message));
      if (!Buffer.isBuffer(info.message)) throw new Error('stream transport returned a stream, not a buffer');
      bytes = info.message;
    } catch (error) {
      throw fromSmtpError(error, `building ${message.messageId}`);
    }
    try {
      // Temp file + rename: a crash never leaves a half-written mail that a later step might send.
      await writeFileAtomic(file, bytes, { makeFolder: true });
    } catch (error) {
      throw fromFsError(error, `writing ${file}`);
    }
    return { accepted: [...message.to], rejected: [], response: `written to ${file}` };
  }

  close(): Promise<void> {
    this.transport.close();
    return Promise.resolve();
  }
}

/**
 * A file name from a Message-ID: readable when the id is plain, and suffixed with a hash of the id when
 * characters had to be replaced or it had to be shortened, so two ids never share a file.
 */
export function outboxFileName(messageId: string): string {
  const bare = normalizeMessageId(messageId).slice(1, -1);
  const safe = bare.replace(/[^A-Za-z0-9._@+-]/g, '_').replace(/^\./, '_');
  if (safe === bare && safe.length <= 150) return `${safe}.eml`;
  const hash = createHash('sha256').update(bare).digest('hex').slice(0, 12);
  return `${safe.slice(0, 120)}-${hash}.eml`;
}
