/**
 * The mail of seats (docs/mail.md, "Seats"): the answer to a volunteer, the one-time invitation to take a
 * seat, the welcome of the player who takes it (the nation's current report, order sheet with the new
 * token, map, and its last reports as an archive), and the answers to "back" and "ready". Pure, like
 * compose.ts: the Message-ID is derived from what the mail is, so queueing it again queues nothing.
 */
import type { OutboundAttachment, OutboundMessage } from '../mail/types.js';
import { tokenDigest } from '../campaign/secrets.js';
import type { BackResult } from '../schedule/seats/desk.js';
import { headers, messageIdFor, replySubject, reportAttachments, SIGN_OFF, threadOf, withBanner, type ComposeBase, type ReportFiles } from './compose.js';
import { dueAndHow } from './compose-start.js';
import type { InboundFacts } from './ledger.js';

export function composeVolunteerAnswer(base: ComposeBase & { key: string; inbound: InboundFacts; to: string; name: string; added: boolean | undefined }): OutboundMessage {
  const text =
    base.added === undefined
      ? `Thank you, ${base.name}: your offer to play in ${base.campaign.title} has been passed to the GM, who keeps the list of players ready to take over a nation.`
      : `Thank you, ${base.name}: you are ${base.added ? 'now' : 'already'} on the standby list of ${base.campaign.title}. If a nation's seat comes free, the GM may offer it to you by mail; an invitation holds a code, and answering it with "accept" takes the seat.`;
  return {
    messageId: messageIdFor(base, 'volunteer', base.key),
    date: base.date,
    from: base.settings.from,
    to: [base.to],
    subject: replySubject(base.inbound, `${base.campaign.title}: on the standby list`),
    text: `${text}\n${SIGN_OFF(base)}`,
    ...threadOf(base.inbound),
    headers: headers(base, 'reply', 'auto-replied'),
  };
}

export interface InvitationInput extends ComposeBase {
  offer: number;
  to: string;
  name?: string;
  nationName: string;
  leader: string;
  code: string;
  /** The pending turn and its deadline as players read it. */
  turn: number;
  deadline: string;
  /** The nation's latest report, for the invited player to judge the seat by (text only: no token in it). */
  report?: string;
}

export function composeInvitation(input: InvitationInput): OutboundMessage {
  const base: ComposeBase = input;
  const text = [
    `${input.name ? `${input.name}, you` : 'You'} are invited to take over ${input.nationName} (${input.leader}) in ${input.campaign.title}.`,
    '',
    `To take the seat, answer this mail with the word "accept" (keep this text in your answer, or copy the line below):`,
    '',
    `  accept ${input.code}`,
    '',
    `The first answer takes the seat: you then get the nation's order token, its latest report, order sheet and map, and its last reports. Orders for turn ${input.turn} are due ${input.deadline}.`,
    'If you do not want it, do nothing: the invitation lapses when another player takes the seat.',
    ...(input.report ? ['', `The nation as its latest report shows it:`, '', '='.repeat(72), '', input.report] : []),
  ].join('\n');
  return {
    messageId: messageIdFor(base, 'invitation', input.offer, tokenDigest(input.code).slice(0, 16)),
    date: input.date,
    from: input.settings.from,
    to: [input.to],
    subject: `[${input.campaign.title}] Invitation: take over ${input.nationName}`,
    text: `${text}\n${SIGN_OFF(base)}`,
    headers: headers(base, 'notice', 'auto-generated'),
  };
}

export interface SeatWelcomeInput extends ComposeBase {
  nation: string;
  nationName: string;
  leader: string;
  to: string[];
  token: string;
  /** The pending turn and its deadline as this player reads it. */
  turn: number;
  deadline: string;
  /** The nation's latest report (and order sheet, map); undefined before turn 0's reports exist. */
  files?: ReportFiles;
  /** The turn of that report. */
  reportTurn?: number;
  /** The nation's earlier reports as one .tar.gz, and which turns it holds. */
  archive?: { bytes: Buffer; turns: number[] };
  inbound?: InboundFacts;
  /** What the GM's operation tells the new player (a split's or an addition's notice), below the greeting. */
  intro?: string;
}

