/**
 * A message read and judged: parsed (HTML-only mail converted again without wrapping), its authentication
 * checked or read from the server's headers, and handed to decide.ts with everything the campaign knows
 * of its sender. Records what was read of the message in its ledger entry.
 */
import type { GameState } from '../core/state.js';
import { parseInbound } from '../mail/parse.js';
import type { InboxEntry } from '../mail/types.js';
import { senderDomain } from './config.js';
import { decideInbound, decideTooLarge, type Decision } from './decide.js';
import type { FetchOptions } from './fetch-options.js';
import { authResults, readRawHeaders } from './headers.js';
import { htmlOnlyText } from './html-text.js';
import type { LedgerEntry } from './ledger.js';
import type { Mailroom } from './room.js';
import { offerDigests } from './seat-mail.js';
import { verifyMessage } from './verify.js';

/** The campaign as a fetch run sees it when it judges a message. */
export interface JudgeScene {
  room: Mailroom;
  opts: FetchOptions;
  state: GameState;
  pendingTurn: number;
  /** The nations with orders on file for the pending turn, including those filed earlier in this run. */
  ordersOnFile: ReadonlySet<string>;
}

/** Judges a message read whole. */
export async function judgeMessage(scene: JudgeScene, raw: Buffer, record: LedgerEntry, now: Date): Promise<Decision> {
  const { room, opts } = scene;
  const headers = readRawHeaders(raw);
  const parsed = await parseInbound(raw);
  // HTML-only mail: mailparser's conversion wraps long lines; convert it again without wrapping.
  const html = await htmlOnlyText(raw);
  if (html !== undefined) {
    parsed.text = html;
    parsed.textFromHtml = true;
  }
  const from = parsed.from?.address.toLowerCase();
  record.inbound = {
    ...(parsed.messageId ? { messageId: parsed.messageId } : {}),
    ...(from ? { from } : {}),
    subject: parsed.subject,
    ...(parsed.inReplyTo ? { inReplyTo: parsed.inReplyTo } : {}),
    ...(parsed.references.length ? { references: parsed.references } : {}),
  };
  const auth = room.settings.verifyAuthentication ? await verifyMessage(raw, opts.resolver ? { resolver: opts.resolver } : {}) : authResults(headers, room.settings.authServId);
  if (auth) record.auth = auth;
  const receivedAt = new Date(record.receivedAt);
  return decideInbound(parsed, {
    campaign: room.open.campaign,
    addresses: room.addressBook(),
    state: scene.state,
    tokens: room.secrets,
    ...(opts.retiredTokens ? { retiredTokens: opts.retiredTokens } : {}),
    ownAddresses: room.ownAddresses(),
    ownDomain: senderDomain(room.settings),
    ordersOnFile: scene.ordersOnFile,
    late: !(opts.acceptsOrders?.(scene.pendingTurn, receivedAt) ?? true),
    recentFromSender: from ? room.senders.recentMessages(from, receivedAt, record.key) : 0,
    recentFiledFromSender: from ? room.senders.recentFiled(from, receivedAt, record.key) : 0,
    recentRepliesTo: from ? room.senders.recentReplies(from, now) : 0,
    limits: room.settings.flood,
    headers,
    ...(auth ? { auth } : {}),
    day: now.toISOString().slice(0, 10),
    receivedAt: record.receivedAt,
    ...(parsed.messageId ? { messageId: parsed.messageId } : {}),
    ledgerKey: record.key,
    campaignDir: room.dir,
    ...(opts.seats ? { offers: offerDigests(room, opts.seats.openOffers()) } : {}),
  });
}

/** Judges a message too large to read, from the headers the server gave. */
export function judgeTooLarge(room: Mailroom, entry: Extract<InboxEntry, { tooLarge: true }>, now: Date): Decision {
  const from = entry.from?.toLowerCase();
  const ctx = {
    addresses: room.addressBook(),
    recentRepliesTo: from ? room.senders.recentReplies(from, now) : 0,
    limits: room.settings.flood,
    ownAddresses: room.ownAddresses(),
  };
  return decideTooLarge({ ...(from ? { from } : {}), ...(entry.subject ? { subject: entry.subject } : {}), size: entry.size }, ctx, room.settings.maxMessageBytes);
}
