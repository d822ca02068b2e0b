/**
 * The campaign's mail transport from its settings: a folder of .eml files on one machine, or IMAP in and SMTP
 * out. Everything after this point runs the same code whichever it is.
 */
import { cannotRead } from '../campaign/store.js';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { CampaignError } from '../campaign/problems.js';
import { FolderInbox, FolderOutbox } from '../mail/folder-transport.js';
import { ImapInbox } from '../mail/imap-inbox.js';
import { SmtpOutbox } from '../mail/smtp-outbox.js';
import type { MailInbox, MailOutbox } from '../mail/types.js';
import { addressOf, mailDir, type MailSettings } from './config.js';
import { firstHeader, readRawHeaders } from './headers.js';
import type { SecretSource } from './secrets.js';

export interface MailTransport {
  inbox: MailInbox;
  outbox: MailOutbox;
  /** Messages sent at once. */
  concurrency: number;
  /** "folder campaigns/x/mail" or "imap://user@host:port/INBOX", for messages. */
  describe: string;
  /** The IMAP mailbox's UIDVALIDITY after list(); undefined for folders. */
  uidValidity(): string | undefined;
  /**
   * Sender and subject of a message too large to read, from its first bytes only (the folder transport; an
   * IMAP inbox reports them from the envelope already).
   */
  peekHeaders?(id: string): Promise<{ from?: string; subject?: string }>;
  close(): Promise<void>;
}

export function openTransport(campaignDir: string, settings: MailSettings, secrets: SecretSource): MailTransport {
  const dir = mailDir(campaignDir);
  const file = join(campaignDir, 'campaign.yaml');
  if (settings.transport === 'folder') {
    const inbox = new FolderInbox({ mailDir: dir, maxMessageBytes: settings.maxMessageBytes });
    const outbox = new FolderOutbox({ dir: join(dir, 'outbox') });
    return {
      inbox,
      outbox,
      concurrency: 1,
      describe: `folder ${dir}`,
      uidValidity: () => undefined,
      peekHeaders: async (id) => {
        const name = id.startsWith('file:') ? id.slice(5) : '';
        if (name === '' || name !== basename(name)) return {};
        const handle = await open(join(dir, 'inbox', name), 'r').catch(() => undefined);
        if (handle === undefined) return {};
        try {
          const { buffer, bytesRead } = await handle.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, 0);
          const headers = readRawHeaders(buffer.subarray(0, bytesRead));
          const from = addressOf(firstHeader(headers, 'from') ?? '');
          const subject = firstHeader(headers, 'subject');
          return { ...(from ? { from } : {}), ...(subject ? { subject } : {}) };
        } finally {
          await handle.close();
        }
      },
      close: async () => {
        await inbox.close();
        await outbox.close();
      },
    };
  }
  const imap = settings.imap!;
  const smtp = settings.smtp!;
  const need = (name: string, what: string): string => {
    const value = secrets.secret(name);
    if (value === undefined) {
      throw new CampaignError([{ file, path: `mail.${what}.passwordEnv`, message: `the ${what.toUpperCase()} password is not set: put it in the environment variable ${name}, or as "${name}: ..." in the secrets file (${secrets.where})` }]);
    }
    return value;
  };
  const inbox = new ImapInbox({
    host: imap.host,
    port: imap.port,
    secure: imap.secure,
    auth: { user: imap.user, pass: need(imap.passwordEnv, 'imap') },
    mailbox: imap.mailbox,
    folders: { Processed: imap.processed, Quarantine: imap.quarantine },
    maxMessageBytes: settings.maxMessageBytes,
  });
  const outbox = new SmtpOutbox({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: smtp.requireTLS,
    connectionTimeoutMs: smtp.timeouts.connectMs,
    greetingTimeoutMs: smtp.timeouts.greetingMs,
    socketTimeoutMs: smtp.timeouts.socketMs,
    connections: smtp.concurrency,
    ...(smtp.user !== undefined ? { auth: { user: smtp.user, pass: need(smtp.passwordEnv!, 'smtp') } } : {}),
    ...(settings.dkim !== undefined ? { dkim: dkimOptions(campaignDir, settings.dkim, secrets) } : {}),
  });
  return {
    inbox,
    outbox,
    concurrency: smtp.concurrency,
    describe: `imap://${imap.user}@${imap.host}:${imap.port}/${imap.mailbox}, smtp://${smtp.host}:${smtp.port}`,
    uidValidity: () => inbox.uidValidity,
    close: async () => {
      await inbox.close();
      await outbox.close();
    },
  };
}

function dkimOptions(campaignDir: string, dkim: NonNullable<MailSettings['dkim']>, secrets: SecretSource): { domainName: string; keySelector: string; privateKey: string } {
  const file = join(campaignDir, 'campaign.yaml');
  let privateKey: string | undefined;
  if (dkim.privateKeyEnv !== undefined) {
    privateKey = secrets.secret(dkim.privateKeyEnv);
    if (privateKey === undefined) throw new CampaignError([{ file, path: 'mail.dkim.privateKeyEnv', message: `the DKIM key is not set: put the PEM text in ${dkim.privateKeyEnv} (environment or secrets file)` }]);
  } else {
    const keyFile = resolve(campaignDir, dkim.privateKeyFile!);
    const real = (p: string) => (existsSync(p) ? realpathSync(p) : resolve(p));
    const rel = relative(real(campaignDir), real(keyFile));
    if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) {
      throw new CampaignError([{ file, path: 'mail.dkim.privateKeyFile', message: `the DKIM private key ${keyFile} is inside the campaign folder, which is meant to be kept in git; move it out` }]);
    }
    try {
      privateKey = readFileSync(keyFile, 'utf8');
    } catch (error) {
      throw new CampaignError([{ file, path: 'mail.dkim.privateKeyFile', message: `cannot read the DKIM key ${keyFile}: ${cannotRead(error as NodeJS.ErrnoException)}` }]);
    }
  }
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(privateKey)) {
    throw new CampaignError([{ file, path: 'mail.dkim', message: 'the DKIM key is not a PEM private key ("-----BEGIN PRIVATE KEY-----")' }]);
  }
  return { domainName: dkim.domainName, keySelector: dkim.keySelector, privateKey };
}
