/**
 * Every message the campaign sends, as plain data (OutboundMessage). Pure: the same inputs give the same
 * message, byte for byte once the Date is fixed, and the Message-ID is derived from what the message is
 * (campaign, kind, turn, nation, the inbound message it answers), so queueing it twice queues it once.
 */
import { createHash } from 'node:crypto';
import type { OutboundAttachment, OutboundMessage } from '../mail/types.js';
import { renderReceipt, type OrderReceipt } from '../orders/receipt.js';
import { escapeXml, headerText } from '../text/escape.js';
import { addressOf, senderDomain, type MailSettings } from './config.js';
import { CAMPAIGN_HEADER, KIND_HEADER, type Decision, type GmNote } from './decide.js';
import type { MailCommand, TimeZoneRequest } from './mail-commands.js';
import type { InboundFacts } from './ledger.js';
import type { OutKind } from './outbox.js';
import type { BackResult } from '../schedule/seats/desk.js';
import { backText, composeVolunteerAnswer, readyText } from './compose-seats.js';

export interface ComposeBase {
  settings: MailSettings;
  campaign: { name: string; title: string };
  date: Date;
}

/** `<fatecraft.<kind>.<readable part>.<hash>@<campaign domain>>`: stable for the same parts. */
export function messageIdFor(base: Pick<ComposeBase, 'settings' | 'campaign'>, kind: string, ...parts: (string | number)[]): string {
  const hash = createHash('sha256').update([base.campaign.name, kind, ...parts.map(String)].join('\u0000')).digest('hex').slice(0, 20);
  const readable = parts
    .filter((p) => typeof p === 'number' || /^[a-z0-9-]{1,24}$/.test(p))
    .map((p) => (typeof p === 'number' ? `t${String(p).padStart(4, '0')}` : p))
    .join('.');
  return `<fatecraft.${kind}.${readable ? `${readable}.` : ''}${hash}@${senderDomain(base.settings)}>`;
}

export function headers(base: ComposeBase, kind: OutKind, autoSubmitted: 'auto-replied' | 'auto-generated'): Record<string, string> {
  return {
    // RFC 3834: responders must not answer these, so a player's vacation message never answers a receipt.
    'Auto-Submitted': autoSubmitted,
    'X-Auto-Response-Suppress': 'All',
    [CAMPAIGN_HEADER]: base.campaign.name,
    [KIND_HEADER]: kind,
  };
}

/** Threading fields for an answer to `inbound` (RFC 5322 §3.6.4). */
export function threadOf(inbound: InboundFacts): Pick<OutboundMessage, 'inReplyTo' | 'references'> {
  if (inbound.messageId === undefined) return {};
  const refs = [...(inbound.references ?? []), inbound.messageId].filter((r, i, all) => all.indexOf(r) === i).slice(-20);
  return { inReplyTo: inbound.messageId, references: refs };
}

export function replySubject(inbound: InboundFacts, fallback: string): string {
  // The sender's subject comes back in ours, and in `mail status` on the GM's terminal: one plain line.
  const subject = headerText(inbound.subject ?? '').trim();
  if (subject === '') return fallback;
  return /^re\s*:/i.test(subject) ? subject : `Re: ${subject}`;
}

export const SIGN_OFF = (base: ComposeBase) => `\n-- \n${base.campaign.title} — the turn processor (${addressOf(base.settings.from)}).\nThis is an automatic answer. Mail commands: "resend report", "deadline", "show orders", "absent for 2 turns", "timezone Europe/Berlin", "wait".\n`;

// ---------------------------------------------------------------------------------------------------------
// Answers to inbound mail
// ---------------------------------------------------------------------------------------------------------

