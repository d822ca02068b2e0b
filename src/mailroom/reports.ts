/**
 * Outbound mail the tick (or the GM) asks for: each nation's report after a turn, the GM's report, reminders,
 * notices and alerts. Each is queued once under a Message-ID derived from what it is, then the queue is sent;
 * calling again after a crash or a failed server queues nothing new and sends only what is still pending.
 */
import { existsSync } from 'node:fs';
import { playedNations } from '../core/campaign.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CampaignError } from '../campaign/problems.js';
import { listTurns, turnDirName } from '../campaign/store.js';
import { isPacked, readPackedReports } from '../campaign/packed-reports.js';
import { asNationId } from '../core/ids.js';
import { composeGmReport, composeNotice, composeReminder, composeReport, type ReportFiles } from './compose.js';
import type { GmNote } from './decide.js';
import { emptySendSummary, type SendSummary } from './outbox.js';
import { Mailroom, type MailroomOptions } from './room.js';
import { passFault, unwrapFault } from './runtime.js';

export interface SendOptions extends MailroomOptions {
  /** Queue only; send later (default false: send at once). */
  queueOnly?: boolean;
}

export interface ReportsSummary {
  turn: number;
  /** Nations whose report was queued now (not already queued by an earlier call). */
  queued: string[];
  /** Nations with no address in campaign.yaml: their report stays on disk only. */
  noAddress: string[];
  sent: SendSummary;
}

/** A nation's report files of a resolved turn; undefined when the turn has no report for it. */
export async function readReportFiles(campaignDir: string, turn: number, nation: string, packed?: ReadonlyMap<string, Buffer>): Promise<ReportFiles | undefined> {
  const dir = join(campaignDir, 'turns', turnDirName(turn), 'reports');
  // An old turn's reports may be packed (campaign/packed-reports.ts): then read from the archive, read once by the caller.
  const read = async (name: string) => (packed ? packed.get(name)?.toString('utf8') : existsSync(join(dir, name)) ? readFile(join(dir, name), 'utf8') : undefined);
  const txt = await read(`${nation}.txt`);
  if (txt === undefined) return undefined;
  const [html, svg, orders, yaml] = await Promise.all([read(`${nation}.html`), read(`${nation}.svg`), read(`${nation}-orders.yaml`), read(`${nation}.yaml`)]);
  return { txt, ...(html !== undefined ? { html } : {}), ...(svg !== undefined ? { svg } : {}), ...(orders !== undefined ? { orders } : {}), ...(yaml !== undefined ? { yaml } : {}) };
}

/**
 * Queues every nation's report of `turn` (multipart/alternative: the text report, and the HTML report with its
 * map; the order sheet for the next turn attached with the nation's token filled in) to all of the nation's
 * addresses, and the GM report to the GM; then sends the queue.
 */
export async function sendReports(campaignDir: string, turn: number, opts: SendOptions & { rerun?: number; deadline?: string; deadlineByNation?: Readonly<Record<string, string>>; seats?: readonly string[] } = {}): Promise<ReportsSummary> {
  try {
    return await Mailroom.run(campaignDir, opts, async (room) => {
      const turns = await listTurns(campaignDir);
      if (!turns.includes(turn) || turn < 1) {
        throw new CampaignError([{ file: campaignDir, message: `turn ${turn} is not resolved, so it has no reports to send (resolved: ${turns.filter((t) => t > 0).join(', ') || 'none'})` }]);
      }
      const rerun = opts.rerun ?? 0;
      const summary: ReportsSummary = { turn, queued: [], noAddress: [], sent: emptySendSummary() };
      const reportIds: [nation: string, messageId: string][] = [];
      const campaign = room.open.campaign;
      const reportsDir = join(campaignDir, 'turns', turnDirName(turn), 'reports');
      const turnFolder = join(campaignDir, 'turns', turnDirName(turn));
      const packed = !existsSync(reportsDir) && isPacked(turnFolder) ? await readPackedReports(turnFolder) : undefined;
      if (!existsSync(reportsDir) && !packed) {
        throw new CampaignError([{ file: reportsDir, message: `turn ${turn} has no reports to send; write them first: fatecraft report ${campaignDir} --turn ${turn}` }]);
      }
      for (const nation of playedNations(campaign)) {
        const files = await readReportFiles(campaignDir, turn, nation, packed);
        if (files === undefined) continue;
        const to = room.addressesOf(nation);
        if (to.length === 0) {
          summary.noAddress.push(nation);
          continue;
        }
        const token = room.secrets.token(nation);
        const message = composeReport({
          ...room.base(),
          nation,
          nationName: campaign.nations[asNationId(nation)]?.name ?? nation,
          turn,
          rerun,
          to,
          files,
          ...(token ? { token } : {}),
          ...(opts.deadline ? { deadline: opts.deadlineByNation?.[nation] ?? opts.deadline } : {}),
        });
        if (await room.enqueue(message, 'report', `report of turn ${turn} for ${nation}`)) summary.queued.push(nation);
        reportIds.push([nation, message.messageId]);
        await passFault(opts.faults, 'after-queue-report', nation);
      }
      // What the queue holds for the turn, whichever run queued it: a run killed half-way and run again tells
      // the GM of every nation, as one run would.
      const inQueue: string[] = [];
      for (const [nation, id] of reportIds) if ((await room.queue.get(id)) !== undefined) inQueue.push(nation);
      const gmDir = reportsDir;
      const gmFile = async (name: string) => (packed ? packed.get(name)?.toString('utf8') : existsSync(join(gmDir, name)) ? readFile(join(gmDir, name), 'utf8') : undefined);
      const gmHtml = await gmFile('gm.html');
      const gmSvg = await gmFile('gm.svg');
      const lines = [
        `Reports queued for: ${inQueue.join(', ') || '(none)'}.`,
        ...(summary.noAddress.length ? [`No address in campaign.yaml (report not mailed): ${summary.noAddress.join(', ')}.`] : []),
        // Who holds each seat and how reliably (runtime.yaml, as it stands when the mail goes): in the mail, not the
        // turn's own GM report, which a rerun or a replay must make again byte for byte.
        ...(opts.seats?.length ? ['', 'Seats:', ...opts.seats.map((l) => `  ${l}`)] : []),
      ];
      const gm = composeGmReport({ ...room.base(), turn, rerun, ...(gmHtml !== undefined ? { html: gmHtml } : {}), ...(gmSvg !== undefined ? { svg: gmSvg } : {}), summary: lines });
      await room.enqueue(gm, 'gm-report', `GM report of turn ${turn}`);
      if (summary.noAddress.length) {
        await room.alert({ key: `no-address:${turn}:${rerun}`, subject: `no mail address for ${summary.noAddress.join(', ')}`, text: `The reports of turn ${turn} for ${summary.noAddress.join(', ')} were not mailed: campaign.yaml lists no email for them.` });
      }
      if (!opts.queueOnly) summary.sent = await room.deliver();
      return summary;
    });
  } catch (error) {
    throw unwrapFault(error);
  }
}