/** The welcome of a player who took a seat mid-campaign: everything needed to give orders this turn. */
export function composeSeatWelcome(input: SeatWelcomeInput): OutboundMessage {
  const base: ComposeBase = input;
  const due = `Orders for turn ${input.turn} are due ${input.deadline}.`;
  const tokenLine = `Your order token: ${input.token}  (keep it to yourself: whoever has it can give your nation orders)`;
  const archive = input.archive && input.archive.turns.length ? `Attached too: ${input.nation}-reports.tar.gz, the nation's reports of turn${input.archive.turns.length === 1 ? '' : 's'} ${input.archive.turns.join(', ')}.` : undefined;
  const welcome = [
    `Welcome to ${input.campaign.title}: from turn ${input.turn} on you lead ${input.nationName} (${input.leader}).`,
    ...(input.intro ? ['', input.intro] : []),
    '',
    input.files ? `Below is the nation's latest report${input.reportTurn !== undefined ? ` (turn ${input.reportTurn})` : ''}: its units, settlements and the map as it sees them.` : 'No report has been written for the nation yet.',
    ...(archive ? [archive] : []),
    '',
    ...dueAndHow(base, { nation: input.nation, token: input.token, to: input.to }, due, tokenLine),
  ].join('\n');
  const attachments: OutboundAttachment[] = reportAttachments(input.nation, input.files ?? {}, input.token);
  if (input.archive && input.archive.turns.length) attachments.push({ filename: `${input.nation}-reports.tar.gz`, contentType: 'application/gzip', content: input.archive.bytes });
  return {
    messageId: messageIdFor(base, 'seat-welcome', input.nation, input.turn, tokenDigest(input.token).slice(0, 16)),
    date: input.date,
    from: input.settings.from,
    to: input.to,
    subject: `[${input.campaign.title}] Welcome, ${input.nationName}: ${due}`,
    text: `${welcome}${input.files?.txt ?? ''}`,
    ...(input.files?.html !== undefined ? { html: withBanner(input.files.html, [`Welcome to ${input.campaign.title}: you now lead ${input.nationName}.`, due, tokenLine]) } : {}),
    ...(attachments.length ? { attachments } : {}),
    ...(input.inbound ? threadOf(input.inbound) : {}),
    headers: headers(base, 'report', 'auto-replied'),
  };
}

/** The answer to "back": the nation is the player's again, and what its policy did in its name. */
export function backText(back: BackResult | undefined, turn: number, deadline: string | undefined): string {
  if (!back) return 'Welcome back! The GM has been told that you are back (the schedule is not running here, so nothing was filed).';
  const due = deadline ? ` Orders for turn ${back.turn} are due ${deadline}.` : '';
  const lines = [
    back.filed
      ? `Welcome back! Your nation is yours again: for turn ${back.turn} your forces hold where they stand unless you send orders, which replace this.${due}`
      : `Welcome back! Your orders on file for turn ${back.turn} stand, and the nation is yours again.${due}`,
  ];
  if (back.given.length) {
    lines.push('', 'What was done in your name while you were away:');
    for (const g of back.given) {
      lines.push(`  Turn ${g.turn} (${g.policy === 'disorder' ? 'civil disorder' : 'the caretaker'}):${g.orders.length ? '' : ' nothing; the forces held'}`);
      for (const o of g.orders) lines.push(`    - ${o}`);
    }
    lines.push('', 'Each of those turns\' reports has the rest ("resend report" sends the latest again).');
  } else if (turn > 0) lines.push('', 'Nothing was done in your name: no caretaker gave your nation orders.');
  return lines.join('\n');
}

export function readyText(recorded: boolean, turn: number, deadline: string | undefined): string {
  if (!recorded) return 'Noted: the GM has been told that you are ready (the schedule is not running here, so it was not kept).';
  return `Noted: you are ready to play. Orders for turn ${turn} are due ${deadline ?? 'when the GM announces the deadline'}.`;
}

/** An alert for the GM when a seat is taken. */
export function seatTakenNote(o: { nation: string; nationName: string; address: string; name?: string; turn: number; offer: number }) {
  return { key: `seat-taken:${o.offer}`, subject: `${o.nationName} has a new player`, text: `${o.name ? `${o.name} <${o.address}>` : o.address} accepted invitation ${o.offer} and took the seat of ${o.nation} from turn ${o.turn}: campaign.yaml has the new address, the secrets file the new token (the old one is refused as replaced), and the player got the nation's report, order sheet, map and last reports.` };
}

