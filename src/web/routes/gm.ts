/**
 * The GM's screen: what `fatecraft status` says (turn, deadline, who has sent orders, alerts, mail), the mail
 * queue, the world map and every turn's GM report; and the safe operations of the command line (extend,
 * pause, resume, a preview of the pending turn), each with a reason and a confirmation, done by the same
 * functions (src/gm), so each goes to the GM's log as the command's would.
 */
import type { Hono } from 'hono';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { formatBytes } from '../../campaign/disk-usage.js';
import { turnDirName } from '../../campaign/store.js';
import { seasonOf } from '../../core/phases/upkeep.js';
import { acknowledgeAlert, extendDeadline, pauseCampaign, resumeCampaign } from '../../gm/steering.js';
import { PREVIEWS_DIR } from '../../jobs/preview-turn.js';
import { mailDir } from '../../mailroom/config.js';
import { OutboxQueue } from '../../mailroom/outbox.js';
import { localTime, parseLocalTime } from '../../schedule/deadline.js';
import { DURATION_EXAMPLE, formatDuration, parseDuration } from '../../schedule/duration.js';
import { mailroomHooks } from '../../mailroom/tick-hooks.js';
import { folderHooks } from '../../schedule/hooks.js';
import { campaignStatus } from '../../schedule/status.js';
import type { SeatLine } from '../../schedule/seats/summary.js';
import { baseOf, checkFormToken, DeskRefusal, formOf, gmSession, notFound, page, pageWithReport, type DeskContext, type DeskEnv } from '../context.js';
import { previewFromDesk } from '../preview.js';
import { firstMap, readTurnFiles, reportParts } from '../stored-reports.js';
import { trusted } from '../views.js';

const OPS = ['extend', 'pause', 'resume', 'preview'] as const;
type Op = (typeof OPS)[number];

const DONE: Record<string, string> = {
  extend: 'The deadline was moved; the players are told with the next tick.',
  pause: 'The campaign is paused: no reminders and no resolution until you resume it.',
  resume: 'Resumed: the guards are overruled for this turn and the alerts marked as dealt with.',
  alert: 'The alert is marked as dealt with.',
};

