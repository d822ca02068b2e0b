import { join } from 'node:path';
import { playedNations } from '../core/campaign.js';
import { campaignDiskUsage, formatBytes, type DiskUsage } from '../campaign/disk-usage.js';
import { latestTurn, latestTurnProblem, openCampaign, readState, turnDirName } from '../campaign/store.js';
import { turnFolderMessage } from '../campaign/turn-manifest.js';
import { existsSync } from 'node:fs';
import { asNationId } from '../core/ids.js';
import { seasonOf } from '../core/phases/upkeep.js';
import type { Clock } from './clock.js';
import { firstDeadline, localIso, localTime, resolvesAt } from './deadline.js';
import { formatDuration, timeLeftText } from './duration.js';
import type { BouncedMail, MailStatus, TickHooks } from './hooks.js';
import { plainText } from '../text/escape.js';
import { lockHolder } from './lock.js';
import { absentNations, bounceAlertKey, dealtWithAt, readRuntime, waitingNations, type Alert, type Hold, type LogEntry } from './runtime.js';
import { playerZones } from './player-time.js';
import { scheduleOf } from './settings.js';
import { submittedNations } from './submitted.js';
import { orderFolderNames, planOrderFolder, unreadLines } from '../campaign/order-folder.js';
import { ordersDir } from '../orders/pending.js';
import { seatsInCare } from '../seats/file-orders.js';
import { seatsSummary, seatsText, type SeatsSummary } from './seats/summary.js';

/**
 * `fatecraft status`: everything a GM asks before a deadline, read-only and
 * without the lock (it may run while a tick works). Times are shown in the
 * campaign's zone; --json gives the same data for scripts.
 */
/** `dormant`: a nation in waiting (campaign.yaml `breaksFrom`) out of play: before its civil war (docs/rules.md L3), or fallen after it. */
export type NationStanding = 'submitted' | 'waiting' | 'absent' | 'dropped' | 'fallen' | 'dormant';

export interface CampaignStatus {
  campaign: { name: string; title: string; dir: string };
  /** False before the first tick: the deadline shown is what the first tick will set. */
  started: boolean;
  turn: number;
  season: string;
  year: number;
  latestResolved: number;
  timeZone: string;
  now: { utc: string; local: string };
  deadline: { utc: string; local: string; localIso: string; resolvesAt: string; timeLeft: string; msLeft: number; passed: boolean };
  paused?: { since: string; reason?: string };
  holds: Hold[];
  nations: { id: string; name: string; standing: NationStanding; missedTurns: number; email: string[]; timeZone?: string; asksToWait: boolean; reliability?: string }[];
  /** Who holds each seat and how reliably, seats a policy plays, the standby list, invitations (src/seats). */
  seats: SeatsSummary;
  /** Early resolution is on (schedule.early); `waiting` nations asked the pending turn to wait for its deadline. */
  early: boolean;
  waiting: string[];
  submitted: number;
  expected: number;
  /** Files in the pending turn's orders folder that no command reads as orders, and nations with two order files (order-folder.ts). */
  ordersNotRead: string[];
  reminders: string[];
  reportsDue: { turn: number; rerun: number }[];
  /** With mail: resolved turns whose reports are not in the outgoing queue (`fatecraft mail send` sends them). */
  reportsNotMailed: { turn: number; rerun: number }[];
  alerts: Alert[];
  unsentNotices: number;
  mail: MailStatus;
  lastTick?: { utc: string; local: string; ago: string };
  /** The ticks have been silent for longer than the schedule's maxTickGap (cron or the timer stopped?). */
  tickGap?: { silence: string; limit: string };
  /** Messages given up on since the GM last ran `fatecraft resume` (older ones were dealt with). */
  newMailFailures: MailStatus['failures'];
  /** Bounces since the GM last ran `resume` that no tick has made an alert of yet (those are in alerts). */
  bounces: BouncedMail[];
  lock?: { pid: number; host: string; since: string; what: string; alive: boolean };
  /** `whole`: one the next tick or GM command completes or undoes by itself (src/schedule/whole-operation.ts). */
  operation?: { kind: string; command: string; startedAt: string; whole?: boolean };
  /** The latest turn's folder is not whole: what is wrong and the command that repairs it. */
  turnFolder?: { kind: 'incomplete' | 'reports'; turn: number; message: string };
  recentLog: LogEntry[];
  /** The campaign folder's bytes, by part. */
  disk: DiskUsage;
}

