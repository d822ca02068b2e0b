/**
 * `fatecraft mail status` and `fatecraft mail reprocess`: what the GM sees of the mail, and how a quarantined
 * message gets another chance.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { readRegularFile } from '../campaign/regular-file.js';
import { openCampaign } from '../campaign/store.js';
import { fromImapError } from '../mail/errors.js';
import { mailDir, mailSettingsOf, type MailSettings } from './config.js';
import { plainText } from '../text/escape.js';
import { bodyDigest, firstHeader, messageIdOf, readRawHeaders } from './headers.js';
import { Ledger, readBounces, type BounceRecord, type LedgerEntry } from './ledger.js';
import type { MailStatus } from '../schedule/hooks.js';
import { readOutage, type Outage } from './outage.js';
import { OutboxQueue, type QueuedMessage } from './outbox.js';
import { withMailLock, type MailroomOptions } from './room.js';
import { loadSecrets, type SecretSource } from './secrets.js';

export interface MailStatusReport {
  configured: boolean;
  transport?: string;
  inbound: { total: number; byOutcome: Record<string, number>; quarantined: LedgerEntry[]; held?: LedgerEntry[]; unfinished: LedgerEntry[]; authFailures: LedgerEntry[] };
  outbound: { pending: QueuedMessage[]; failed: QueuedMessage[]; sent: number };
  /** The sending server has not answered since then (mail/smtp-outage.yaml). */
  outage?: Outage;
  bounces: BounceRecord[];
}

export async function mailStatus(campaignDir: string): Promise<MailStatusReport> {
  const open = await openCampaign(campaignDir);
  const settings = await mailSettingsOf(open);
  const dir = mailDir(campaignDir);
  const entries = await new Ledger(dir).all();
  const queue = new OutboxQueue(dir);
  const queued = await queue.unsent();
  const outage = await readOutage(dir);
  const byOutcome: Record<string, number> = {};
  for (const e of entries) {
    const kind = e.decision ? (e.decision.kind === 'refuse' || e.decision.kind === 'ignore' ? `${e.decision.kind}:${e.decision.reason}` : e.decision.kind) : e.status;
    byOutcome[kind] = (byOutcome[kind] ?? 0) + 1;
  }
  return {
    configured: settings !== undefined,
    ...(settings ? { transport: settings.transport } : {}),
    inbound: {
      total: entries.length,
      byOutcome,
      quarantined: entries.filter((e) => e.status === 'quarantined'),
      ...heldOf(entries),
      unfinished: entries.filter((e) => e.status === 'decided' || e.status === 'retry'),
      authFailures: entries.filter((e) => e.auth?.dmarc === 'fail' || e.auth?.dkim === 'fail'),
    },
    outbound: { pending: queued.filter((q) => q.status === 'pending'), failed: queued.filter((q) => q.status === 'failed'), sent: await queue.sentCount() },
    ...(outage !== undefined ? { outage } : {}),
    bounces: await readBounces(dir),
  };
}

/** Orders held for the GM (their DMARC check failed); absent when there are none. */
function heldOf(entries: readonly LedgerEntry[]): { held?: LedgerEntry[] } {
  const held = entries.filter((e) => e.decision?.kind === 'hold');
  return held.length ? { held } : {};
}

