/**
 * The mail of a campaign's start (`fatecraft start`, or the first tick): every nation's welcome with its
 * starting report, order sheet and token, and the GM's report of the starting position; and one player's
 * new token (`fatecraft token --new`). Queued once each under a Message-ID derived from what it is (the
 * outgoing queue of outbox.ts), then sent: a second run queues nothing and sends only what is still pending.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CampaignError } from '../campaign/problems.js';
import { turnDirName } from '../campaign/store.js';
import { sortedKeys } from '../core/ids.js';
import { composeGmReport, messageIdFor } from './compose.js';
import { composeNewToken, composeStart } from './compose-start.js';
import { emptySendSummary, OutboxQueue, type SendSummary } from './outbox.js';
import { readReportFiles, sendNotice, type SendOptions } from './reports.js';
import type { Notice } from '../schedule/runtime.js';
import { Mailroom } from './room.js';
import { queueSeatWelcome } from './seat-mail.js';
import { unwrapFault } from './runtime.js';

export interface StartMailSummary {
  /** Nations whose welcome was queued now (not by an earlier run). */
  queued: string[];
  /** Nations whose welcome an earlier run queued already. */
  alreadyQueued: string[];
  /** Nations with no address in campaign.yaml: nothing was mailed to them. */
  noAddress: string[];
  /** Nations with no token: nothing was mailed to them (the GM must issue one). */
  noToken: string[];
  sent: SendSummary;
}

/** Queues the start's mail (turn 0's reports must be written) and sends the queue. */
export async function sendStartMail(campaignDir: string, input: { deadline: string; deadlineByNation?: Readonly<Record<string, string>> }, opts: SendOptions = {}): Promise<StartMailSummary> {
  try {
    return await Mailroom.run(campaignDir, opts, async (room) => {
      const reportsDir = join(campaignDir, 'turns', turnDirName(0), 'reports');
      if (!existsSync(reportsDir)) throw new CampaignError([{ file: reportsDir, message: `the starting reports are not written; run: fatecraft start ${campaignDir}` }]);
      const summary: StartMailSummary = { queued: [], alreadyQueued: [], noAddress: [], noToken: [], sent: emptySendSummary() };
      const campaign = room.open.file;
      for (const nation of sortedKeys(campaign.nations)) {
        const files = await readReportFiles(campaignDir, 0, nation);
        if (files === undefined) continue;
        const to = room.addressesOf(nation);
        const token = room.secrets.token(nation);
        if (to.length === 0) summary.noAddress.push(nation);
        else if (token === undefined) summary.noToken.push(nation);
        if (to.length === 0 || token === undefined) continue;
        const def = campaign.nations[nation]!;
        const message = composeStart({ ...room.base(), nation, nationName: def.name, leader: def.leader, to, files, token, deadline: input.deadlineByNation?.[nation] ?? input.deadline });
        if (await room.enqueue(message, 'report', `starting report for ${nation}`)) summary.queued.push(nation);
        else summary.alreadyQueued.push(nation);
      }
      const gmHtml = existsSync(join(reportsDir, 'gm.html')) ? await readFile(join(reportsDir, 'gm.html'), 'utf8') : undefined;
      const gmSvg = existsSync(join(reportsDir, 'gm.svg')) ? await readFile(join(reportsDir, 'gm.svg'), 'utf8') : undefined;
      const lines = [
        `The campaign has started. Orders for turn 1 are due ${input.deadline}.`,
        `Starting reports, order sheets and tokens mailed to: ${[...summary.alreadyQueued, ...summary.queued].sort().join(', ') || '(none)'}.`,
        ...(summary.noAddress.length ? [`No address in campaign.yaml (nothing mailed): ${summary.noAddress.join(', ')}.`] : []),
        ...(summary.noToken.length ? [`No order token (nothing mailed; run fatecraft start again to issue one): ${summary.noToken.join(', ')}.`] : []),
      ];
      const gm = composeGmReport({ ...room.base(), turn: 0, rerun: 0, ...(gmHtml !== undefined ? { html: gmHtml } : {}), ...(gmSvg !== undefined ? { svg: gmSvg } : {}), summary: lines });
      await room.enqueue(gm, 'gm-report', 'GM report of the starting position');
      if (!opts.queueOnly) summary.sent = await room.deliver();
      return summary;
    });
  } catch (error) {
    throw unwrapFault(error);
  }
}

