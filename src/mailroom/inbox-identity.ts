/**
 * How a fetch run knows a message it has seen before: its ledger key (the Message-ID, or a digest of the
 * body; a digest of the headers for one too large to read), and the mailbox's UIDVALIDITY kept beside
 * the ledger so a renumbered mailbox is reported to the GM.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import jsyaml from 'js-yaml';
import { writeFileAtomic } from '../host/atomic-file.js';
import { writeYaml } from '../campaign/yaml-io.js';
import type { InboxEntry } from '../mail/types.js';
import { bodyDigest, firstHeader, messageIdOf, readRawHeaders, sha256 } from './headers.js';
import type { LedgerEntry } from './ledger.js';
import type { Mailroom } from './room.js';

/** A message in the inbox, with its ledger key and entry. */
export interface Listed {
  entry: InboxEntry;
  key: string;
  digest?: string;
  existing?: LedgerEntry;
  /** Why its ledger entry could not be read. */
  damaged?: string;
}

/** The message's ledger key, and its entry if it was seen before. */
export async function identify(room: Mailroom, entry: InboxEntry): Promise<Listed> {
  if (entry.tooLarge) {
    if (entry.from === undefined && room.transport.peekHeaders) Object.assign(entry, await room.transport.peekHeaders(entry.id));
    const key = `big:${sha256([entry.from ?? '', entry.subject ?? '', entry.size, entry.receivedAt ?? entry.id].join('|'))}`;
    const existing = await room.ledger.get(key);
    return { entry, key, ...(existing ? { existing } : {}) };
  }
  const headers = readRawHeaders(entry.raw);
  const digest = bodyDigest(entry.raw, headers);
  const id = messageIdOf(firstHeader(headers, 'message-id'));
  let key = id !== undefined ? `mid:${id.toLowerCase()}` : `raw:${digest}`;
  let existing = await room.ledger.get(key);
  if (existing && id !== undefined && existing.digest !== undefined && existing.digest !== digest) {
    // Another message reusing a Message-ID: its own entry.
    key = `${key}#${digest.slice(0, 16)}`;
    existing = await room.ledger.get(key);
  }
  return { entry, key, digest, ...(existing ? { existing } : {}) };
}

/** Keeps the mailbox's UIDVALIDITY; when it changed since the last run, alerts the GM and says from what to what. */
export async function checkUidValidity(room: Mailroom): Promise<{ from: string; to: string } | undefined> {
  const now = room.transport.uidValidity();
  if (now === undefined) return undefined;
  const file = join(room.mailDir, 'imap-state.yaml');
  const before = existsSync(file) ? ((jsyaml.load(await readFile(file, 'utf8'), { schema: jsyaml.CORE_SCHEMA }) as { uidValidity?: string } | null)?.uidValidity ?? undefined) : undefined;
  if (before === now) return undefined;
  if (before !== undefined) {
    await room.alert({
      key: `uidvalidity:${before}:${now}`,
      subject: `the mailbox was renumbered (UIDVALIDITY ${before} → ${now})`,
      text: `The IMAP server renumbered the campaign's mailbox (UIDVALIDITY changed from ${before} to ${now}). Messages are recognised by their Message-ID, so none is handled twice; this is for your information.`,
    });
  }
  await mkdir(room.mailDir, { recursive: true });
  await writeFileAtomic(file, writeYaml({ uidValidity: now }), { fsync: true });
  return before === undefined ? undefined : { from: before, to: now };
}