export function renderMailStatus(s: MailStatusReport): string {
  if (!s.configured) return 'Mail is not set up for this campaign (no mail: block in campaign.yaml).\n';
  const out = [`Mail transport: ${s.transport}`, '', `Inbound: ${s.inbound.total} messages in the ledger`];
  for (const [kind, n] of Object.entries(s.inbound.byOutcome).sort()) out.push(`  ${kind}: ${n}`);
  if (s.inbound.quarantined.length) {
    out.push('', `Quarantined (${s.inbound.quarantined.length}) — fatecraft mail reprocess <campaign> to try again:`);
    for (const e of s.inbound.quarantined) out.push(`  ${e.key}  from ${e.inbound.from ?? '?'}  ${e.outcome ?? ''}`);
  }
  if (s.inbound.held?.length) {
    out.push('', `Held for you (${s.inbound.held.length}) — their DMARC check failed; fatecraft mail accept <campaign> <key> files one:`);
    for (const e of s.inbound.held) out.push(`  ${e.key}  from ${e.inbound.from ?? '?'}  ${e.outcome ?? ''}`);
  }
  if (s.inbound.unfinished.length) out.push('', `Unfinished (${s.inbound.unfinished.length}): the next fetch finishes them.`);
  if (s.inbound.authFailures.length) {
    out.push('', `Failed DKIM or DMARC (${s.inbound.authFailures.length}), as your mail server recorded it:`);
    for (const e of s.inbound.authFailures.slice(-20)) out.push(`  ${e.receivedAt}  from ${e.inbound.from ?? '?'}: dkim=${e.auth?.dkim ?? '-'} spf=${e.auth?.spf ?? '-'} dmarc=${e.auth?.dmarc ?? '-'} (${e.auth?.trusted ? 'trusted' : `unverified, stamped by ${e.auth?.servId}`}) — ${e.outcome ?? ''}`);
  }
  out.push('', `Outbound: ${s.outbound.sent} sent, ${s.outbound.pending.length} pending, ${s.outbound.failed.length} failed`);
  if (s.outage) out.push(`  THE MAIL SERVER HAS NOT ANSWERED since ${s.outage.since}: ${s.outage.error}`);
  for (const q of s.outbound.pending) out.push(`  pending  ${q.about ?? q.kind} → ${q.message.to.join(', ')}${q.nextAttemptAt ? ` (next try ${q.nextAttemptAt})` : ''}${q.lastError ? `: ${q.lastError}` : ''}`);
  for (const q of s.outbound.failed) out.push(`  FAILED   ${q.about ?? q.kind} → ${q.message.to.join(', ')}: ${q.lastError ?? ''}`);
  if (s.bounces.length) {
    out.push('', `Bounces (${s.bounces.length}):`);
    for (const b of s.bounces.slice(-20)) out.push(`  ${b.at}  ${b.address}${b.nations.length ? ` (${b.nations.join(', ')})` : ''}: ${b.action}${b.status ? ` ${b.status}` : ''}${b.diagnostic ? ` — ${b.diagnostic}` : ''}`);
  }
  // Addresses, bounce diagnostics and server errors are other people's text, printed on the GM's terminal.
  return `${out.map(plainText).join('\n')}\n`;
}

export interface ReprocessSummary {
  /** Ledger keys marked for another try. */
  marked: string[];
  /** Messages moved from the quarantine folder back into the inbox. */
  movedBack: number;
}

/**
 * Gives quarantined messages (all, or those whose ledger key or Message-ID is listed) another chance: their
 * ledger entries are marked `retry` and the messages moved back into the inbox, so the next `mail fetch`
 * judges them afresh.
 */
export async function reprocessQuarantined(campaignDir: string, opts: MailroomOptions & { keys?: readonly string[] } = {}): Promise<ReprocessSummary> {
  const open = await openCampaign(campaignDir);
  const settings = await mailSettingsOf(open);
  const dir = mailDir(campaignDir);
  return withMailLock(dir, async () => {
    const ledger = new Ledger(dir);
    await ledger.recoverDone(); // a killed fetch's last done marks first: they would otherwise undo these
    const wanted = (e: LedgerEntry) => !opts.keys?.length || opts.keys.some((k) => k === e.key || k.toLowerCase() === e.inbound.messageId?.toLowerCase());
    const chosen = (await ledger.all()).filter((e) => e.status === 'quarantined' && wanted(e));
    const keys = new Set(chosen.map((e) => e.key));
    for (const entry of chosen) {
      entry.status = 'retry';
      await ledger.put(entry);
    }
    let movedBack = 0;
    if (chosen.length > 0 && settings !== undefined) {
      movedBack = settings.transport === 'folder' ? await moveBackFolder(dir, keys) : await moveBackImap(settings, opts.secrets ?? loadSecrets({ campaign: open.campaign.name, campaignDir }), keys);
    }
    return { marked: [...keys], movedBack };
  });
}