export function gmRoutes(app: Hono<DeskEnv>): void {
  app.get('/c/:slug/gm', async (c) => statusPage(c));

  app.post('/c/:slug/gm/op', async (c) => {
    gmSession(c);
    const form = await formOf(c);
    checkFormToken(c, form);
    const op = OPS.find((o) => o === form.op);
    if (op === undefined) throw new DeskRefusal(400, 'That operation is not one the desk offers.');
    const reason = (form.reason ?? '').replace(/[\r\n]+/g, ' ').trim().slice(0, 500);
    if (reason === '') throw new DeskRefusal(400, 'Give a reason: it goes to the GM\'s log (and to the players\' GM\'s log when the campaign shows one).', 'A reason is needed');
    const campaign = c.get('campaign');
    const view = await campaign.view();
    const parts = c.get('parts');
    const tz = view.schedule.timeZone;
    const runtime = await campaign.runtime();
    const when = op === 'extend' ? extendTarget(form, tz) : undefined;
    if (form.confirm !== 'yes') {
      const from = runtime ? new Date(runtime.deadline) : undefined;
      const to = when && from ? ('to' in when ? when.to : new Date(from.getTime() + when.by)) : undefined;
      const what: Record<Op, string> = {
        extend: `Move the deadline of turn ${runtime?.turn ?? '?'} from ${from ? localTime(from, tz) : 'none'} to ${to ? localTime(to, tz) : '?'}${when && 'by' in when ? ` (${when.by >= 0 ? '+' : ''}${formatDuration(when.by)})` : ''}.`,
        pause: `Pause the campaign at turn ${runtime?.turn ?? '?'}: no reminders and no resolution until you resume it; orders are still received.`,
        resume: 'Resume: unpause, overrule any guard holding the pending turn, and mark every open alert as dealt with.',
        preview: `Resolve turn ${(view.latest ?? 0) + 1} in a scratch copy for you alone: the campaign is not changed and no player is told.`,
      };
      return page(c, 'gm-confirm', 'gm', { title: 'Confirm', what: what[op], op, reason, by: form.by ?? '', to: form.to ?? '' });
    }
    const opts = { clock: parts.clock, lockWaitMs: parts.lockWaitMs, reason: `${reason} (on the web desk)` };
    if (op === 'extend') await extendDeadline(campaign.dir, { ...opts, ...when });
    if (op === 'pause') await pauseCampaign(campaign.dir, opts);
    if (op === 'resume') await resumeCampaign(campaign.dir, opts);
    if (op === 'preview') {
      await previewFromDesk(campaign.dir, { ...opts, renderers: parts.renderers, workerFile: parts.previewWorker });
      return c.redirect(`${baseOf(c)}/gm/preview/`, 303);
    }
    return c.redirect(`${baseOf(c)}/gm?done=${op}`, 303);
  });

  app.post('/c/:slug/gm/alerts/:id', async (c) => {
    gmSession(c);
    const form = await formOf(c);
    checkFormToken(c, form);
    const id = c.req.param('id');
    if (!/^\d{1,9}$/.test(id)) throw notFound();
    const parts = c.get('parts');
    await acknowledgeAlert(c.get('campaign').dir, Number(id), { clock: parts.clock, lockWaitMs: parts.lockWaitMs, reason: 'on the web desk' });
    return c.redirect(`${baseOf(c)}/gm?done=alert`, 303);
  });

  app.get('/c/:slug/gm/turns/:turn/', async (c) => storedGmPage(c, await gmTurn(c), 'gm.html'));
  app.get('/c/:slug/gm/turns/:turn/:file', async (c) => storedGmPage(c, await gmTurn(c), reportFile(c)));
  app.get('/c/:slug/gm/preview/', async (c) => previewPage(c, 'gm.html'));
  app.get('/c/:slug/gm/preview/:file', async (c) => previewPage(c, reportFile(c)));
}

function extendTarget(form: Record<string, string>, timeZone: string): { to: Date } | { by: number } {
  const by = (form.by ?? '').trim();
  const to = (form.to ?? '').trim();
  if ((by === '') === (to === '')) throw new DeskRefusal(400, 'Give either a new deadline or how far to move it, not both.', 'Which deadline?');
  if (to !== '') {
    const at = parseLocalTime(to, timeZone);
    if (!at) throw new DeskRefusal(400, `"${to}" is not a time; write e.g. "2025-03-09 18:00" (${timeZone}) or 2025-03-09T18:00:00Z.`, 'Not a time');
    return { to: at };
  }
  const ms = parseDuration(by);
  if (ms === undefined) throw new DeskRefusal(400, `"${by}" is not a duration; ${DURATION_EXAMPLE}.`, 'Not a duration');
  return { by: ms };
}

async function gmTurn(c: DeskContext): Promise<number> {
  gmSession(c);
  const raw = c.req.param('turn') ?? '';
  const view = await c.get('campaign').view();
  if (!/^\d{1,6}$/.test(raw) || !view.turns.includes(Number(raw))) throw notFound();
  return Number(raw);
}

/** A report file the GM's report links to: a nation's HTML report, by the nation's id. */
function reportFile(c: DeskContext): string {
  const file = c.req.param('file') ?? '';
  if (!/^[a-z0-9][a-z0-9_-]{0,63}\.html$/.test(file)) throw notFound();
  return file;
}

async function storedGmPage(c: DeskContext, turn: number, file: string) {
  const files = await readTurnFiles(c.get('campaign').dir, turn, [file]);
  return gmReportPage(c, files.get(file), `${file === 'gm.html' ? 'GM report' : file.slice(0, -5)} — turn ${turn}`);
}

