/**
 * Press relayed at once (rules.press.relay: atOnce, docs/rules.md P2): when the mail room files orders, each
 * letter in them is mailed to its recipients through the outgoing queue, as Diplomacy judges relay press.
 *
 * A letter is relayed once: the sender's letters relayed this season are recorded (relay-limit.ts, which also
 * holds them to rules.press.perTurn whatever later orders say), and orders sent again with one of them do not
 * mail it again. Each message's Message-ID is derived from the turn, the recipient and the letter's text,
 * keyed by the sender's order token (an HMAC): a run killed half-way queues the rest and nothing twice, and
 * the Message-ID says nothing of the sender: without the token, no one can tell which nation's key made it. The mail itself
 * comes from the campaign's address, threads to nothing and has no Reply-To: an unsigned letter names its
 * sender nowhere.
 */
import { createHmac } from 'node:crypto';
import type { Campaign } from '../core/campaign.js';
import { playedNations } from '../core/campaign.js';
import type { NationId } from '../core/ids.js';
import type { OutboundMessage } from '../mail/types.js';
import type { ReceiptOrder } from '../orders/receipt.js';
import { headerText, plainText } from '../text/escape.js';
import { headers, messageIdFor, type ComposeBase } from './compose.js';
import { addressOf } from './config.js';
import { letterDigest, recordRelayed } from './relay-limit.js';
import type { Mailroom } from './room.js';
import type { GameState } from '../core/state.js';

/** What the sender's receipt says of one letter. */
export interface RelayNote {
  /** "Gondarahl", "every nation". */
  to: string;
  excerpt: string;
  unsigned: boolean;
  /** Recipients mailed now. */
  relayed: string[];
  /** Recipients mailed this same letter before this season: not mailed again. */
  already: string[];
  /** Recipients with no address on file: the letter reaches them with the report only. */
  noAddress: string[];
}

export interface RelayInput {
  base: ComposeBase;
  campaign: Campaign;
  /** Whether a nation is still in play (the latest state's `alive`). */
  alive: (nation: NationId) => boolean;
  addresses: Record<string, string[]>;
  sender: NationId;
  /** The sender's order token: the key of the letters' Message-IDs. */
  token: string;
  turn: number;
  season: string;
  accepted: readonly ReceiptOrder[];
  /** Digests of the sender's letters relayed before this season (relay-limit.ts): not mailed again. */
  before?: ReadonlySet<string>;
  /** Queues a message once; true when queued now. */
  enqueue: (message: OutboundMessage, about: string) => Promise<boolean>;
}

/** Relays every letter of the accepted orders; what the receipt should say, one note a letter. */
export async function relayPress(input: RelayInput): Promise<{ notes: RelayNote[]; messageIds: string[] }> {
  const notes: RelayNote[] = [];
  const messageIds: string[] = [];
  const names = (id: NationId) => input.campaign.nations[id]?.name ?? id;
  for (const order of input.accepted) {
    const letter = order.letter;
    if (letter === undefined) continue;
    const recipients = letter.to === 'all' ? playedNations(input.campaign).filter((n) => n !== input.sender && input.alive(n)) : letter.to;
    const note: RelayNote = {
      to: letter.to === 'all' ? 'every nation' : letter.to.map(names).join(', '),
      excerpt: letter.text.length > 50 ? `${letter.text.slice(0, 49)}…` : letter.text,
      unsigned: letter.anonymous === true,
      relayed: [],
      already: [],
      noAddress: [],
    };
    const relayedBefore = input.before?.has(letterDigest(letter)) === true;
    for (const nation of recipients) {
      const to = input.addresses[nation] ?? [];
      if (to.length === 0) {
        note.noAddress.push(names(nation));
        continue;
      }
      if (relayedBefore) {
        note.already.push(names(nation));
        continue;
      }
      const key = createHmac('sha256', input.token).update([input.base.campaign.name, input.turn, nation, letter.text].join('\u0000')).digest('hex');
      const message = composeLetter(input, { nation, to, text: letter.text, unsigned: letter.anonymous === true, key, toText: note.to });
      const queued = await input.enqueue(message, `letter of turn ${input.turn} from ${input.sender} to ${nation}${note.unsigned ? ' (unsigned)' : ''}`);
      (queued ? note.relayed : note.already).push(names(nation));
      messageIds.push(message.messageId);
    }
    notes.push(note);
  }
  return { notes, messageIds };
}

