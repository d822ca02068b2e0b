import type { Campaign } from '../core/campaign.js';
import { asNationId, type NationId } from '../core/ids.js';
import type { GameState } from '../core/state.js';
import type { ParsedInbound } from '../mail/parse.js';
import { readMailSheet } from '../orders/mail-sheet.js';
import { clip, findNation } from '../orders/names.js';
import { buildReceipt, checkToken, type OrderReceipt } from '../orders/receipt.js';
import { hasActionLines, WHOLE_FILE, type OrderSheet } from '../orders/sheet.js';
import { ordersToYaml } from '../orders/yaml-write.js';
import { timingSafeEqual } from 'node:crypto';
import { tokenDigest } from '../campaign/secrets.js';
import { bounceFacts, firstHeader, type AuthSummary, type BounceFacts, type RawHeaders } from './headers.js';
import { checkFromFields } from './from-header.js';
import { type MailCommand, type TimeZoneRequest, type AbsenceRequest, firstLines, subjectHints, absenceOf, timeZoneOf, waitOf, findCommands, cutQuotedTail } from './mail-commands.js';

/**
 * The mailroom's judgement, with no I/O: one parsed inbound message and what the campaign knows → what to do
 * with it. The executor (fetch.ts) records the Decision in the ledger before acting on it, so a run killed
 * half-way acts on the same Decision when it runs again.
 *
 * In order, a message is
 *   1. ignored when a machine sent it or it would start a loop: our own mail, auto-replies (RFC 3834),
 *      mailing-list mail, mail without a sender, a flood from one address;
 *   2. recorded as a bounce when it is a delivery report (against the nation whose address failed);
 *   3. refused politely when its sender is not registered for a nation, or it does not say which of the
 *      sender's nations it is for;
 *   4. answered as a command ("resend report", "deadline", "show orders") when it holds no orders;
 *   5. otherwise read as orders: refused whole without the nation's token (checked in constant time), for
 *      another turn or nation, or late; refused when nothing in it reads as a valid order; filed otherwise.
 * Every reply is subject to a per-address budget, so no exchange with a machine can go on for long.
 */

export type RefusalReason =
  /** The From address is not registered for any nation. */
  | 'unknown-sender'
  /** The message says it is for a nation its sender does not play. */
  | 'not-your-nation'
  /** The sender plays several nations and the message does not say which. */
  | 'which-nation'
  /** The GM has set no order token for the nation, so nothing can be accepted for it. */
  | 'no-token-set'
  /** Missing or wrong order token. */
  | 'token'
  /** The receipt refused the orders whole: another turn, another nation, late. */
  | 'refused-orders'
  /** Nothing in the message reads as a valid order or a command. */
  | 'no-orders'
  /** Over the size limit: not downloaded. */
  | 'too-large'
  /** The From field is not one valid mailbox: no nation is guessed from it. */
  | 'bad-from'
  /** An `accept` without the code of an invitation sent to this address (or with another's). */
  | 'invitation'
  /** Valid orders, but more order mails from the address within 24 hours than the flood limit allows. */
  | 'too-many-orders';

export type IgnoreReason = 'own-mail' | 'auto-reply' | 'mailing-list' | 'no-sender' | 'flood';

/** Something the GM should hear about; `key` makes sure they hear it once. */
export interface GmNote {
  key: string;
  subject: string;
  text: string;
}

interface Common {
  /** An alert for the GM, besides what the decision itself does. */
  gm?: GmNote;
  /** A reply was due but the address has had its share of automatic answers today. */
  replySuppressed?: boolean;
}

