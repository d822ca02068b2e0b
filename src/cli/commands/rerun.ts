import { handRun } from '../command-lock.js';
import type { Command } from 'commander';
import { turnArg } from '../args.js';
import { rerunTurn } from '../../gm/turns.js';
import { turnRenderers } from '../renderers.js';
import { sayUnread } from './turn.js';

export function registerRerun(program: Command): void {
  program
    .command('rerun')
    .description('resolve the latest turn again after fixing its orders or the state before it; the old result is kept as turns/NNNN.superseded-<k>')
    .argument('<campaign>', 'campaign folder')
    .argument('<turn>', 'the turn to resolve again (the latest resolved one)', turnArg)
    .option('--no-reports', 'do not send the new reports to the players')
    .option('--force', 'resolve it again even when nothing would change (after changing the report templates, say)')
    .option('--reason <text>', "why: kept in the log, and shown to the players in the GM's log when the campaign has one (reports.gmLog)")
    .action(async (dir: string, turn: number, opts: { reports: boolean; reason?: string; force?: boolean }) => {
      const r = await rerunTurn(dir, turn, { ...handRun(), renderers: turnRenderers(), sendReports: opts.reports, ...(opts.force ? { force: true } : {}), ...(opts.reason ? { reason: opts.reason } : {}) });
      sayUnread(r.turn, r.unread);
      console.log(`Resolved turn ${r.turn} again: ${r.dir}`);
      console.log(`The turn it replaced is kept in ${r.superseded}`);
      console.log(`Its reports print turn ${r.turn + 1}'s deadline, ${r.nextDeadline}.`);
      console.log(opts.reports ? `The corrected reports (rerun ${r.rerun}) go out with the next tick, or now with: fatecraft mail send ${dir}` : 'The new reports will not be sent by the tick (--no-reports).');
    });
}
