import type { Command } from 'commander';
import { writeReports } from '../../report/write.js';
import { latestTurn } from '../../campaign/store.js';
import { gmLogFor, readRuntime } from '../../schedule/runtime.js';
import { turnArg } from '../args.js';
import { underCampaignLock } from '../command-lock.js';

export function registerReport(program: Command): void {
  program
    .command('report')
    .description("write a turn's reports into its folder (turns/NNNN/reports/): each nation's text, HTML, YAML, map and order sheet, and the GM's report")
    .argument('<campaign>', 'campaign folder, e.g. campaigns/silversheen')
    .option('--turn <turn>', 'the resolved turn to report on (default: the latest)', turnArg)
    .option('--nation <nation>', "only this nation's reports (the GM's report is then left as it is)")
    .option('--deadline <text>', 'the deadline for the next orders, as it should be printed (default: "to be announced by the GM")')
    .action(async (dir: string, opts: { turn?: number; nation?: string; deadline?: string }) => {
      const result = await underCampaignLock(dir, 'report', async () => writeReports(dir, {
        ...(opts.turn !== undefined ? { turn: opts.turn } : {}),
        // The GM's log of the turn as the schedule kept it (shown with reports.gmLog).
        gmLog: gmLogFor(await readRuntime(dir), opts.turn ?? (await latestTurn(dir)) ?? 0),
        ...(opts.nation ? { nations: [opts.nation], gm: false } : {}),
        ...(opts.deadline !== undefined ? { deadline: opts.deadline } : {}),
      }));
      console.log(
        result.packed
          ? `Wrote ${result.files.length} report files for turn ${result.turn} into its packed reports, ${result.dir}/reports.tar.gz (older turns' reports are packed: reports.keepTurns in campaign.yaml; open with tar xzf)`
          : `Wrote ${result.files.length} report files for turn ${result.turn} to ${result.dir}/reports`,
      );
    });
}
