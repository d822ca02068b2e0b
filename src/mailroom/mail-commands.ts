import type { Campaign } from '../core/campaign.js';
import type { NationId } from '../core/ids.js';
import { clip, findNation } from '../orders/names.js';
import { canonicalTimeZone } from '../campaign/time-zone.js';

/**
 * Reading a player's mail for what it asks beside orders: the subject's hints ("Orders argenta turn 5"),
 * the commands written in the subject or the first short lines (resend, deadline, show, absent, timezone,
 * wait, back, ready) and their arguments, and where the new text ends (a quoted original, a signature).
 * Pure text: no I/O, no campaign state beyond its nations' names.
 */

export type MailCommand = 'resend' | 'deadline' | 'show' | 'absent' | 'timezone' | 'wait' | 'back' | 'ready';

/** "timezone Europe/Berlin": the zone, "timezone none": back to the GM's setting, or a name that is no zone. */
export type TimeZoneRequest = { kind: 'set'; zone: string } | { kind: 'clear' } | { kind: 'unknown'; text: string };

/** Turns a player says they will be away for ("absent for 2 turns", "away until turn 7"). */
export interface AbsenceRequest {
  fromTurn: number;
  toTurn: number;
}

/** The subject (unless it is a reply's) and the first short lines of the new text: where commands are written. */
export function firstLines(subject: string, text: string): string[] {
  const lines = REPLY_PREFIX.test(subject) ? [] : [subject.trim()];
  let body = 0;
  for (const raw of cutQuotedTail(text).split('\n')) {
    const line = raw.trim();
    if (line.startsWith('>') || END_OF_NEW_TEXT.test(line)) break;
    if (line === '' || /^(?:token|nation|turn)\s*:/i.test(line)) continue;
    lines.push(line.replace(/^(?:hi|hello|hey|dear)\b[^,.!]*[,.!]\s*/i, ''));
    if (++body >= 6) break;
  }
  return lines.filter((l) => l !== '' && l.split(/\s+/).length <= 10);
}

const REPLY_PREFIX = /^(?:\s*(?:re|fwd?|aw|sv|tr|antw|wg)\s*(?:\[\d+\])?\s*:\s*)+/i;

/**
 * "Orders argenta turn 5" (any case, any order after "Orders"): optional hints, never required. The turn of
 * a reply's subject ("Re: Orders argenta turn 5") is not taken: it was written for an earlier turn.
 */