export interface AnswerInput extends ComposeBase {
  key: string;
  inbound: InboundFacts;
  decision: Decision;
  to: string;
  /** For commands: what the answer reports. */
  command?: CommandFacts;
  /** For a receipt: the pending turn's deadline as this player reads it. */
  deadline?: string;
  /** For a receipt: the paragraph on the letters relayed at once (press-relay.ts relayText). */
  relayed?: string;
  /** For a refusal of a replaced token: the mail that brought the new one, its subject and when it was sent. */
  newToken?: { subject: string; sent: string };
}

export interface CommandFacts {
  /** "Sunday 9 March 2025, 18:00 (Europe/London)"; undefined when no deadline is set. */
  deadline?: string;
  pendingTurn: number;
  /** The receipt of the orders on file, for "show orders". */
  ordersOnFile?: OrderReceipt;
  /** The turn whose report was re-sent, for "resend". */
  resentTurn?: number;
  /** For "absent": the turns, and whether the schedule recorded them (else the GM was told). */
  absence?: { fromTurn: number; toTurn: number; recorded: boolean };
  /** For "timezone": what was asked, and whether the schedule kept it (else the GM was told). */
  timeZone?: { request: TimeZoneRequest; recorded: boolean };
  /** For "wait": whether the turn now waits for its deadline, and whether the schedule kept it. */
  wait?: { wait: boolean; recorded: boolean };
  /** For "back": what was filed and done in the nation's name (undefined: not kept, the GM told). */
  back?: BackResult;
  /** For "ready": whether the roll-call kept it. */
  ready?: boolean;
  /** For "volunteer": added to the standby list (false: there already; undefined: not kept, the GM told). */
  volunteer?: boolean;
}

/** What was wrong with a message that filed nothing: no orders in it, none that could be read, or none valid. */
function noOrdersOpening(d: Extract<Decision, { kind: 'refuse' }>): string {
  if (d.detail === 'none of the orders could be read') return 'None of the orders in your message is valid (each is listed below with why)';
  if (d.problems?.length) return 'None of the orders in your message could be read (see below)';
  return 'No orders were found in your message';
}

const REFUSALS: Record<string, (d: Extract<Decision, { kind: 'refuse' }>, base: ComposeBase, to: string, input: AnswerInput) => string> = {
  'unknown-sender': (_d, base, to) =>
    `Your message reached the turn processor of ${base.campaign.title}, but ${to} is not registered for any nation, so nothing in it was read or filed.\n\nIf you play in this campaign from a new address, ask the GM to add it; until then, please write from the address the GM has on file.`,
  'not-your-nation': (d, base, to) => `Your message names the nation "${d.nation}", which ${to} is not registered to play in ${base.campaign.title}. Nothing was filed.`,
  'which-nation': (_d, _base, to) => `${to} is registered for more than one nation, and your message does not say which one it is for. Nothing was filed.\n\nAdd a line "Nation: <nation>" (or put the nation in the subject, e.g. "Orders argenta turn 5") and send it again.`,
  'no-token-set': (d) => `Your orders for ${d.nation} could not be accepted: the GM has not set up an order token for your nation yet. The GM has been told; nothing was filed.`,
  token: (d, base, _to, input) =>
    d.detail === 'seat passed on'
      ? `Your message carried the old order token of ${d.nation}, whose seat in ${base.campaign.title} has passed to another player: this address no longer plays it, and the old token is refused. Nothing was read or filed.\n\nIf you think this is a mistake, write to the GM.`
      : d.detail === 'replaced order token'
      ? `A message for ${d.nation} arrived from this address with an order token that the GM has since replaced, so none of it was read and nothing was filed.\n\n${
          input.newToken
            ? `The new token came in a mail of its own, "${input.newToken.subject}", sent ${input.newToken.sent}: use that one (your turn reports from before it carry the old token). Ask the GM if you cannot find it.`
            : 'The GM has not mailed you the new one: ask the GM for it (your turn reports from before carry the old token).'
        }`
      : `A message for ${d.nation} arrived from this address ${d.detail === 'missing order token' ? 'without the order token' : 'with a wrong order token'}, so none of it was read and nothing was filed.\n\nPut the line "Token: <your token>" in your orders; the token is at the top of every turn report. If you did not send this message, someone may be writing in your name: tell the GM.`,
  'refused-orders': (d) => `Your orders for ${d.nation} were not accepted: ${d.detail}.`,
  'no-orders': (d) =>
    `${noOrdersOpening(d)}, so nothing was filed: the orders you sent earlier for this turn, if any, still stand.\n\nWrite one order per line (see the order sheet attached to your turn report), or use a mail command: "resend report", "deadline", "show orders".`,
  invitation: (d) =>
    d.detail.startsWith('an "accept"')
      ? 'Your "accept" did not carry the code of the invitation mailed to this address, so no seat was taken.\n\nAnswer the invitation itself, keeping its text, or write the line "accept <code>" with the code it gives.'
      : `Your "accept" could not take the seat: ${d.detail}. Nothing was changed; the GM can tell you more.`,
  'too-many-orders': (d) =>
    `Your orders were not filed: ${d.detail}. The orders on file stand, as your last receipt gave them. Orders you send once fewer have come within a day are filed as usual; if you need more, write to the GM.`,
  'too-large': (d) => `Your message was not read: it is ${d.detail}. Orders fit in a few kilobytes; please send them as plain text or a small .yaml attachment.`,
};