export async function campaignStatus(dir: string, opts: { clock: Clock; hooks?: TickHooks }): Promise<CampaignStatus> {
  const now = opts.clock.now();
  const open = await openCampaign(dir);
  const schedule = scheduleOf(open.file, join(dir, 'campaign.yaml'));
  const runtime = await readRuntime(dir);
  const latest = (await latestTurn(dir)) ?? 0;
  const turn = runtime?.turn ?? latest + 1;
  const deadline = runtime ? new Date(runtime.deadline) : firstDeadline(schedule, now);
  const tz = schedule.timeZone;
  const local = (d: Date | string) => localTime(new Date(d), tz);
  const nationIds: string[] = playedNations(open.campaign);
  const problem = await latestTurnProblem(dir);
  // A damaged turn folder is the first thing the GM must hear of, not a reason for status to fail.
  const state = existsSync(join(dir, 'turns', turnDirName(0))) && problem?.kind !== 'incomplete' ? await readState(dir, latest, open.campaign) : undefined;
  const submitted = new Set(await submittedNations(dir, turn, nationIds));
  const ordersFolder = ordersDir(dir, turn);
  const ordersNotRead = unreadLines(planOrderFolder(await orderFolderNames(ordersFolder), (id) => nationIds.includes(id)), join('orders', turnDirName(turn)));
  const absent = new Set(runtime ? absentNations(runtime, turn) : []);
  const waiting = runtime ? waitingNations(runtime, turn) : [];
  const zones = playerZones(open.file, runtime);
  const seats = seatsSummary(open.campaign, open.file, state, runtime, state ? seatsInCare(open, state, Object.keys(runtime?.dropped ?? {})) : []);
  const nations = nationIds.map((id) => {
    const ns = state?.nations[asNationId(id)];
    const standing: NationStanding = runtime?.dropped[id] ? 'dropped' : ns && !ns.alive ? (open.campaign.nations[asNationId(id)]?.breaksFrom !== undefined ? 'dormant' : 'fallen') : submitted.has(id) ? 'submitted' : absent.has(id) ? 'absent' : 'waiting';
    const reliability = seats.nations.find((x) => x.id === id)?.reliability;
    return { id, name: open.campaign.nations[asNationId(id)]!.name, standing, missedTurns: ns?.missedTurns ?? 0, email: open.file.nations[id]?.email ?? [], ...(zones[id] ? { timeZone: zones[id] } : {}), asksToWait: waiting.includes(id), ...(reliability ? { reliability } : {}) };
  });
  const due = resolvesAt(schedule, deadline);
  const { season, year } = seasonOf(open.campaign.calendar, turn);
  const holder = await lockHolder(dir);
  const mail = (await opts.hooks?.mailStatus?.(dir, open)) ?? { configured: false, queued: 0, failures: [] };
  const ack = runtime ? dealtWithAt(runtime) : 0;
  const raised = new Set(runtime?.alerts.map((a) => a.key) ?? []);
  const silence = runtime?.lastTick ? now.getTime() - Date.parse(runtime.lastTick) : 0;
  return {
    campaign: { name: open.campaign.name, title: open.campaign.title, dir },
    started: runtime !== undefined,
    turn,
    season,
    year,
    latestResolved: latest,
    timeZone: tz,
    now: { utc: now.toISOString(), local: local(now) },
    deadline: {
      utc: deadline.toISOString(),
      local: local(deadline),
      localIso: localIso(deadline, tz),
      resolvesAt: local(due),
      timeLeft: timeLeftText(deadline.getTime() - now.getTime()),
      msLeft: deadline.getTime() - now.getTime(),
      passed: deadline.getTime() <= now.getTime(),
    },
    ...(runtime?.paused ? { paused: runtime.paused } : {}),
    holds: runtime?.holds.filter((h) => h.turn === turn) ?? [],
    nations,
    seats,
    early: schedule.early,
    waiting,
    submitted: nations.filter((n) => n.standing === 'submitted').length,
    expected: nations.filter((n) => n.standing === 'submitted' || n.standing === 'waiting').length,
    ordersNotRead,
    reminders: runtime?.reminders[String(turn)] ?? [],
    reportsDue: runtime?.reportsDue ?? [],
    reportsNotMailed: mail.reportsNotMailed ?? [],
    alerts: runtime?.alerts.filter((a) => a.open) ?? [],
    unsentNotices: runtime?.notices.filter((n) => !n.sent && n.dropped === undefined).length ?? 0,
    mail,
    ...(runtime?.lastTick ? { lastTick: { utc: runtime.lastTick, local: local(runtime.lastTick), ago: timeLeftText(now.getTime() - Date.parse(runtime.lastTick)) } } : {}),
    ...(silence > schedule.maxTickGap ? { tickGap: { silence: timeLeftText(silence), limit: formatDuration(schedule.maxTickGap) } } : {}),
    newMailFailures: mail.failures.filter((f) => f.at === undefined || Date.parse(f.at) > ack),
    bounces: (mail.bounces ?? []).filter((b) => b.action === 'failed' && Date.parse(b.at) > ack && !raised.has(bounceAlertKey(b))),
    ...(holder ? { lock: holder } : {}),
    ...(runtime?.operation ? { operation: { kind: runtime.operation.kind, startedAt: runtime.operation.startedAt, command: runtime.operation.command, ...(runtime.operation.whole ? { whole: true } : {}) } } : {}),
    ...(problem ? { turnFolder: { kind: problem.kind, turn: problem.turn, message: turnFolderMessage(dir, problem) } } : {}),
    recentLog: runtime?.log.slice(-5) ?? [],
    disk: await campaignDiskUsage(dir),
  };
}