/**
 * The mail of a notice the schedule keeps for the players (runtime.yaml `notices`): what the tick's mail hook
 * sends, and what a GM command sends at once. Queued once, whoever sends it: a new token's mail under a
 * Message-ID derived from the token (so the GM's \`token --new\` and a later tick queue it once), any other
 * notice under its id. Returns to whom it went.
 */
export async function sendNoticeMail(campaignDir: string, notice: Pick<Notice, 'id' | 'kind' | 'turn' | 'nations' | 'text'>, input: { deadline: string; deadlineByNation?: Readonly<Record<string, string>> }, opts: SendOptions = {}): Promise<{ mailedTo: string[]; sent: SendSummary }> {
  if (notice.kind === 'token-renewed' && notice.nations.length === 1) {
    const nation = notice.nations[0]!;
    return sendNewToken(campaignDir, { nation, turn: notice.turn, deadline: input.deadlineByNation?.[nation] ?? input.deadline }, opts);
  }
  if (NEW_PLAYER.has(notice.kind) && notice.nations.length === 1) {
    const nation = notice.nations[0]!;
    return sendWelcome(campaignDir, { nation, turn: notice.turn, deadline: input.deadlineByNation?.[nation] ?? input.deadline, intro: notice.text }, opts);
  }
  const subject = `${notice.kind.replace(/-/g, ' ')} (turn ${notice.turn})`;
  const sent = await sendNotice(campaignDir, { key: `tick-notice-${notice.id}`, subject, text: notice.text, nations: notice.nations, withToken: NEW_PLAYER.has(notice.kind) && notice.nations.length > 0 }, opts);
  return { mailedTo: [], sent };
}

/**
 * The welcome of a nation's new player (`nation add`, `nation split`, `nation reassign`): the nation's latest
 * report with its order sheet (token filled in) and map, and its earlier reports as an archive, like a seat
 * taken by mail (seat-mail.ts). Queued once: its Message-ID comes from the nation, turn and token.
 */
async function sendWelcome(campaignDir: string, input: { nation: string; turn: number; deadline: string; intro: string }, opts: SendOptions): Promise<{ mailedTo: string[]; sent: SendSummary }> {
  try {
    return await Mailroom.run(campaignDir, opts, async (room) => {
      const to = room.addressesOf(input.nation);
      const token = room.secrets.token(input.nation);
      if (to.length === 0 || token === undefined) return { mailedTo: [], sent: emptySendSummary() };
      await queueSeatWelcome(room, { nation: input.nation, to, token, turn: input.turn, deadline: input.deadline, intro: input.intro });
      return { mailedTo: to, sent: opts.queueOnly ? emptySendSummary() : await room.deliver() };
    });
  } catch (error) {
    throw unwrapFault(error);
  }
}

/** Notices that start a player's game: they carry the nation's order token. */
const NEW_PLAYER: ReadonlySet<string> = new Set(['nation-added', 'nation-reassigned']);

/** Mails one nation its new token (to its own addresses only) and sends the queue; mailedTo is [] when it has no address. */
export async function sendNewToken(campaignDir: string, input: { nation: string; turn: number; deadline: string }, opts: SendOptions = {}): Promise<{ mailedTo: string[]; sent: SendSummary }> {
  try {
    return await Mailroom.run(campaignDir, opts, async (room) => {
      const to = room.addressesOf(input.nation);
      const token = room.secrets.token(input.nation);
      if (to.length === 0 || token === undefined) return { mailedTo: [], sent: emptySendSummary() };
      const def = room.open.file.nations[input.nation]!;
      await room.enqueue(composeNewToken({ ...room.base(), nation: input.nation, nationName: def.name, to, token, turn: input.turn, deadline: input.deadline }), 'notice', `new order token for ${input.nation}`);
      return { mailedTo: to, sent: opts.queueOnly ? emptySendSummary() : await room.deliver() };
    });
  } catch (error) {
    throw unwrapFault(error);
  }
}

/**
 * The latest mail that brought a nation a new order token (`fatecraft token --new`), as the player finds it
 * in their inbox: its subject and when it was sent (queued, if not yet); undefined when none was mailed.
 */
export async function newTokenMail(room: Pick<Mailroom, 'mailDir' | 'base'>, nation: string): Promise<{ subject: string; at: Date } | undefined> {
  const prefix = messageIdFor(room.base(), 'token', nation, 'x').replace(/x\.[0-9a-f]+@.*$/, '');
  const latest = (await new OutboxQueue(room.mailDir).withPrefix(prefix)).at(-1);
  return latest ? { subject: latest.message.subject, at: new Date(latest.sentAt ?? latest.message.date) } : undefined;
}