/** Sends whatever is due in the outgoing queue (`fatecraft mail send`). */
export async function sendPending(campaignDir: string, opts: MailroomOptions = {}): Promise<SendSummary> {
  try {
    return await Mailroom.run(campaignDir, opts, (room) => room.deliver());
  } catch (error) {
    throw unwrapFault(error);
  }
}

/** Mails the GM an alert, once per key. */
export async function sendGmAlert(campaignDir: string, note: GmNote, opts: SendOptions = {}): Promise<SendSummary> {
  return queueAndSend(campaignDir, opts, async (room) => {
    await room.alert(note);
  });
}

export interface ReminderInput {
  /** Stable for the reminder (e.g. "remind-5-48h"): a repeated call sends nothing twice. */
  key: string;
  turn: number;
  /** The deadline as players should read it. */
  deadline: string;
  /** The deadline as players on another clock read it (player-time.ts), by nation. */
  deadlineByNation?: Readonly<Record<string, string>>;
  nations: readonly string[];
}

/** Reminds nations without orders that the deadline is near. */
export async function sendReminder(campaignDir: string, input: ReminderInput, opts: SendOptions = {}): Promise<SendSummary> {
  return queueAndSend(campaignDir, opts, async (room) => {
    for (const nation of [...input.nations].sort()) {
      const to = room.addressesOf(nation);
      if (to.length === 0) continue;
      const token = room.secrets.token(nation);
      const message = composeReminder({ ...room.base(), key: input.key, nation, nationName: room.open.campaign.nations[asNationId(nation)]?.name ?? nation, to, turn: input.turn, deadline: input.deadlineByNation?.[nation] ?? input.deadline, ...(token ? { token } : {}) });
      await room.enqueue(message, 'reminder', `reminder for ${nation}, turn ${input.turn}`);
    }
  });
}

export interface NoticeInput {
  key: string;
  subject: string;
  text: string;
  /** Empty: every nation. */
  nations: readonly string[];
  /** Give each nation its order token in the notice (a new player's first mail). */
  withToken?: boolean;
}

/** Tells players of a GM operation (a moved deadline, a new player...). */
export async function sendNotice(campaignDir: string, input: NoticeInput, opts: SendOptions = {}): Promise<SendSummary> {
  return queueAndSend(campaignDir, opts, async (room) => {
    const nations = input.nations.length ? [...input.nations].sort() : playedNations(room.open.campaign);
    for (const nation of nations) {
      const to = room.addressesOf(nation);
      if (to.length === 0) continue;
      const token = input.withToken ? room.secrets.token(nation) : undefined;
      const text = token ? `${input.text}\n\nYour order token: ${token}\nPut the line "Token: ${token}" in every mail with orders; keep it to yourself.` : input.text;
      await room.enqueue(composeNotice({ ...room.base(), key: `${input.key}:${nation}`, to, subject: input.subject, text }), 'notice', `notice for ${nation}`);
    }
  });
}

async function queueAndSend(campaignDir: string, opts: SendOptions, queue: (room: Mailroom) => Promise<void>): Promise<SendSummary> {
  try {
    return await Mailroom.run(campaignDir, opts, async (room) => {
      await queue(room);
      return opts.queueOnly ? emptySendSummary() : room.deliver();
    });
  } catch (error) {
    throw unwrapFault(error);
  }
}
