import { handRun } from '../command-lock.js';
import type { Command } from 'commander';
import { CampaignError } from '../../campaign/problems.js';
import { openCampaign } from '../../campaign/store.js';
import { rollbackTo } from '../../gm/turns.js';
import { localTime, parseLocalTime } from '../../schedule/deadline.js';
import { scheduleOf } from '../../schedule/settings.js';
import { turnArg } from '../args.js';

export function registerRollback(program: Command): void {
  program
    .command('rollback')
    .description('go back to the end of a turn: later turns (and orders for them) are moved aside, not deleted')
    .argument('<campaign>', 'campaign folder')
    .argument('<turn>', 'the turn whose state becomes current again', turnArg)
    .option('--deadline <time>', 'deadline of the reopened turn, "2025-03-09 18:00" in the campaign\'s zone or ISO 8601')
    .option('--reason <text>', "why: kept in the log, and shown to the players in the GM's log when the campaign has one (reports.gmLog)")
    .action(async (dir: string, turn: number, opts: { deadline?: string; reason?: string }) => {
      const tz = scheduleOf((await openCampaign(dir)).file).timeZone;
      const deadline = opts.deadline !== undefined ? parseLocalTime(opts.deadline, tz) : undefined;
      if (opts.deadline !== undefined && !deadline) throw new CampaignError([{ file: '--deadline', message: `"${opts.deadline}" is not a time; write e.g. "2025-03-09 18:00" (${tz}) or 2025-03-09T18:00:00Z` }]);
      const r = await rollbackTo(dir, turn, { ...handRun(), ...(deadline ? { deadline } : {}), ...(opts.reason ? { reason: opts.reason } : {}) });
      console.log(`Back at turn ${r.turn}; turn ${r.turn + 1} is pending, due ${localTime(r.deadline, tz)}.`);
      const turns = (list: readonly number[]) => `${list.length === 1 ? 'turn' : 'turns'} ${list.join(', ')}`;
      if (r.movedTurns.length) console.log(`${capitalised(turns(r.movedTurns))} ${r.movedTurns.length === 1 ? 'was' : 'were'} moved aside (turns/NNNN.rolledback-<k>).`);
      if (r.movedOrders.length) console.log(`Orders for ${turns(r.movedOrders)} ${r.movedOrders.length === 1 ? 'was' : 'were'} moved aside (orders/NNNN.rolledback-<k>).`);
    });
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