export type Decision =
  | (Common & { kind: 'file'; nation: NationId; turn: number; replacesEarlier: boolean; receipt: OrderReceipt; ordersYaml: string; replyTo?: string })
  /** Orders that would be filed, but the sender's domain failed DMARC: kept for the GM (fatecraft mail accept). */
  | (Common & { kind: 'hold'; nation: NationId; turn: number; replacesEarlier: boolean; receipt: OrderReceipt; ordersYaml: string; replyTo?: string; why: string })
  | (Common & { kind: 'refuse'; reason: RefusalReason; nation?: NationId; detail: string; receipt?: OrderReceipt; problems?: string[]; linesOf?: string; replyTo?: string })
  | (Common & { kind: 'command'; nation: NationId; commands: MailCommand[]; absence?: AbsenceRequest; timeZone?: TimeZoneRequest; wait?: boolean; replyTo?: string })
  | (Common & { kind: 'bounce'; facts: BounceFacts; nations: NationId[] })
  /** Seats by mail (docs/mail.md, "Seats"): join the standby list, or take the seat an invitation offers. */
  | (Common & { kind: 'seat'; action: 'volunteer'; address: string; name: string; replyTo?: string })
  | (Common & { kind: 'seat'; action: 'accept'; address: string; offer: number; nation: NationId; replyTo?: string })
  | (Common & { kind: 'ignore'; reason: IgnoreReason; detail: string })
  | (Common & { kind: 'quarantine'; reason: string; detail: string });

export interface InboundContext {
  campaign: Campaign;
  /** Each nation's registered addresses, lower case. */
  addresses: Readonly<Record<string, readonly string[]>>;
  /** The latest resolved state; the pending turn is state.turn + 1. */
  state: GameState;
  tokens: { token(nation: string): string | undefined; nationsWithTokens(): string[] };
  /** SHA-256 digests of each nation's replaced tokens (runtime.yaml retiredTokens): refused as "replaced". */
  retiredTokens?: Readonly<Record<string, readonly string[]>>;
  /** The processor's own addresses (from, aliases): their mail is never answered. */
  ownAddresses: readonly string[];
  /** The domain our Message-IDs are minted under. */
  ownDomain: string;
  /** Nations with orders on file for the pending turn. */
  ordersOnFile: ReadonlySet<string>;
  /** Arrived after the pending turn stopped taking orders. */
  late: boolean;
  /** Messages from this message's From address in the 24 hours before it. */
  recentFromSender: number;
  /** Orders from this address filed or held (they carried the token) in the 24 hours before it. */
  recentFiledFromSender?: number;
  /** Automatic answers to this address in the 24 hours before now. */
  recentRepliesTo: number;
  limits: { perSenderPerDay: number; repliesPerAddressPerDay: number };
  headers: RawHeaders;
  auth?: AuthSummary;
  /** ISO date used in GM alert keys (one alert per address per day). */
  day: string;
  receivedAt: string;
  messageId?: string;
  /** The message's ledger key, for the commands an alert gives the GM. */
  ledgerKey?: string;
  /** The campaign folder as the GM names it on the command line; `<campaign>` when unknown. */
  campaignDir?: string;
  /** Open invitations to take a seat, with the SHA-256 of each one's code (src/seats/offers.ts). */
  offers?: readonly { id: number; nation: string; address: string; digest: string }[];
}

/** Our outgoing mail says where it came from; mail carrying this header for this campaign is ours. */
export const CAMPAIGN_HEADER = 'X-Fatecraft-Campaign';
export const KIND_HEADER = 'X-Fatecraft-Kind';