function composeLetter(input: RelayInput, l: { nation: NationId; to: string[]; text: string; unsigned: boolean; key: string; toText: string }): OutboundMessage {
  const { base } = input;
  const title = base.campaign.title;
  const from = l.unsigned ? undefined : (input.campaign.nations[input.sender]?.name ?? input.sender);
  const what = from === undefined ? 'An unsigned letter' : `A letter from ${from}`;
  const body = l.text
    .split(/\r?\n/)
    .map((line) => `| ${plainText(line.trimEnd())}`.trimEnd())
    .join('\n');
  const text = [
    `${what} to ${l.toText}, turn ${input.turn} (${input.season}) of ${title}:`,
    '',
    body,
    '',
    from === undefined
      ? 'Its sender chose not to sign it: the turn processor does not say who wrote it.'
      : `Letters are written by the players, not the GM. To answer ${from}, send a "press" order with your orders.`,
    'It came at once by mail; your next turn report lists the season\'s letters.',
    '',
    '-- ',
    `${title} — the turn processor (${addressOf(base.settings.from)}). This is an automatic message: a reply to it reaches no nation.`,
    '',
  ].join('\n');
  return {
    messageId: messageIdFor(base, 'press', input.turn, l.nation, l.key),
    date: base.date,
    from: base.settings.from,
    to: l.to,
    subject: headerText(`[${title}] ${what} (turn ${input.turn})`),
    text,
    headers: headers(base, 'press', 'auto-generated'),
  };
}

/** The receipt's paragraph on the letters relayed; empty when there were none. */
export function relayText(notes: readonly RelayNote[]): string {
  if (notes.length === 0) return '';
  const lines = ['Letters relayed at once by mail:'];
  for (const n of notes) {
    const parts: string[] = [];
    if (n.relayed.length) parts.push(`mailed now to ${n.relayed.join(', ')}`);
    if (n.already.length) parts.push(`already mailed to ${n.already.join(', ')} this season, not again`);
    if (n.noAddress.length) parts.push(`${n.noAddress.join(', ')} ${n.noAddress.length === 1 ? 'has' : 'have'} no mail address: only in the report`);
    lines.push(`  - ${n.unsigned ? 'unsigned, ' : ''}to ${n.to}: “${plainText(n.excerpt)}” — ${parts.join('; ') || 'no one to mail'}`);
  }
  lines.push('A relayed letter cannot be taken back: orders you send later this season do not unsend it, it counts against your letters for the season, and the same letter is never mailed twice to the same nation. The next reports show the letters of the orders on file at the deadline.');
  return `${lines.join('\n')}\n`;
}

/**
 * Relays the letters of orders just filed, when the campaign says so: `letters` are the accepted orders the
 * limit lets go (relay-limit.ts planRelay): those relayed before are not mailed again, the others are queued
 * and then recorded against the sender. The receipt's
 * paragraph, or undefined. `queue` records each letter's Message-ID with the inbound message's ledger entry.
 */
export async function relayFiled(
  room: Pick<Mailroom, 'open' | 'secrets' | 'base' | 'addressBook' | 'enqueue' | 'mailDir'>,
  state: () => Promise<GameState>,
  filing: { nation: NationId; turn: number; season: string; letters: readonly ReceiptOrder[]; before: readonly string[]; digests: readonly string[] },
  queue: (messageId: string) => void,
): Promise<string | undefined> {
  const campaign = room.open.campaign;
  if (campaign.rules.press.relay !== 'atOnce' || filing.letters.length === 0) return undefined;
  const token = room.secrets.token(filing.nation);
  if (token === undefined) return 'Your letters were not relayed by mail (no order token is set for your nation now); they reach their readers with the next reports.\n';
  const nations = (await state()).nations;
  const { notes, messageIds } = await relayPress({
    base: room.base(),
    campaign,
    alive: (n) => nations[n]?.alive ?? true,
    addresses: room.addressBook(),
    sender: filing.nation,
    token,
    turn: filing.turn,
    season: filing.season,
    accepted: filing.letters,
    before: new Set(filing.before),
    enqueue: (message, about) => room.enqueue(message, 'press', about),
  });
  for (const id of messageIds) queue(id);
  // Recorded once queued: a run killed in between queues the same letters again (once each, by Message-ID).
  await recordRelayed(room.mailDir, filing.turn, filing.nation, filing.digests);
  return relayText(notes);
}