export function subjectHints(subject: string, campaign: Campaign): { nation?: NationId; turn?: number } {
  const s = subject.replace(REPLY_PREFIX, '').trim();
  if (!/^orders?\b/i.test(s)) return {};
  const rest = s.replace(/^orders?\b\s*(?:for\b)?/i, '');
  const turn = REPLY_PREFIX.test(subject) ? undefined : /\bturn\s*#?\s*(\d{1,6})\b/i.exec(rest.slice(0, 200))?.[1];
  let nation: NationId | undefined;
  // Only the first words count: a nation's name is a few words, and a long subject must not cost much.
  const words = rest.slice(0, 200).replace(/\bturn\s*#?\s*\d+\b/gi, ' ').split(/[\s,:;()]+/).filter(Boolean).slice(0, 12);
  for (let n = words.length; n >= 1 && nation === undefined; n--) {
    for (let i = 0; i + n <= words.length && nation === undefined; i++) nation = findNation(campaign, words.slice(i, i + n).join(' '));
  }
  return { ...(nation !== undefined ? { nation } : {}), ...(turn !== undefined ? { turn: Number(turn) } : {}) };
}

const ABSENT = /^(?:i(?:'m|\s+am|\s+will\s+be)\s+)?(?:absent|away|on\s+holiday)\b/i;
const COUNT_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };

/**
 * The turns an "absent" line asks for: the pending turn, or "for N turns" from it, or "until turn N"; at
 * most six turns at a time (a longer break is a talk with the GM).
 */
export function absenceOf(subject: string, text: string, pendingTurn: number): AbsenceRequest {
  const line = [subject, ...cutQuotedTail(text).split('\n')].map((l) => l.trim()).find((l) => ABSENT.test(l)) ?? '';
  const until = /\buntil\s+turn\s+(\d{1,4})\b/i.exec(line);
  const count = /\bfor\s+(\d{1,2}|one|two|three|four|five|six)\s+turns?\b/i.exec(line);
  const turns = until ? Number(until[1]) - pendingTurn + 1 : count ? (COUNT_WORDS[count[1]!.toLowerCase()] ?? Number(count[1])) : 1;
  return { fromTurn: pendingTurn, toTurn: pendingTurn + Math.min(6, Math.max(1, turns)) - 1 };
}

const TIME_ZONE = /^(?:my\s+)?time\s*-?\s*zone\b\s*(?:is\b|:|=)?\s*(\S*)/i;
const WAIT = /^(?:please\s+)?(?:(?:do\s*n[o'’]?t|do\s+not|no)\s+)?wait(?:\s+for\s+the\s+deadline)?(?:,?\s+please)?[.!]*$|^(?:please\s+)?resolve\s+early(?:,?\s+please)?[.!]*$/i;

/** The zone a "timezone" line names ("timezone Europe/Berlin", "my time zone is europe/berlin", "timezone none"). */
export function timeZoneOf(subject: string, text: string): TimeZoneRequest {
  const line = commandLine(subject, text, TIME_ZONE);
  const word = (TIME_ZONE.exec(line)?.[1] ?? '').replace(/[.,;!]+$/, '');
  if (/^(?:none|off|reset|default|clear)$/i.test(word)) return { kind: 'clear' };
  const zone = canonicalTimeZone(word);
  return zone !== undefined ? { kind: 'set', zone } : { kind: 'unknown', text: clip(word, 60) };
}

/** "wait" (for the deadline): true; "don't wait" or "resolve early": false. */
export function waitOf(subject: string, text: string): boolean {
  return !/^(?:please\s+)?(?:do\s*n[o']?t|do\s+not|no|resolve)\b/i.test(commandLine(subject, text, WAIT));
}

function commandLine(subject: string, text: string, pattern: RegExp): string {
  return [subject, ...cutQuotedTail(text).split('\n')].map((l) => l.trim()).find((l) => pattern.test(l)) ?? '';
}

const COMMANDS: [MailCommand, RegExp][] = [
  ['resend', /^(?:please\s+)?(?:re-?send|send(?:\s+me)?|mail(?:\s+me)?)\b.*\breport\b|^(?:my\s+|the\s+)?(?:last\s+)?report(?:\s+again)?(?:\s+please)?[.!?]*$/i],
  ['deadline', /\bdeadline\b|^when\b.*\b(?:due|turn)\b/i],
  ['show', /^(?:please\s+)?(?:show|list|send|what\s+are)\b.*\borders\b|^(?:my\s+)?(?:current\s+)?orders(?:\s+on\s+file)?\s*\?+$|^(?:my|current)\s+orders[.!?]*$/i],
  ['absent', ABSENT],
  ['timezone', TIME_ZONE],
  ['wait', WAIT],
  // Seats: the player takes the nation back from its caretaker; a player confirms before turn 1 (roll-call).
  ['back', /^(?:i(?:'m|\s+am)\s+)?back\b(?:\s+(?:again|in\s+the\s+game|to\s+play))?[.!]*$/i],
  ['ready', /^(?:i(?:'m|\s+am)\s+)?ready\b(?:\s+(?:to\s+play|for\s+turn\s+1))?[.!]*$/i],
];

/**
 * Commands written in the subject (unless it is a reply's, which only echoes ours) or in the first lines of
 * the body, short lines only, up to the first quote, signature or forwarded part.
 */
export function findCommands(subject: string, text: string): MailCommand[] {
  const found: MailCommand[] = [];
  for (const line of firstLines(subject, text)) {
    // "wait for the deadline" is a wait, not a question about the deadline.
    const commands = WAIT.test(line) ? COMMANDS.filter(([c]) => c === 'wait') : COMMANDS;
    for (const [command, pattern] of commands) if (pattern.test(line) && !found.includes(command)) found.push(command);
  }
  return found;
}

/** Where the new text of a mail ends: a signature, a forwarded or quoted original, "Sent from my …". */
const END_OF_NEW_TEXT = /^(?:--\s*|-{3,}\s*(?:original|forwarded) message\s*-{3,}|_{10,}|sent from my .*|begin forwarded message:?|on\b.*\bwrote:)$/i;

/**
 * Blanks an Outlook-style quoted original ("From: … / Sent: … / To: … / Subject: …" after the new text), which
 * carries no ">" marks and so escapes the order reader's quote stripping. Line numbers are kept.
 */
export function cutQuotedTail(text: string): string {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*\*?(?:from|von|de|van)\s*:\*?\s+\S/i.test(lines[i]!)) continue;
    const next = lines.slice(i + 1, i + 5).map((l) => l.trim());
    if (next.some((l) => /^\*?(?:sent|date|gesendet|envoy[ée]|datum|verzonden)\s*:\*?\s+\S/i.test(l))) {
      return [...lines.slice(0, i), ...lines.slice(i).map(() => '')].join('\n');
    }
  }
  return text;
}