export function decideInbound(mail: ParsedInbound, ctx: InboundContext): Decision {
  const from = mail.from?.address.toLowerCase();

  // 1. Machines and loops: never answered.
  if (isOwnMail(mail, ctx)) return { kind: 'ignore', reason: 'own-mail', detail: 'sent by this campaign (loop)' };
  if (mail.isBounce) {
    const facts = bounceFacts(mail.attachments, mail.text);
    const nations = nationsOf(ctx, facts.recipients.map((r) => r.address));
    const addresses = facts.recipients.map((r) => r.address).join(', ') || 'an unknown address';
    const lines = facts.recipients.map((r) => `  ${r.address}: ${r.action}${r.status ? ` ${r.status}` : ''}${r.diagnostic ? ` (${r.diagnostic})` : ''}`);
    return {
      kind: 'bounce',
      facts,
      nations,
      gm: {
        key: `bounce:${addresses}:${ctx.day}`,
        subject: `Mail to ${addresses} bounced`,
        text: [`A delivery report came back${nations.length ? ` for ${nations.join(', ')}` : ''}:`, ...lines, ...(facts.originalSubject ? [`The message was: ${facts.originalSubject}`] : []), '', 'Check the address in campaign.yaml, or ask the player for a new one.'].join('\n'),
      },
    };
  }
  if (mail.isAutoReply) return { kind: 'ignore', reason: 'auto-reply', detail: autoReplyDetail(mail) };
  if (mail.isMailingList) return listMail(mail, ctx);
  const fromCheck = checkFromFields(ctx.headers.get('from'));
  if (!fromCheck.ok) return badFrom(firstHeader(ctx.headers, 'from') ?? '', fromCheck.problem, ctx);
  if (from === undefined) return { kind: 'ignore', reason: 'no-sender', detail: 'no From address' };
  const canReply = ctx.recentRepliesTo < ctx.limits.repliesPerAddressPerDay;
  const reply = (): { replyTo?: string; replySuppressed?: boolean } => (canReply ? { replyTo: from } : { replySuppressed: true });
  const judged = judge(mail, ctx, from, reply);
  // Orders count against the same limit, but only orders that carried the token: whoever forges a player's
  // address to flood the campaign must not shut the player out. Past it they are refused with an answer (the
  // sender has the token: a person, not a machine), so resubmitting cannot flood the readers of the letters.
  const filings = ctx.recentFiledFromSender ?? 0;
  if ((judged.kind === 'file' || judged.kind === 'hold') && filings >= ctx.limits.perSenderPerDay) {
    return {
      kind: 'refuse',
      reason: 'too-many-orders',
      nation: judged.nation,
      detail: `${filings + 1} order mails from ${from} within 24 hours (the limit is ${ctx.limits.perSenderPerDay})`,
      // Answered as a receipt is, whatever the reply budget: it carried the token, so no machine sent it.
      replyTo: from,
      gm: { key: `order-flood:${from}:${ctx.day}`, subject: `Too many order mails from ${from}`, text: `${judged.nation}'s player (${from}) sent more than ${ctx.limits.perSenderPerDay} order mails within 24 hours. Further ones are refused, with an answer, until the rate drops; the orders on file stand. The limit is mail.flood.perSenderPerDay in campaign.yaml.` },
    };
  }
  // A flood from one address is filed away unanswered, except a valid submission (above).
  if (ctx.recentFromSender >= ctx.limits.perSenderPerDay && judged.kind !== 'file' && judged.kind !== 'hold') {
    return {
      kind: 'ignore',
      reason: 'flood',
      detail: `${ctx.recentFromSender + 1} messages from ${from} within 24 hours (limit ${ctx.limits.perSenderPerDay})`,
      gm: { key: `flood:${from}:${ctx.day}`, subject: `Flood of mail from ${from}`, text: `More than ${ctx.limits.perSenderPerDay} messages arrived from ${from} within 24 hours. Further ones are filed away unanswered until the rate drops (valid orders are still accepted); they are in the ledger (fatecraft mail status).` },
    };
  }
  return judged;
}

