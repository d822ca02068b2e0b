/**
 * The first mail of a campaign (`fatecraft start`): a nation's welcome, its starting report (turn 0) and its
 * order sheet for turn 1 with the token filled in, in one message; and the mail that gives one player a new
 * token (`fatecraft token --new`). Pure, like compose.ts: the Message-ID is derived from what the mail is, so
 * queueing it again queues nothing.
 */
import type { OutboundMessage } from '../mail/types.js';
import { tokenDigest } from '../campaign/secrets.js';
import { addressOf } from './config.js';
import { headers, messageIdFor, reportAttachments, withBanner, type ComposeBase, type ReportFiles } from './compose.js';

export interface StartInput extends ComposeBase {
  nation: string;
  nationName: string;
  leader: string;
  to: string[];
  /** The starting report (turn 0) and the order sheet for turn 1. */
  files: ReportFiles;
  token: string;
  /** Turn 1's deadline as players read it. */
  deadline: string;
}

/** How a player sends orders, for the welcome and the token mail. */
export function howToSend(input: ComposeBase & { nation: string; token: string; to: string[] }): string[] {
  return [
    `How to send orders: write to ${addressOf(input.settings.from)} (answering this mail is simplest) from ${input.to.join(' or ')}, either`,
    `  - with your orders in the body, one per line, and the line "Token: ${input.token}"; or`,
    `  - with the order sheet ${input.nation}-orders.yaml filled in and attached (your token is already in it).`,
    'Every mail with orders gets a receipt saying what was understood and what was refused. A later mail with',
    "orders replaces the earlier ones for the turn whole, until the deadline.",
    'Mail commands, as the subject or the first line of a mail: "deadline", "resend report", "show orders",',
    '"absent for 2 turns", "timezone Europe/Berlin" (deadlines shown on your clock too), "wait" (the turn waits',
    'for its deadline even if everyone has sent orders).',
  ];
}

/** The welcome's end: when orders are due, the token, how to send them, and the rule above the report. */
export function dueAndHow(base: ComposeBase, o: { nation: string; token: string; to: string[] }, due: string, tokenLine: string): string[] {
  return [due, tokenLine, '', ...howToSend({ ...base, ...o }), '', '='.repeat(72), ''];
}

export function composeStart(input: StartInput): OutboundMessage {
  const base: ComposeBase = input;
  const due = `Orders for turn 1 are due ${input.deadline}.`;
  const tokenLine = `Your order token: ${input.token}  (keep it to yourself: whoever has it can give your nation orders)`;
  const welcome = [
    `Welcome to ${input.campaign.title}, ${input.leader} of ${input.nationName}!`,
    '',
    'Below is your starting report: your nation, units and settlements before turn 1, and the map as you see it.',
    '',
    ...dueAndHow(base, { nation: input.nation, token: input.token, to: input.to }, due, tokenLine),
  ].join('\n');
  const attachments = reportAttachments(input.nation, input.files, input.token, { yaml: false });
  return {
    // A new token (start --new-tokens) is a new welcome; the digest says which token, never the token itself.
    messageId: messageIdFor(base, 'start', input.nation, tokenDigest(input.token).slice(0, 16)),
    date: input.date,
    from: input.settings.from,
    to: input.to,
    subject: `[${input.campaign.title}] Welcome, ${input.nationName}: your starting report; orders for turn 1 are due ${input.deadline}`,
    text: `${welcome}${input.files.txt}`,
    ...(input.files.html !== undefined ? { html: withBanner(input.files.html, [`Welcome to ${input.campaign.title}, ${input.leader} of ${input.nationName}!`, due, tokenLine, `To send orders, answer this mail with your orders and the line "Token: ${input.token}", or attach the order sheet filled in.`]) } : {}),
    ...(attachments.length ? { attachments } : {}),
    headers: headers(base, 'report', 'auto-generated'),
  };
}

export interface NewTokenInput extends ComposeBase {
  nation: string;
  nationName: string;
  to: string[];
  token: string;
  /** The pending turn and its deadline as players read it. */
  turn: number;
  deadline: string;
}

export function composeNewToken(input: NewTokenInput): OutboundMessage {
  const base: ComposeBase = input;
  const text = [
    `The GM has given ${input.nationName} a new order token in ${input.campaign.title}.`,
    '',
    `Your order token: ${input.token}`,
    'The old token is refused from now on. Keep this one to yourself: whoever has it can give your nation orders.',
    `Orders for turn ${input.turn} are due ${input.deadline}.`,
    '',
    ...howToSend({ ...base, nation: input.nation, token: input.token, to: input.to }),
    '',
  ].join('\n');
  return {
    messageId: messageIdFor(base, 'token', input.nation, tokenDigest(input.token).slice(0, 16)),
    date: input.date,
    from: input.settings.from,
    to: input.to,
    subject: `[${input.campaign.title}] A new order token for ${input.nationName}`,
    text,
    headers: headers(base, 'notice', 'auto-generated'),
  };
}
