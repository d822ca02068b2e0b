import { readRuntime } from '../../schedule/runtime.js';
import type { Command } from 'commander';
import { latestTurn, openCampaign, turnDirName, type OpenCampaign } from '../../campaign/store.js';
import type { UnreadFile } from '../../campaign/order-folder.js';
import { clockFromEnv } from '../../schedule/clock.js';
import { resolveTurnByHand } from '../../schedule/hand-turn.js';
import { turnArg } from '../args.js';
import { underCampaignLock } from '../command-lock.js';
import { turnRenderers } from '../renderers.js';

export function registerTurn(program: Command): void {
  program
    .command('turn')
    .description('resolve the pending turn of a campaign and write its state, events and reports')
    .argument('<campaign>', 'campaign folder, e.g. campaigns/silversheen')
    .option('--expect <turn>', 'refuse unless the pending turn is this one', turnArg)
    .option('--preview', 'resolve in a scratch copy and keep the result in previews/NNNN for the GM only (the campaign is not changed)')
    .action(async (dir: string, opts: { expect?: number; preview?: boolean }) => {
      // The turn pending when the command was given is the one it resolves: if it waited for another
      // command that resolved that turn meanwhile, it does nothing rather than resolve the next one too.
      const expectTurn = opts.expect ?? ((await latestTurn(dir)) ?? 0) + 1;
      const common = { renderers: turnRenderers(), expectTurn };
      // A preview's scratch copy and its note to the GM (the mail code) are loaded only for a preview.
      const preview = opts.preview ? await import('../../jobs/preview-turn.js') : undefined;
      // A preview plays the silent seats as the turn will: dropped nations (runtime.yaml) hold.
      const dropped = preview ? Object.keys((await readRuntime(dir))?.dropped ?? {}) : [];
      const result = await underCampaignLock(dir, opts.preview ? 'turn --preview' : 'turn', () => (preview ? preview.previewTurn(dir, { ...common, dropped }) : resolveTurnByHand(dir, { ...common, clock: clockFromEnv() })));
      const count = (type: string) => result.events.filter((e) => e.type === type).length;
      const summary = `${result.events.length} events, ${count('battle')} battles, ${count('order_rejected')} orders rejected`;
      sayUnread(result.turn, result.unread);
      if (!opts.preview) {
        console.log(`Resolved turn ${result.turn}: ${summary}.`);
        console.log(`Written to ${result.dir}`);
        const due = 'nextDeadline' in result && typeof result.nextDeadline === 'string' ? result.nextDeadline : undefined;
        console.log(due ? `Turn ${result.turn + 1} is due ${due} (the schedule's next deadline, printed in the reports).` : `The reports say the GM will announce turn ${result.turn + 1}'s deadline (the schedule has not started: no runtime.yaml).`);
        await sayReportsNotMailed(result.open);
        return;
      }
      console.log(`Preview of turn ${result.turn} (nothing was resolved): ${summary}.`);
      console.log(`Kept in ${result.dir}; the GM's report is reports/gm.html there.`);
      const { sendGmAlert } = await import('../../mailroom/reports.js');
      const open = await openCampaign(dir);
      if (open.file.mail === undefined) return;
      const digest = 'digest' in result ? result.digest : '';
      await underCampaignLock(dir, 'turn --preview', () => sendGmAlert(dir, {
        key: `preview-${result.turn}-${digest}`,
        subject: `Preview of turn ${result.turn}`,
        text: `A preview of turn ${result.turn} was resolved in a scratch copy; the campaign is unchanged and no player was told.\n\n${summary}.\n\nThe preview, with every report and the GM's report, is in ${result.dir}.`,
      }));
      console.log('The GM has been sent a note about it.');
    });
}

/** With mail, every resolved turn whose reports are not queued yet, this one included. */
async function sayReportsNotMailed(open: OpenCampaign): Promise<void> {
  if (open.file.mail === undefined) return;
  const { reportsNotMailed, owedText } = await import('../../mailroom/unsent-reports.js');
  const owed = await reportsNotMailed(open);
  if (owed.length) console.log(`Reports not mailed yet: ${owedText(owed)}. Send them: fatecraft mail send ${open.dir}`);
}

/** Files the turn found in its orders folder and did not read as orders: the GM hears of each, every time. */
export function sayUnread(turn: number, unread: readonly UnreadFile[]): void {
  for (const u of unread) console.log(`NOT READ as orders: orders/${turnDirName(turn)}/${u.name} — ${u.why}.`);
}
