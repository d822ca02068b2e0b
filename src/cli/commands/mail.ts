import type { Command } from 'commander';
import { listTurns, openCampaign } from '../../campaign/store.js';
import { fetchMail } from '../../mailroom/fetch.js';
import type { FetchSummary } from '../../mailroom/fetch-summary.js';
import { acceptHeld } from '../../mailroom/held.js';
import { sendPending, sendReports } from '../../mailroom/reports.js';
import { mailClockFromEnv } from '../../mailroom/runtime.js';
import { scheduleView } from '../../mailroom/schedule-view.js';
import { reportsNotMailed } from '../../mailroom/unsent-reports.js';
import { turnVersion } from '../../campaign/turn-version.js';
import { mailStatus, renderMailStatus, reprocessQuarantined } from '../../mailroom/status.js';
import type { SendSummary } from '../../mailroom/outbox.js';
import { turnArg, wholeNumber } from '../args.js';
import { underCampaignLock } from '../command-lock.js';

/**
 * `fatecraft mail fetch|send|status|reprocess|accept <campaign>`: play by mail by hand (a tick does the same on its
 * schedule). FATECRAFT_NOW fixes the time, FATECRAFT_SECRETS points at the secrets file. docs/mail.md.
 */
export function registerMail(program: Command): void {
  const mail = program.command('mail').description("the campaign's mail: fetch orders, send reports, show the ledger (docs/mail.md)");

  mail
    .command('fetch')
    .description('read new mail: file accepted orders, answer every message (receipts, refusals, commands), move it to Processed')
    .argument('<campaign>', 'campaign folder, e.g. campaigns/silversheen')
    .option('--no-send', 'queue the answers but do not send them yet')
    .option('-q, --quiet', 'only the summary')
    .action(async (dir: string, opts: { send: boolean; quiet?: boolean }) => {
      const summary = await underCampaignLock(dir, 'mail fetch', async () => {
        const clock = mailClockFromEnv();
        const view = await scheduleView(await openCampaign(dir), () => clock.now());
        return fetchMail(dir, { clock, send: opts.send, ...view, ...(opts.quiet ? {} : { log: (line: string) => console.log(`  ${line}`) }) });
      });
      console.log(fetchText(summary));
      if (summary.error !== undefined || summary.skipped.length > 0 || summary.sent.stopped !== undefined) process.exitCode = 1;
    });

  mail
    .command('send')
    .description("send what is queued; first queue every resolved turn's reports not mailed yet (every nation's, and the GM's), oldest first, corrected reports after a rerun included")
    .argument('<campaign>', 'campaign folder, e.g. campaigns/silversheen')
    .option('--turn <turn>', 'queue this turn\'s reports only, even if they were mailed before (default: every turn whose reports were not mailed)', turnArg)
    .option('--rerun <n>', 'with --turn: the version to send (default: the latest; n after the n-th rerun)', wholeNumber('a rerun', 1))
    .option('--no-reports', 'only send what is already queued')
    .option('-q, --quiet', 'only the summary')
    .action(async (dir: string, opts: { turn?: number; rerun?: number; reports: boolean; quiet?: boolean }) => {
      const clock = mailClockFromEnv();
      const log = opts.quiet ? {} : { log: (line: string) => console.log(`  ${line}`) };
      const sent: SendSummary = await underCampaignLock(dir, 'mail send', async () => {
        if (!opts.reports) return sendPending(dir, { clock, ...log });
        const open = await openCampaign(dir);
        const latest = (await listTurns(dir)).at(-1) ?? 0;
        const owed = opts.turn !== undefined ? [{ turn: opts.turn, rerun: opts.rerun ?? (await turnVersion(dir, opts.turn)) }] : await reportsNotMailed(open);
        if (owed.length === 0) console.log(latest < 1 ? 'No turn has been resolved yet: no reports to send.' : "Every resolved turn's reports have been queued already.");
        const view = await scheduleView(open);
        for (const { turn, rerun } of owed) {
          // Only the latest turn's reports can give the deadline the schedule knows: it is that of the turn after it.
          const deadline = turn === latest && view.deadline && view.pendingTurn === turn + 1 ? { deadline: view.deadline, ...(view.deadlineByNation ? { deadlineByNation: view.deadlineByNation } : {}) } : {};
          const result = await sendReports(dir, turn, { clock, ...log, queueOnly: true, rerun, ...deadline });
          const what = `Reports of turn ${turn}${rerun ? ` (corrected, rerun ${rerun})` : ''}`;
          console.log(`${what}: ${result.queued.length ? `queued for ${result.queued.join(', ')}` : 'already queued'}${result.noAddress.length ? `; no address for ${result.noAddress.join(', ')}` : ''}.`);
        }
        return sendPending(dir, { clock, ...log });
      });
      console.log(sendText(sent));
      if (sent.stopped !== undefined || sent.failed.length > 0) process.exitCode = 1;
    });

  mail
    .command('status')
    .description('the mail ledger, the outgoing queue, quarantined messages and bounces')
    .argument('<campaign>', 'campaign folder, e.g. campaigns/silversheen')
    .option('--json', 'as JSON')
    .action(async (dir: string, opts: { json?: boolean }) => {
      const status = await mailStatus(dir);
      console.log(opts.json ? JSON.stringify(status, null, 2) : renderMailStatus(status).trimEnd());
    });

  mail
    .command('reprocess')
    .description('give quarantined messages another try: back into the inbox for the next fetch')
    .argument('<campaign>', 'campaign folder, e.g. campaigns/silversheen')
    .argument('[keys...]', 'ledger keys or Message-IDs (default: every quarantined message)')
    .action(async (dir: string, keys: string[]) => {
      const result = await underCampaignLock(dir, 'mail reprocess', () => reprocessQuarantined(dir, { keys }));
      console.log(`${result.marked.length} quarantined message(s) marked for another try, ${result.movedBack} moved back to the inbox. Run: fatecraft mail fetch ${dir}`);
    });

  mail
    .command('accept')
    .description('file orders held for the GM (their DMARC check failed) as if they had passed, and send the receipt')
    .argument('<campaign>', 'campaign folder, e.g. campaigns/silversheen')
    .argument('<key>', "the message's ledger key or Message-ID, as the GM's alert gives it")
    .option('--no-send', 'queue the receipt but do not send it yet')
    .action(async (dir: string, key: string, opts: { send: boolean }) => {
      const result = await acceptHeld(dir, key, { clock: mailClockFromEnv(), send: opts.send });
      console.log(`Filed the held orders of ${result.nation} for turn ${result.turn}${result.replaced ? ', replacing the orders on file' : ''}.`);
      console.log(sendText(result.sent));
      if (result.sent.stopped !== undefined || result.sent.failed.length > 0) process.exitCode = 1;
    });
}

