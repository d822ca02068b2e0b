import type { Command } from 'commander';
import { openCampaign } from '../../campaign/store.js';
import { previewTurn } from '../../jobs/preview-turn.js';
import { runTurn } from '../../jobs/run-turn.js';
import { sendGmAlert } from '../../mailroom/reports.js';
import { turnRenderers } from '../renderers.js';

export function registerTurn(program: Command): void {
  program
    .command('turn')
    .description('resolve the pending turn of a campaign and write its state, events and reports')
    .argument('<campaign>', 'campaign folder, e.g. campaigns/silversheen')
    .option('--expect <turn>', 'refuse unless the pending turn is this one', (v) => Number.parseInt(v, 10))
    .option('--preview', 'resolve in a scratch copy and keep the result in previews/NNNN for the GM only (the campaign is not changed)')
    .action(async (dir: string, opts: { expect?: number; preview?: boolean }) => {
      const common = { renderers: turnRenderers(), ...(opts.expect !== undefined ? { expectTurn: opts.expect } : {}) };
      const result = opts.preview ? await previewTurn(dir, common) : await runTurn(dir, common);
      const count = (type: string) => result.events.filter((e) => e.type === type).length;
      const summary = `${result.events.length} events, ${count('battle')} battles, ${count('order_rejected')} orders rejected`;
      if (!opts.preview) {
        console.log(`Resolved turn ${result.turn}: ${summary}.`);
        console.log(`Written to ${result.dir}`);
        return;
      }
      console.log(`Preview of turn ${result.turn} (nothing was resolved): ${summary}.`);
      console.log(`Kept in ${result.dir}; the GM's report is reports/gm.html there.`);
      const open = await openCampaign(dir);
      if (open.file.mail === undefined) return;
      const digest = 'digest' in result ? result.digest : '';
      await sendGmAlert(dir, {
        key: `preview-${result.turn}-${digest}`,
        subject: `Preview of turn ${result.turn}`,
        text: `A preview of turn ${result.turn} was resolved in a scratch copy; the campaign is unchanged and no player was told.\n\n${summary}.\n\nThe preview, with every report and the GM's report, is in ${result.dir}.`,
      });
      console.log('The GM has been sent a note about it.');
    });
}