/** The answer to an inbound message, or undefined when it gets none. */
export function composeAnswer(input: AnswerInput): { message: OutboundMessage; kind: OutKind } | undefined {
  const { decision, inbound, to } = input;
  const base: ComposeBase = input;
  const common = { from: input.settings.from, to: [to], date: input.date, ...threadOf(inbound) };
  switch (decision.kind) {
    case 'file': {
      const receipt = decision.receipt;
      const intro = `Your orders for ${receipt.nationName}, turn ${decision.turn}, are on file${decision.replacesEarlier ? ', replacing the orders you sent earlier' : ''}. Here is how they were read:`;
      return {
        kind: 'receipt',
        message: {
          ...common,
          messageId: messageIdFor(base, 'receipt', decision.nation, decision.turn, input.key),
          subject: replySubject(inbound, `Orders received: ${receipt.nationName}, turn ${decision.turn}`),
          text: `${intro}\n\n${renderReceipt(receipt)}${input.relayed ? `\n${input.relayed}` : ''}${input.deadline ? `\nOrders for turn ${decision.turn} are due ${input.deadline}; until then, orders you send replace these.\n` : ''}${SIGN_OFF(base)}`,
          headers: headers(base, 'receipt', 'auto-replied'),
        },
      };
    }
    case 'hold': {
      const receipt = decision.receipt;
      const intro = [
        `Your orders for ${receipt.nationName}, turn ${decision.turn}, arrived with the right order token, but they are held for the GM and not yet on file: the check of your mail's sender domain (DMARC) failed. That happens when someone writes in your name, and sometimes when mail is forwarded or sent through another service.`,
        'The GM has been told. If you sent them, the GM can accept them, and you will get a receipt then; if you did not, tell the GM. Here is how they were read:',
      ].join('\n\n');
      return {
        kind: 'reply',
        message: {
          ...common,
          messageId: messageIdFor(base, 'held', decision.nation, decision.turn, input.key),
          subject: replySubject(inbound, `Orders held for the GM: ${receipt.nationName}, turn ${decision.turn}`),
          text: `${intro}\n\n${renderReceipt(receipt)}${SIGN_OFF(base)}`,
          headers: headers(base, 'reply', 'auto-replied'),
        },
      };
    }
    case 'refuse': {
      const body = (REFUSALS[decision.reason] ?? ((d) => `Your message was not accepted: ${d.detail}.`))(decision, base, to, input);
      const receipt = decision.receipt && decision.reason !== 'token' ? `\n\n${renderReceipt(decision.receipt)}` : '';
      const problems = decision.problems?.length ? `\n\nWhat could not be read${decision.linesOf ? ` (line numbers count the lines of ${decision.linesOf}, from its first line)` : ''}:\n${decision.problems.map((p) => `  - ${p}`).join('\n')}` : '';
      return {
        kind: 'reply',
        message: {
          ...common,
          messageId: messageIdFor(base, 'refusal', decision.nation ?? 'none', input.key),
          subject: replySubject(inbound, `Not accepted: your message to ${base.campaign.title}`),
          text: `${body}${problems}${receipt}\n${SIGN_OFF(base)}`,
          headers: headers(base, 'reply', 'auto-replied'),
        },
      };
    }
    case 'command': {
      const facts = input.command;
      const parts: string[] = [];
      for (const command of decision.commands) parts.push(commandText(command, facts));
      return {
        kind: 'reply',
        message: {
          ...common,
          messageId: messageIdFor(base, 'command', decision.nation, input.key),
          subject: replySubject(inbound, `${base.campaign.title}: ${decision.commands.join(', ')}`),
          text: `${parts.join('\n\n')}\n${SIGN_OFF(base)}`,
          headers: headers(base, 'reply', 'auto-replied'),
        },
      };
    }
    case 'seat':
      return decision.action === 'volunteer' ? { kind: 'reply', message: composeVolunteerAnswer({ ...base, key: input.key, inbound, to, name: decision.name, added: input.command?.volunteer }) } : undefined;
    default:
      return undefined;
  }
}