function fetchText(s: FetchSummary): string {
  const parts = [
    `Read ${s.listed} message(s) from ${s.transport}:`,
    `${s.filed.length} filed${s.filed.length ? ` (${s.filed.map((f) => `${f.nation} turn ${f.turn}`).join(', ')})` : ''}`,
    `${s.refused} refused`,
    `${s.commands} command(s)`,
    `${s.ignored} ignored`,
    `${s.bounces} bounce(s)`,
    `${s.quarantined} quarantined`,
    ...(s.held ? [`${s.held} held for the GM (fatecraft mail accept)`] : []),
  ];
  const lines = [parts.join(', ').replace(':,', ':')];
  if (s.alreadyHandled) lines.push(`${s.alreadyHandled} seen before (moved away only).`);
  if (s.resumed) lines.push(`${s.resumed} finished from an interrupted run.`);
  for (const k of s.skipped) lines.push(`LEFT IN THE INBOX: ${k.id}: ${k.reason}`);
  if (s.uidValidityChanged) lines.push(`The mailbox was renumbered (UIDVALIDITY ${s.uidValidityChanged.from} → ${s.uidValidityChanged.to}); messages were matched by Message-ID.`);
  if (s.error) lines.push(`STOPPED: ${s.error}`);
  lines.push(sendText(s.sent));
  return lines.join('\n');
}

function sendText(s: SendSummary): string {
  const parts = [`Sent ${s.sent.length} message(s)`];
  if (s.deferred.length) parts.push(`${s.deferred.length} deferred (the server said try later)`);
  if (s.failed.length) parts.push(`${s.failed.length} FAILED (the GM is alerted; see fatecraft mail status)`);
  if (s.partial.length) parts.push(`${s.partial.length} refused by some recipients`);
  const down = s.unreachable ? `\nTHE MAIL SERVER DID NOT ANSWER, so this run stopped trying it (the rest waits in the queue; see fatecraft mail status): ${s.unreachable}` : '';
  return `${parts.join(', ')}.${s.stopped ? `\nSTOPPED: ${s.stopped}` : ''}${down}`;
}