/** Steps 2 to 5: a message from a person, not a machine. */
function judge(mail: ParsedInbound, ctx: InboundContext, from: string, reply: () => { replyTo?: string; replySuppressed?: boolean }): Decision {
  // 2. A seat asked for or taken: from anyone, the standby list's volunteers included.
  const seat = seatRequest(mail, ctx, from, reply);
  if (seat) return seat;

  // 3. Who is it from?
  const { sheet, source } = readMailSheet({ text: cutQuotedTail(mail.text), attachments: mail.attachments });
  // An HTML-only mail is numbered as the text read from it: the player's mail program showed it formatted, so say how.
  const body = mail.textFromHtml ? 'your message as plain text (it came as HTML only: each paragraph and line break starts a line)' : 'your message';
  const linesOf = source === 'mail body' ? body : `the ${source.replace(/^attachment /, 'attached ')}`;
  const hints = subjectHints(mail.subject, ctx.campaign);
  if (sheet.turn === undefined && hints.turn !== undefined) sheet.turn = hints.turn;
  const registered = nationsOf(ctx, [from]);
  if (registered.length === 0) {
    const owner = sheet.token !== undefined ? tokenOwner(sheet.token, ctx) : undefined;
    // A seat's old player, after someone else took it: their token was replaced with their address.
    const retired = owner === undefined && sheet.token !== undefined ? retiredOwner(sheet.token, ctx) : undefined;
    if (retired !== undefined) return { kind: 'refuse', reason: 'token', nation: retired, detail: 'seat passed on', ...reply() };
    return {
      kind: 'refuse',
      reason: 'unknown-sender',
      detail: `${from} is not registered for any nation`,
      ...reply(),
      ...(owner !== undefined
        ? { gm: { key: `token-from-stranger:${from}:${owner}:${ctx.day}`, subject: `${owner}'s order token sent from an unknown address`, text: `A message from ${from}, which is not registered for any nation, carried the order token of ${owner}. Nothing was filed.\nIf the player has a new address, add it to ${owner}'s email list in campaign.yaml; if not, the token may have leaked: give ${owner} a new one in the secrets file.` } }
        : {}),
    };
  }
  const claimed = sheet.nation !== undefined ? findNation(ctx.campaign, sheet.nation) : hints.nation;
  let nation: NationId;
  if (registered.length === 1) {
    nation = registered[0]!;
  } else if (claimed !== undefined && registered.includes(claimed)) {
    nation = claimed;
  } else if (claimed !== undefined) {
    return { kind: 'refuse', reason: 'not-your-nation', detail: `${from} plays ${registered.join(', ')}, not ${claimed}`, nation: claimed, ...reply() };
  } else {
    return { kind: 'refuse', reason: 'which-nation', detail: `${from} plays ${registered.join(', ')}; the message does not say which`, ...reply() };
  }

  // 3. Commands, when there are no orders; a message with neither changes nothing.
  if (sheet.entries.length === 0 && !hasActionLines(sheet, ctx.campaign)) {
    const commands = findCommands(mail.subject, mail.text);
    if (commands.length > 0) {
      const absence = commands.includes('absent') ? absenceOf(mail.subject, mail.text, ctx.state.turn + 1) : undefined;
      const timeZone = commands.includes('timezone') ? timeZoneOf(mail.subject, mail.text) : undefined;
      const wait = commands.includes('wait') ? waitOf(mail.subject, mail.text) : undefined;
      return { kind: 'command', nation, commands, ...(absence ? { absence } : {}), ...(timeZone ? { timeZone } : {}), ...(wait !== undefined ? { wait } : {}), ...reply() };
    }
  }

  // 4. Orders.
  const header = (turn: number) => [
    `# Orders of ${nation} for turn ${turn}, filed from mail.`,
    `# From: ${from}${ctx.messageId ? `  Message-ID: ${ctx.messageId}` : ''}`,
    `# Received: ${ctx.receivedAt}. The mail itself is kept beside this file (${nation}.eml), its order token replaced by a fingerprint.`,
  ];
  return decideOrders(sheet, nation, ctx, { from, linesOf, header, reply });
}

/** What a judgement of orders needs of the campaign: the state, the tokens, what is on file, the deadline. */
export type OrdersContext = Pick<InboundContext, 'campaign' | 'state' | 'tokens' | 'retiredTokens' | 'ordersOnFile' | 'late' | 'auth'> & Partial<Pick<InboundContext, 'ledgerKey' | 'messageId' | 'campaignDir'>>;

/** Who sent the orders and how: the mail's sender, or a player signed in on the web desk (src/web). */
export interface OrdersSource {
  /** The address answers go to, named in the GM's notes. */
  from: string;
  /** What the receipt's line numbers count ("your message", "the order form"). */
  linesOf: string;
  /** The comment lines on top of the filed orders, saying where they came from. */
  header: (turn: number) => string[];
  /** Whether this sender may be answered now (the per-address budget of automatic answers). */
  reply: () => { replyTo?: string; replySuppressed?: boolean };
  /**
   * Only checking, nothing will be filed (the web desk's live check): the orders file is not written out,
   * and a decision to file carries an empty ordersYaml. Writing the file is most of the work of a check.
   */
  checkOnly?: boolean;
}

/**
 * Step 4 of the judgement, the same for every door orders come in by: refused whole without the nation's
 * token (checked in constant time), for another turn or nation, or late; refused when nothing in them reads
 * as a valid order; held when the sender's domain failed DMARC; filed otherwise.
 */