async function previewPage(c: DeskContext, file: string) {
  gmSession(c);
  const view = await c.get('campaign').view();
  const path = join(c.get('campaign').dir, PREVIEWS_DIR, turnDirName((view.latest ?? 0) + 1), 'reports', file);
  if (!existsSync(path)) throw new DeskRefusal(404, `There is no preview of turn ${(view.latest ?? 0) + 1} yet: start one from the GM's screen.`, 'No preview');
  return gmReportPage(c, await readFile(path), `Preview of turn ${(view.latest ?? 0) + 1}${file === 'gm.html' ? '' : ` — ${file.slice(0, -5)}`}`);
}

async function gmReportPage(c: DeskContext, html: Buffer | undefined, title: string) {
  if (html === undefined) throw notFound();
  const parts = reportParts(html);
  c.set('styleHashes', parts.styleHashes);
  return pageWithReport(c, 'gm-report', 'gm', { title }, parts.body);
}

/** A seat in the nations table, as `status` tells it: who plays it (a policy or the player) and how reliably, with earlier holders counted. */
function seatCell(seat: SeatLine | undefined): string {
  if (!seat) return '';
  const care = seat.inCare ? `played by ${seat.inCare.policy === 'disorder' ? 'civil disorder' : 'the caretaker'} since turn ${seat.inCare.since}` : '';
  const policy = !seat.inCare && seat.policy ? `${seat.policy} takes the seat at this deadline unless orders come` : '';
  const earlier = seat.history.length > 1 ? `${seat.history.length - 1} earlier holder${seat.history.length === 2 ? '' : 's'}` : '';
  return [care, policy, seat.history.at(-1) ?? seat.reliability ?? '', earlier].filter(Boolean).join('; ');
}

async function statusPage(c: DeskContext) {
  gmSession(c);
  const parts = c.get('parts');
  const campaign = c.get('campaign');
  const view = await campaign.view();
  // What `fatecraft status` reads the mail with: the mailroom's hooks when the campaign has mail.
  const status = await campaignStatus(campaign.dir, { clock: parts.clock, hooks: view.open.file.mail !== undefined ? mailroomHooks() : folderHooks() });
  const queue = view.open.file.mail ? await new OutboxQueue(mailDir(campaign.dir)).unsent() : [];
  const gmReport = view.latest !== undefined ? (await readTurnFiles(campaign.dir, view.latest, ['gm.html'])).get('gm.html') : undefined;
  const mapParts = gmReport ? firstMap(gmReport) : undefined;
  if (mapParts) c.set('styleHashes', mapParts.styleHashes);
  const calendar = view.open.campaign.calendar;
  return page(c, 'gm-status', 'gm', {
    title: `GM — ${status.campaign.title}`,
    notice: DONE[c.req.query('done') ?? ''] ?? null,
    status,
    nations: status.nations.map((n) => ({ ...n, standingText: STANDING[n.standing] ?? n.standing, notes: [n.missedTurns ? `no orders ${n.missedTurns} turn${n.missedTurns === 1 ? '' : 's'} in a row` : '', n.asksToWait ? 'asks to wait for the deadline' : '', n.timeZone ? `zone ${n.timeZone}` : ''].filter(Boolean).join('; '), seat: seatCell(status.seats.nations.find((s) => s.id === n.id)) })),
    standby: status.seats.standby,
    offers: status.seats.offers,
    queue: queue.map((q) => ({ kind: q.kind, about: q.about ?? q.message.subject, to: q.message.to.join(', '), status: q.status, attempts: q.attempts, error: q.lastError ?? '' })),
    disk: formatBytes(status.disk.total),
    map: mapParts ? trusted(mapParts.body.toString('utf8')) : null,
    turns: [...view.turns].reverse().map((turn) => {
      const { season, year } = seasonOf(calendar, turn);
      return { turn, when: `${season} of ${year}` };
    }),
    previewTurn: (view.latest ?? 0) + 1,
    hasPreview: existsSync(join(campaign.dir, PREVIEWS_DIR, turnDirName((view.latest ?? 0) + 1), 'reports', 'gm.html')),
  });
}

const STANDING: Record<string, string> = { submitted: 'orders in', waiting: 'no orders yet', absent: 'away', dropped: 'dropped', fallen: 'fallen', dormant: 'not in play yet' };