function commandText(command: MailCommand, facts: CommandFacts | undefined): string {
  const turn = facts?.pendingTurn ?? 0;
  switch (command) {
    case 'deadline':
      return facts?.deadline ? `Orders for turn ${turn} are due ${facts.deadline}.` : `Orders are being collected for turn ${turn}; the GM has not set a deadline yet.`;
    case 'show':
      return facts?.ordersOnFile ? `Your orders on file for turn ${turn}:\n\n${renderReceipt(facts.ordersOnFile)}` : `You have no orders on file for turn ${turn} yet.`;
    case 'resend':
      return facts?.resentTurn !== undefined ? `Your report of turn ${facts.resentTurn} is on its way again, in a separate message.` : 'There is no turn report to resend yet: no turn has been resolved.';
    case 'absent': {
      const a = facts?.absence;
      if (!a) return 'Your absence could not be read; write for example "absent for 2 turns".';
      const turns = a.fromTurn === a.toTurn ? `turn ${a.fromTurn}` : `turns ${a.fromTurn} to ${a.toTurn}`;
      const how = a.recorded ? 'You will get no reminders, and the turn will not wait for you' : 'The GM has been told';
      return `Noted: you are away for ${turns}. ${how}; without orders your units hold. Orders you send in the meantime still count.`;
    }
    case 'timezone': {
      const t = facts?.timeZone;
      if (!t || t.request.kind === 'unknown') {
        return `${t?.request.kind === 'unknown' && t.request.text ? `"${t.request.text}" is not a time zone` : 'No time zone was given'}; nothing was changed. Write its IANA name, for example "timezone Europe/Berlin" or "timezone America/New_York" ("timezone none" goes back to the campaign's clock alone).`;
      }
      if (!t.recorded) return `Noted: the GM has been told that you would like your deadlines shown ${t.request.kind === 'set' ? `in ${t.request.zone} too` : "in the campaign's time zone alone"}.`;
      const due = facts?.deadline ? ` Orders for turn ${turn} are due ${facts.deadline}.` : '';
      return t.request.kind === 'set'
        ? `Noted: deadlines in your mail and reports are shown in your time zone, ${t.request.zone}, beside the campaign's.${due}`
        : `Noted: deadlines are shown in the campaign's time zone (or the one the GM set for you).${due}`;
    }
    case 'back':
      return backText(facts?.back, turn, facts?.deadline);
    case 'ready':
      return readyText(facts?.ready === true, turn, facts?.deadline);
    case 'wait': {
      const w = facts?.wait;
      if (!w?.recorded) return `Noted: the GM has been told that you ${w?.wait === false ? 'no longer ask' : 'ask'} turn ${turn} to wait for its deadline.`;
      const due = facts?.deadline ? `, ${facts.deadline}` : '';
      return w.wait
        ? `Noted: turn ${turn} waits for its deadline${due}, even if every nation has sent its orders before. You can still replace your orders until then; write "don't wait" to take this back.`
        : `Noted: you no longer ask turn ${turn} to wait; it may resolve as soon as every nation has sent its orders, if the campaign resolves early.`;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Reports, reminders, notices, alerts
// ---------------------------------------------------------------------------------------------------------

export interface ReportFiles {
  txt: string;
  html?: string;
  svg?: string;
  /** The order sheet for the next turn (<nation>-orders.yaml). */
  orders?: string;
  /** The machine-readable report (<nation>.yaml), when the campaign's reports.formats lists yaml. */
  yaml?: string;
}

export interface ReportInput extends ComposeBase {
  nation: string;
  nationName: string;
  turn: number;
  rerun: number;
  to: string[];
  files: ReportFiles;
  token?: string;
  deadline?: string;
  /** Set for a report sent again on request: the inbound message key, so each request gets its own copy. */
  resendKey?: string;
  inbound?: InboundFacts;
}

export function composeReport(input: ReportInput): OutboundMessage {
  const base: ComposeBase = input;
  const next = input.turn + 1;
  const due = input.deadline ? `Orders for turn ${next} are due ${input.deadline}.` : `Orders for turn ${next} are being collected; the GM will announce the deadline.`;
  const tokenLine = input.token ? `Your order token: ${input.token}  (put the line "Token: ${input.token}" in your orders)` : 'Ask the GM for your order token: no token is set for your nation.';
  const preamble = [
    `${input.campaign.title} — turn ${input.turn} report for ${input.nationName}${input.rerun ? ` (corrected, version ${input.rerun + 1})` : ''}`,
    due,
    tokenLine,
    'Answer this mail with your orders, one per line (or fill in and attach the order sheet attached here).',
    '',
    '='.repeat(72),
    '',
  ].join('\n');
  const attachments = reportAttachments(input.nation, input.files, input.token);
  const parts = input.resendKey !== undefined ? ['resend', input.nation, input.turn, input.resendKey] : [input.nation, input.turn, `rerun-${input.rerun}`];
  return {
    messageId: messageIdFor(base, 'report', ...parts),
    date: input.date,
    from: input.settings.from,
    to: input.to,
    subject: `[${input.campaign.title}] Turn ${input.turn} report for ${input.nationName}${input.rerun ? ' (corrected)' : ''}`,
    text: `${preamble}${input.files.txt}`,
    ...(input.files.html !== undefined ? { html: withBanner(input.files.html, [due, tokenLine]) } : {}),
    ...(attachments.length ? { attachments } : {}),
    ...(input.inbound ? threadOf(input.inbound) : {}),
    headers: headers(base, 'report', 'auto-generated'),
  };
}

export function composeGmReport(input: ComposeBase & { turn: number; rerun: number; html?: string; svg?: string; summary: string[] }): OutboundMessage {
  const base: ComposeBase = input;
  return {
    messageId: messageIdFor(base, 'gm-report', input.turn, `rerun-${input.rerun}`),
    date: input.date,
    from: input.settings.from,
    to: [addressOf(input.settings.gm)!],
    subject: `[${input.campaign.title}] GM report, turn ${input.turn}${input.rerun ? ' (rerun)' : ''}`,
    text: [`The GM report of turn ${input.turn} is the HTML part of this message (and turns/${String(input.turn).padStart(4, '0')}/reports/gm.html).`, '', ...input.summary, ''].join('\n'),
    ...(input.html !== undefined ? { html: input.html } : {}),
    ...(input.svg !== undefined ? { attachments: [{ filename: 'gm-map.svg', contentType: 'image/svg+xml', content: input.svg }] } : {}),
    headers: headers(base, 'gm-report', 'auto-generated'),
  };
}

export function composeAlert(base: ComposeBase, note: GmNote): OutboundMessage {
  return {
    messageId: messageIdFor(base, 'alert', note.key),
    date: base.date,
    from: base.settings.from,
    to: [addressOf(base.settings.gm)!],
    subject: `[${base.campaign.title}] GM alert: ${note.subject}`,
    text: `${note.text}\n\n(fatecraft mail status shows the mail ledger, the outgoing queue and bounces.)\n`,
    headers: headers(base, 'alert', 'auto-generated'),
  };
}

export function composeReminder(base: ComposeBase & { key: string; nation: string; nationName: string; to: string[]; turn: number; deadline: string; token?: string }): OutboundMessage {
  return {
    messageId: messageIdFor(base, 'reminder', base.nation, base.turn, base.key),
    date: base.date,
    from: base.settings.from,
    to: base.to,
    subject: `[${base.campaign.title}] Reminder: orders for turn ${base.turn} are due ${base.deadline}`,
    text: `${base.nationName} has no orders on file for turn ${base.turn} of ${base.campaign.title}. They are due ${base.deadline}.\n\nAnswer this mail with your orders, one per line${base.token ? `, with the line "Token: ${base.token}"` : ''}.\n${SIGN_OFF(base)}`,
    headers: headers(base, 'reminder', 'auto-generated'),
  };
}

export function composeNotice(base: ComposeBase & { key: string; to: string[]; subject: string; text: string }): OutboundMessage {
  return {
    messageId: messageIdFor(base, 'notice', base.key),
    date: base.date,
    from: base.settings.from,
    to: base.to,
    subject: `[${base.campaign.title}] ${base.subject}`,
    text: `${base.text}\n${SIGN_OFF(base)}`,
    headers: headers(base, 'notice', 'auto-generated'),
  };
}

/**
 * A report's files as a mail carries them: the order sheet with the token filled in, the map, and (unless
 * `yaml: false`) the machine-readable report.
 */
export function reportAttachments(nation: string, files: Partial<ReportFiles>, token: string | undefined, opts: { yaml?: boolean } = {}): OutboundAttachment[] {
  const attachments: OutboundAttachment[] = [];
  if (files.orders !== undefined) attachments.push({ filename: `${nation}-orders.yaml`, contentType: 'application/yaml', content: withToken(files.orders, token) });
  if (files.svg !== undefined) attachments.push({ filename: `${nation}-map.svg`, contentType: 'image/svg+xml', content: files.svg });
  // Named apart from the order sheet; a reply that carries it back is not read as orders (orders/mail-sheet.ts).
  if (opts.yaml !== false && files.yaml !== undefined) attachments.push({ filename: `${nation}-report.yaml`, contentType: 'application/yaml', content: files.yaml });
  return attachments;
}

/** The order sheet with the nation's token filled in below its `turn:` line. */
export function withToken(sheet: string, token: string | undefined): string {
  if (token === undefined || /^token\s*:/m.test(sheet)) return sheet;
  const line = `token: ${JSON.stringify(token)}`;
  return /^turn\s*:.*$/m.test(sheet) ? sheet.replace(/^(turn\s*:.*)$/m, `$1\n${line}`) : `${line}\n${sheet}`;
}

export function withBanner(html: string, lines: string[]): string {
  const banner = `<div class="deadline" style="margin:0.5rem 0 1rem">${lines.map((l) => `<p style="margin:0.2rem 0">${escapeXml(l)}</p>`).join('')}</div>`;
  const body = /<body[^>]*>/i.exec(html);
  return body ? `${html.slice(0, body.index + body[0].length)}\n${banner}${html.slice(body.index + body[0].length)}` : `${banner}${html}`;
}