export function decideOrders(sheet: OrderSheet, nation: NationId, ctx: OrdersContext, source: OrdersSource): Decision {
  const { from, linesOf, reply } = source;
  // A "thanks!", or a reply that only quotes the report, must never touch the orders on file.
  if (sheet.entries.length === 0 && !hasActionLines(sheet, ctx.campaign)) return { kind: 'refuse', reason: 'no-orders', nation, detail: 'no orders in the message', ...readerProblems(sheet, linesOf), ...reply() };
  const expected = ctx.tokens.token(nation);
  if (expected === undefined) {
    return {
      kind: 'refuse',
      reason: 'no-token-set',
      nation,
      detail: `no order token is set for ${nation}`,
      ...reply(),
      gm: { key: `no-token:${nation}`, subject: `No order token for ${nation}`, text: `Orders for ${nation} arrived from ${from}, but no order token is set for ${nation}, so they were refused. Add one to the secrets file (see docs/mail.md).` },
    };
  }
  const replacesEarlier = ctx.ordersOnFile.has(nation);
  const { receipt, orders, texts } = buildReceipt({ campaign: ctx.campaign, state: ctx.state, sheet, nation, expectedToken: expected, replacesEarlier, late: ctx.late, linesOf });
  if (receipt.token === 'wrong' || receipt.token === 'missing') {
    const replaced = receipt.token === 'wrong' && sheet.token !== undefined && (ctx.retiredTokens?.[nation] ?? []).includes(tokenDigest(sheet.token));
    // The player fixes the token and any slip in one go: the reader's findings are told, the orders are not.
    return { kind: 'refuse', reason: 'token', nation, detail: replaced ? 'replaced order token' : `${receipt.token} order token`, receipt, ...readerProblems(sheet, linesOf), ...reply() };
  }
  if (receipt.refusedWhole !== undefined) {
    return { kind: 'refuse', reason: 'refused-orders', nation, detail: receipt.refusedWhole, receipt, ...reply() };
  }
  if (orders.orders.length === 0) {
    // Nothing valid: filing it would wipe out the orders on file.
    return { kind: 'refuse', reason: 'no-orders', nation, detail: 'none of the orders could be read', receipt, ...reply() };
  }
  const ordersYaml = source.checkOnly ? '' : `${source.header(orders.turn).join('\n')}\n${ordersToYaml(orders, { written: texts })}`;
  if (ctx.auth?.dmarc === 'fail') return held(ctx, { nation, turn: orders.turn, replacesEarlier: receipt.replacesEarlier, receipt, ordersYaml, from });
  // The receipt of filed orders always goes: no machine can file orders (they need the token), so it cannot loop.
  return { kind: 'file', nation, turn: orders.turn, replacesEarlier: receipt.replacesEarlier, receipt, ordersYaml, replyTo: from };
}

const VOLUNTEER = /^(?:i\s+)?volunteer\b[\s:,-]*(.*)$/i;
const ACCEPT = /^(?:i\s+)?accept\b/i;
const CODE = /\b([a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5})\b/gi;

/**
 * "volunteer <name>" (join the standby list) or "accept" with an invitation's code: seats by mail. Anyone may
 * volunteer; an `accept` takes a seat only with the code of an open invitation sent to the sender's address
 * (found anywhere in the message, so a reply quoting the invitation is enough). An `accept` from an address
 * with no invitation is not about seats (it may be "accept trade with ..."): the message is read on.
 */
function seatRequest(mail: ParsedInbound, ctx: InboundContext, from: string, reply: () => { replyTo?: string; replySuppressed?: boolean }): Decision | undefined {
  const lines = firstLines(mail.subject, mail.text);
  const volunteer = lines.map((l) => VOLUNTEER.exec(l)).find((m) => m !== null);
  if (volunteer) {
    const name = clip((volunteer[1] ?? '').replace(/^(?:as|for)\s+/i, '').trim() || mail.from?.name?.trim() || from.split('@')[0]!, 60);
    return { kind: 'seat', action: 'volunteer', address: from, name, ...reply() };
  }
  const mine = (ctx.offers ?? []).filter((o) => o.address.toLowerCase() === from);
  if (mine.length === 0 || !lines.some((l) => ACCEPT.test(l) && !/\btrade\b/i.test(l))) return undefined;
  const codes = [...`${mail.subject}\n${mail.text}`.matchAll(CODE)].map((m) => tokenDigest(m[1]!.toLowerCase()));
  const offer = mine.find((o) => codes.some((c) => constantTimeEqual(c, o.digest)));
  if (!offer) return { kind: 'refuse', reason: 'invitation', detail: `an "accept" from ${from} without the code of the invitation sent to it`, ...reply() };
  return { kind: 'seat', action: 'accept', address: from, offer: offer.id, nation: asNationId(offer.nation), ...reply() };
}

