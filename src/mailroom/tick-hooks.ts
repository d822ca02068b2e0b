/**
 * The mailroom as the schedule shell's TickHooks (src/schedule/hooks.ts): what `fatecraft tick` calls to
 * fetch mail and to send reports, reminders, notices and alerts. Each hook queues durably under a key-derived
 * Message-ID and then sends; it returns once the mail is queued (the queue keeps retrying on later runs),
 * and throws only when queueing failed or the server refused the credentials or settings.
 *
 * Wiring: the command line's tickHooksFor (src/cli/tick-hooks.ts) returns mailroomHooks() when campaign.yaml has a
 * `mail:` block; the schedule itself never imports the mailroom.
 */
import { writeStartingPosition } from '../jobs/starting-position.js';
import { issueTokens } from '../campaign/secrets.js';
import { nationsNamed } from '../campaign/nation-label.js';
import { asNationId } from '../core/ids.js';
import { localTime } from '../schedule/deadline.js';
import { deadlineClock, deadlinesByNation } from '../schedule/player-time.js';
import type { TickContext, TickHooks } from '../schedule/hooks.js';
import { fetchMail } from './fetch.js';
import type { SendSummary } from './outbox.js';
import { sendGmAlert, sendReminder, sendReports } from './reports.js';
import type { MailroomOptions } from './room.js';
import type { MailClock } from './runtime.js';
import { sendNoticeMail, sendStartMail } from './start-mail.js';
import { sendInvitation } from './seat-mail.js';
import { seatRecordLines } from '../schedule/seats/summary.js';
import { queueStatus } from './status.js';
import { reportsNotMailed } from './unsent-reports.js';

/** The tick's clock as the mailroom's: pauses between retries move a fake clock on instead of waiting. */
function clockOf(ctx: TickContext): MailClock {
  return { now: () => ctx.clock.now(), sleep: (ms) => ctx.clock.sleepUntil(new Date(ctx.clock.now().getTime() + ms)) };
}

function failIfStopped(sent: SendSummary, what: string): void {
  if (sent.stopped !== undefined) throw new Error(`${what}: ${sent.stopped}`);
}

export function mailroomHooks(options: Omit<MailroomOptions, 'clock'> = {}): TickHooks {
  const opts = (ctx: TickContext): MailroomOptions => ({ ...options, clock: clockOf(ctx), log: (line) => ctx.say(line) });
  const deadlineText = (ctx: TickContext, at: Date) => localTime(at, ctx.schedule.timeZone);
  // The same on each player's own clock, where they gave one (player-time.ts).
  const clock = (ctx: TickContext, at: Date) => deadlineClock(at, ctx.schedule.timeZone, ctx.open.file, ctx.runtime);
  const byNation = (ctx: TickContext, at: Date) => deadlinesByNation(clock(ctx, at));
  return {
    async fetchMail(ctx) {
      const summary = await fetchMail(ctx.dir, {
        ...opts(ctx),
        acceptsOrders: (turn, receivedAt) => ctx.acceptsOrders(turn, receivedAt),
        retiredTokens: ctx.runtime.retiredTokens,
        deadline: deadlineText(ctx, ctx.deadline),
        deadlineClock: clock(ctx, ctx.deadline),
        declareAbsence: (nation, fromTurn, toTurn, note) => ctx.declareAbsence(nation, fromTurn, toTurn, note),
        recordPreference: (nation, pref, note) => ctx.recordPreference(nation, pref, note),
        ...(ctx.seats ? { seats: ctx.seats } : {}),
      });
      if (summary.error !== undefined) throw new Error(summary.error);
      return { processed: summary.handled + summary.resumed + summary.alreadyHandled };
    },
    async sendReminders(ctx, reminder, nations) {
      const sent = await sendReminder(ctx.dir, { key: reminder.key, turn: reminder.turn, deadline: deadlineText(ctx, reminder.deadline), deadlineByNation: byNation(ctx, reminder.deadline), nations }, opts(ctx));
      failIfStopped(sent, 'sending reminders');
    },
    async sendReports(ctx, delivery) {
      // The context's deadline is that of the turn now collecting orders, i.e. the one after the reported turn.
      const summary = await sendReports(ctx.dir, delivery.turn, { ...opts(ctx), rerun: delivery.rerun, seats: seatRecordLines(ctx.open.campaign, ctx.runtime), ...(ctx.turn === delivery.turn + 1 ? { deadline: deadlineText(ctx, ctx.deadline), deadlineByNation: byNation(ctx, ctx.deadline) } : {}) });
      failIfStopped(summary.sent, 'sending reports');
    },
    async sendGmAlert(ctx, alert) {
      const sent = await sendGmAlert(ctx.dir, { key: `tick-alert-${alert.id}`, subject: `${alert.kind}${alert.turn !== undefined ? `, turn ${alert.turn}` : ''}`, text: `${alert.message}\n\n(raised ${alert.raisedAt})` }, opts(ctx));
      failIfStopped(sent, 'mailing the GM');
    },
    async sendNotice(ctx, notice) {
      const { sent } = await sendNoticeMail(ctx.dir, notice, { deadline: deadlineText(ctx, ctx.deadline), deadlineByNation: byNation(ctx, ctx.deadline) }, opts(ctx));
      failIfStopped(sent, 'sending a notice');
    },
    async sendSeatOffer(ctx, offer) {
      const sent = await sendInvitation(ctx.dir, { offer, turn: ctx.turn, deadline: deadlineText(ctx, ctx.deadline) }, opts(ctx));
      failIfStopped(sent.sent, 'sending an invitation');
    },
    async mailStatus(dir, open) {
      return { configured: true, ...(await queueStatus(dir)), reportsNotMailed: await reportsNotMailed(open) };
    },
    async startCampaign(ctx) {
      const named = (ids: readonly string[]) => nationsNamed(ids, (id) => ctx.open.campaign.nations[asNationId(id)]?.name);
      const deadline = deadlineText(ctx, ctx.deadline);
      const position = await writeStartingPosition(ctx.open, deadline, byNation(ctx, ctx.deadline));
      if (position.wroteReports) ctx.say('wrote turn 0\'s starting reports');
      // Secrets handed in with the options (tests, embedding) are the caller's; the secrets file gets a token
      // for each nation without one.
      if (options.secrets === undefined) {
        const tokens = await issueTokens(ctx.open, { skip: Object.keys(ctx.runtime.dropped) });
        if (tokens.issued.length) ctx.say(`issued order tokens for ${named(tokens.issued)} (in ${tokens.file})`);
      }
      const summary = await sendStartMail(ctx.dir, { deadline, deadlineByNation: byNation(ctx, ctx.deadline) }, opts(ctx));
      failIfStopped(summary.sent, 'sending the starting reports');
      ctx.say(`started the campaign: the welcome, starting report, order sheet and token queued for ${named([...summary.alreadyQueued, ...summary.queued].sort()) || 'no nation'}`);
      if (summary.noAddress.length) ctx.say(`no address in campaign.yaml, nothing mailed to: ${named(summary.noAddress)}`);
    },
  };
}