export function formatStatus(s: CampaignStatus): string {
  const out: string[] = [];
  out.push(`${s.campaign.title} (${s.campaign.dir})`);
  out.push(`Turn ${s.turn}, ${s.season} ${s.year}${s.latestResolved ? ` — turn ${s.latestResolved} is the latest resolved` : ''}`);
  const left = s.deadline.passed ? `passed; resolves ${s.deadline.resolvesAt} or at the next tick after` : `${s.deadline.timeLeft} left`;
  out.push(`Deadline: ${s.deadline.local} (${left})${s.started ? '' : ` — not started: fatecraft start ${s.campaign.dir} starts the campaign (turn 0, tokens, the players' welcome) and sets this deadline, as the first tick would`}`);
  out.push(`Now: ${s.now.local}${s.lastTick ? `; last tick ${s.lastTick.local} (${s.lastTick.ago === 'passed' ? 'just now' : `${s.lastTick.ago} ago`})` : '; no tick has run yet'}`);
  const at = (iso: string) => localTime(new Date(iso), s.timeZone);
  if (s.paused) out.push(`PAUSED since ${at(s.paused.since)}${s.paused.reason ? `: ${s.paused.reason}` : ''} — fatecraft resume ${s.campaign.dir}`);
  for (const h of s.holds) out.push(`${h.confirmed ? 'Guard overruled' : 'HELD'} (${h.kind}): ${h.detail}`);
  if (s.turnFolder) out.push(`DAMAGED TURN: ${s.turnFolder.message}`);
  if (s.operation) out.push(`INTERRUPTED GM operation ${s.operation.kind} (${at(s.operation.startedAt)}); ${s.operation.whole ? `the next tick or GM command completes it or undoes it, and says which (${s.operation.command})` : `finish it: ${s.operation.command}`}`);
  if (s.lock) out.push(`Lock: held by ${s.lock.what} (pid ${s.lock.pid} on ${s.lock.host}, since ${at(s.lock.since)})${s.lock.alive ? '' : ' — that process is gone; the next tick takes the lock over'}`);
  out.push('');
  out.push(`Orders: ${s.submitted} of ${s.expected} expected nations${s.reminders.length ? `; reminders done: ${s.reminders.join(', ')}` : ''}`);
  const width = Math.max(...s.nations.map((n) => n.id.length));
  for (const n of s.nations) {
    const notes = [n.missedTurns ? `NMR ${n.missedTurns} turn${n.missedTurns > 1 ? 's' : ''} in a row` : '', n.asksToWait ? 'asked to wait for the deadline' : '', n.timeZone ? `zone ${n.timeZone}` : '', n.reliability ?? ''].filter(Boolean);
    out.push(`  ${n.id.padEnd(width)}  ${n.standing.padEnd(9)}  ${notes.join('; ')}`.trimEnd());
  }
  for (const line of s.ordersNotRead) out.push(`  NOT READ: ${line}`);
  const seats = seatsText(s.seats);
  if (seats.length) out.push('', ...seats);
  if (s.early) out.push(s.waiting.length ? `Early resolution: on, but the turn waits for its deadline: ${s.waiting.join(', ')} asked it to` : 'Early resolution: on (the turn resolves at the first tick at which every expected nation has orders on file)');
  out.push('');
  if (!s.mail.configured) out.push('Mail: not configured (messages are written to tick-outbox/)');
  else out.push(`Mail: ${s.mail.queued} queued, ${s.mail.failures.length} failed`);
  for (const f of s.mail.failures) out.push(`  failed: to ${f.to} "${f.subject}": ${f.error}`);
  if (s.mail.serverDown) out.push(`  THE MAIL SERVER HAS NOT ANSWERED since ${at(s.mail.serverDown.since)}; the queue waits for it: ${s.mail.serverDown.error}`);
  // With mail, the queue says what was mailed; without, the tick's own list of reports to hand over.
  if (s.mail.configured && s.reportsNotMailed.length) out.push(`REPORTS NOT MAILED: ${s.reportsNotMailed.map((r) => `turn ${r.turn}${r.rerun ? ` (corrected, rerun ${r.rerun})` : ''}`).join(', ')} — send them: fatecraft mail send ${s.campaign.dir}`);
  else if (!s.mail.configured && s.reportsDue.length) out.push(`Reports still to send: turn ${s.reportsDue.map((r) => r.turn + (r.rerun ? ` (rerun ${r.rerun})` : '')).join(', ')}`);
  if (s.unsentNotices) out.push(`Notices to players still to send: ${s.unsentNotices}`);
  if (s.alerts.length) {
    out.push(`Alerts for the GM (${s.alerts.length}; clear with fatecraft resume once dealt with):`);
    for (const a of s.alerts) out.push(`  #${a.id} ${a.kind}${a.turn !== undefined ? ` turn ${a.turn}` : ''} (${at(a.raisedAt)}${a.mailed ? ', mailed' : ''}): ${a.message}`);
  } else out.push('Alerts: none');
  if (s.bounces.length) {
    out.push(`Bounces not yet dealt with (${s.bounces.length}; fatecraft mail status shows them all):`);
    // Addresses and diagnostics are other people's text, printed on the GM's terminal.
    for (const b of s.bounces) out.push(plainText(`  ${at(b.at)} ${b.address}${b.nations.length ? ` (${b.nations.join(', ')})` : ''}: ${b.action}${b.diagnostic ? ` — ${b.diagnostic}` : ''}`));
  }
  if (s.tickGap) out.push(`NO TICK for ${s.tickGap.silence}, longer than maxTickGap (${s.tickGap.limit}): is cron or the timer running?`);
  const d = s.disk;
  out.push(`Size on disk: ${formatBytes(d.total)} (turns ${formatBytes(d.turns)}, orders ${formatBytes(d.orders)}, mail ${formatBytes(d.mail)}, other ${formatBytes(d.other)})`);
  if (s.recentLog.length) {
    out.push('Recent log (runtime.yaml):');
    for (const l of s.recentLog) out.push(`  ${at(l.at)} ${l.op}: ${l.detail}${l.reason ? ` (reason: ${l.reason})` : ''}`);
  }
  return out.join('\n');
}