/** The ledger key of a raw message, as fetch computes it (without the rare Message-ID-reuse suffix). */
function keysOf(raw: Buffer): string[] {
  const headers = readRawHeaders(raw);
  const digest = bodyDigest(raw, headers);
  const id = messageIdOf(firstHeader(headers, 'message-id'));
  return id !== undefined ? [`mid:${id.toLowerCase()}`, `mid:${id.toLowerCase()}#${digest.slice(0, 16)}`] : [`raw:${digest}`];
}

async function moveBackFolder(dir: string, keys: ReadonlySet<string>): Promise<number> {
  const quarantine = join(dir, 'quarantine');
  if (!existsSync(quarantine)) return 0;
  await mkdir(join(dir, 'inbox'), { recursive: true });
  let moved = 0;
  for (const name of (await readdir(quarantine)).sort()) {
    if (!name.endsWith('.eml')) continue;
    // Only regular files are mail (a FIFO would wait for ever, a link read another file).
    const read = readRegularFile(join(quarantine, name));
    if (!read.ok) continue;
    const raw = read.bytes;
    if (!keysOf(raw).some((k) => keys.has(k)) && !keys.has(`file:${name}`)) continue;
    let target = join(dir, 'inbox', name);
    for (let n = 2; existsSync(target); n++) target = join(dir, 'inbox', name.replace(/\.eml$/, `.${n}.eml`));
    await rename(join(quarantine, name), target);
    moved += 1;
  }
  return moved;
}

async function moveBackImap(settings: MailSettings, secrets: SecretSource, keys: ReadonlySet<string>): Promise<number> {
  const imap = settings.imap!;
  const { ImapFlow } = await import('imapflow');
  const client = new ImapFlow({ host: imap.host, port: imap.port, secure: imap.secure, auth: { user: imap.user, pass: secrets.secret(imap.passwordEnv) ?? '' }, logger: false });
  client.on('error', () => undefined);
  try {
    await client.connect();
    if (!(await client.list()).some((box) => box.path === imap.quarantine)) return 0;
    const lock = await client.getMailboxLock(imap.quarantine);
    try {
      if (client.mailbox === false || client.mailbox.exists === 0) return 0;
      const messages = await client.fetchAll('1:*', { uid: true, source: true }, { uid: true });
      const uids = messages.filter((m) => m.source !== undefined && keysOf(m.source).some((k) => keys.has(k))).map((m) => m.uid);
      if (uids.length > 0) await client.messageMove(uids.join(','), imap.mailbox, { uid: true });
      return uids.length;
    } finally {
      lock.release();
    }
  } catch (error) {
    throw fromImapError(error, `moving quarantined messages back to ${imap.mailbox}`);
  } finally {
    if (client.usable) await client.logout().catch(() => undefined);
    client.close();
  }
}

/** Reused by the tick: the queue and its failures in the shape `fatecraft status` wants. */
export async function queueStatus(campaignDir: string): Promise<Omit<MailStatus, 'configured'>> {
  const queued = await new OutboxQueue(mailDir(campaignDir)).unsent();
  const outage = await readOutage(mailDir(campaignDir));
  return {
    queued: queued.filter((q) => q.status === 'pending').length,
    failures: queued.filter((q) => q.status === 'failed').map((q) => ({ to: q.message.to.join(', '), subject: q.message.subject, error: q.lastError ?? 'failed', at: q.failedAt ?? q.sentAt ?? q.createdAt })),
    ...(outage !== undefined ? { serverDown: outage } : {}),
    bounces: (await readBounces(mailDir(campaignDir))).map((b) => ({ key: b.key, at: b.at, address: b.address, nations: b.nations, action: b.action, ...(b.diagnostic ? { diagnostic: b.diagnostic } : {}) })),
  };
}