function constantTimeEqual(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** The decision for a message over the size limit, from what the inbox knows without downloading it. */
export function decideTooLarge(entry: { from?: string; subject?: string; size: number }, ctx: Pick<InboundContext, 'addresses' | 'recentRepliesTo' | 'limits' | 'ownAddresses'>, limit: number): Decision {
  const from = entry.from?.toLowerCase();
  const nations = from !== undefined ? nationsOf(ctx, [from]) : [];
  const detail = `${entry.size} bytes; the limit is ${limit}`;
  // Only registered players hear about it: anyone else may be a forged sender.
  const canReply = from !== undefined && nations.length > 0 && !ctx.ownAddresses.includes(from) && ctx.recentRepliesTo < ctx.limits.repliesPerAddressPerDay;
  return { kind: 'refuse', reason: 'too-large', detail, ...(nations[0] !== undefined ? { nation: nations[0] } : {}), ...(canReply ? { replyTo: from } : {}) };
}

function isOwnMail(mail: ParsedInbound, ctx: InboundContext): boolean {
  const from = mail.from?.address.toLowerCase();
  if (from !== undefined && ctx.ownAddresses.includes(from)) return true;
  const marker = firstHeader(ctx.headers, CAMPAIGN_HEADER);
  if (marker !== undefined && marker.trim() === ctx.campaign.name) return true;
  const id = mail.messageId?.toLowerCase() ?? '';
  return id.startsWith('<fatecraft.') && id.endsWith(`@${ctx.ownDomain.toLowerCase()}>`);
}

/** How the GM names this campaign and this message on the command line. */
function commandArgs(ctx: Pick<InboundContext, 'ledgerKey' | 'messageId' | 'campaignDir'>): { dir: string; key: string } {
  const key = ctx.ledgerKey ?? ctx.messageId ?? '<key>';
  return { dir: ctx.campaignDir ?? '<campaign>', key: `'${key.replace(/'/g, '')}'` };
}

/**
 * Mail relayed by a mailing list is never filed or answered. When it holds orders or a token, the token was
 * published to everyone on the list: the GM is told, with the command that issues a new one.
 */
function listMail(mail: ParsedInbound, ctx: InboundContext): Decision {
  const list = mail.headers.listId ?? mail.headers.precedence ?? 'list mail';
  const decision: Decision = { kind: 'ignore', reason: 'mailing-list', detail: list };
  const { sheet } = readMailSheet({ text: cutQuotedTail(mail.text), attachments: mail.attachments });
  if (sheet.token === undefined && sheet.entries.length === 0 && !hasActionLines(sheet, ctx.campaign)) return decision;
  const owner = sheet.token !== undefined ? tokenOwner(sheet.token, ctx) : undefined;
  const registered = nationsOf(ctx, mail.from ? [mail.from.address] : []);
  const { dir } = commandArgs(ctx);
  const sender = mail.from?.address ?? 'an unknown sender';
  const exposed = owner !== undefined ? [owner] : registered;
  const lines = [
    `A message with orders came in through the mailing list ${list} (from ${sender}, subject "${clip(mail.subject)}"). It was not filed and not answered: mail from a list is never read as orders.`,
    owner !== undefined
      ? `It carried the order token of ${owner}, so that token has been published to everyone on the list. Issue a new one:`
      : `It carried ${sheet.token !== undefined ? "an order token that is no nation's current one" : 'no order token'}; if a player's token was in it all the same, issue a new one:`,
    ...(exposed.length ? exposed.map((n) => `  fatecraft token ${dir} ${n} --new`) : [`  fatecraft token ${dir} <nation> --new`]),
    'and ask the player to send orders to the turn address directly, never through the list.',
  ];
  return { ...decision, gm: { key: `list-orders:${ctx.ledgerKey ?? ctx.messageId ?? list}`, subject: owner !== undefined ? `${owner}'s order token was sent to a mailing list` : 'orders came in through a mailing list', text: lines.join('\n') } };
}

/** A From field that is not one mailbox: refused unread, unanswered (there is no address to trust), the GM told. */
function badFrom(value: string, problem: string, ctx: InboundContext): Decision {
  const shown = clip(value) || '(empty)';
  return {
    kind: 'refuse',
    reason: 'bad-from',
    detail: `the From field "${shown}" is not a valid address: ${problem}`,
    gm: {
      key: `bad-from:${value}:${ctx.day}`,
      subject: 'a message with an invalid From field was refused',
      text: [
        'A message was refused without reading it, because its From field is not a valid address:',
        `  From: ${shown}`,
        `  (${problem})`,
        'Nothing was filed and no answer was sent: the sender cannot be told from the field. If it is a player\'s, ask them to fix the name or address their mail program sends (a name with brackets, commas, colons or @ must be in quotes). The message is in the ledger (fatecraft mail status).',
      ].join('\n'),
    },
  };
}

/** Orders that passed every check but the sender domain's DMARC: held for the GM, the player told. */
function held(ctx: OrdersContext, o: { nation: NationId; turn: number; replacesEarlier: boolean; receipt: OrderReceipt; ordersYaml: string; from: string }): Decision {
  const by = ctx.auth?.servId ? ` (recorded by ${ctx.auth.servId}${ctx.auth.trusted ? '' : ', a server not configured as trusted'})` : '';
  const why = `DMARC failed for the sender's domain${ctx.auth?.domain ? ` ${ctx.auth.domain}` : ''}${by}`;
  const { dir, key } = commandArgs(ctx);
  return {
    kind: 'hold',
    nation: o.nation,
    turn: o.turn,
    replacesEarlier: o.replacesEarlier,
    receipt: o.receipt,
    ordersYaml: o.ordersYaml,
    why,
    replyTo: o.from,
    gm: {
      key: `held:${ctx.ledgerKey ?? ctx.messageId ?? o.from}`,
      subject: `orders of ${o.nation} for turn ${o.turn} held: DMARC failed`,
      text: [
        `Orders for ${o.nation}, turn ${o.turn}, arrived from ${o.from} with the right order token, but ${why}. They are held, not filed: someone may be writing in the player's name, or a forwarding service broke the check. The player was told they are held for you.`,
        'If the player did send them, file them as if the check had passed:',
        `  fatecraft mail accept ${dir} ${key}`,
        `If not, leave them, and give ${o.nation} a new order token (fatecraft token ${dir} ${o.nation} --new): whoever sent them has it.`,
      ].join('\n'),
    },
  };
}

function autoReplyDetail(mail: ParsedInbound): string {
  return mail.autoReplyMark ?? 'a machine-made message';
}

function nationsOf(ctx: Pick<InboundContext, 'addresses'>, addresses: readonly string[]): NationId[] {
  const wanted = new Set(addresses.map((a) => a.toLowerCase()));
  return Object.entries(ctx.addresses)
    .filter(([, list]) => list.some((a) => wanted.has(a)))
    .map(([nation]) => asNationId(nation))
    .sort();
}

/**
 * What the reader itself found wrong (a YAML slip, an unknown order), at its line, for a message refused
 * before its token was checked: syntax only, never the nation's units, so nothing is told to a stranger.
 */
function readerProblems(sheet: OrderSheet, linesOf: string): { problems?: string[]; linesOf?: string } {
  const problems = sheet.problems.slice(0, 20).map((p) => `${p.line !== undefined ? `line ${p.line}: ` : ''}${p.text === WHOLE_FILE ? '' : `"${clip(p.text)}": `}${p.reason}`);
  return problems.length ? { problems, linesOf } : {};
}

/** The nation one of whose replaced tokens this is (runtime.yaml retiredTokens), if any. */
function retiredOwner(token: string, ctx: InboundContext): NationId | undefined {
  const digest = tokenDigest(token);
  const hit = Object.entries(ctx.retiredTokens ?? {}).find(([, list]) => list.includes(digest));
  return hit ? asNationId(hit[0]) : undefined;
}

/** The nation whose token this is, checked in constant time against each. */
function tokenOwner(token: string, ctx: InboundContext): NationId | undefined {
  let owner: NationId | undefined;
  for (const nation of ctx.tokens.nationsWithTokens()) {
    if (checkToken(token, ctx.tokens.token(nation)) === 'ok') owner ??= asNationId(nation);
  }
  return owner;
}
