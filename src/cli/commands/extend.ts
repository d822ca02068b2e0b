import { handRun } from '../command-lock.js';
import type { Command } from 'commander';
import { CampaignError } from '../../campaign/problems.js';
import { openCampaign } from '../../campaign/store.js';
import { extendDeadline } from '../../gm/steering.js';
import { localTime, parseLocalTime } from '../../schedule/deadline.js';
import { DURATION_EXAMPLE, parseDuration } from '../../schedule/duration.js';
import { scheduleOf } from '../../schedule/settings.js';

export function registerExtend(program: Command): void {
  program
    .command('extend')
    .description('move the pending turn\'s deadline (players are told with the next tick)')
    .argument('<campaign>', 'campaign folder')
    .option('--to <time>', 'the new deadline, "2025-03-09 18:00" in the campaign\'s zone or ISO 8601')
    .option('--by <duration>', 'move it by this much, e.g. 24h or 2d')
    .option('--reason <text>', "why: kept in the log, and shown to the players in the GM's log when the campaign has one (reports.gmLog)")
    .action(async (dir: string, opts: { to?: string; by?: string; reason?: string }) => {
      const tz = scheduleOf((await openCampaign(dir)).file).timeZone;
      if ((opts.to === undefined) === (opts.by === undefined)) throw new CampaignError([{ file: 'fatecraft extend', message: 'give either --to <time> or --by <duration>' }]);
      const to = opts.to !== undefined ? parseLocalTime(opts.to, tz) : undefined;
      if (opts.to !== undefined && !to) throw new CampaignError([{ file: '--to', message: `"${opts.to}" is not a time; write e.g. "2025-03-09 18:00" (${tz}) or 2025-03-09T18:00:00Z` }]);
      const by = opts.by !== undefined ? parseDuration(opts.by) : undefined;
      if (opts.by !== undefined && by === undefined) throw new CampaignError([{ file: '--by', message: `"${opts.by}" is not a duration; ${DURATION_EXAMPLE}` }]);
      const r = await extendDeadline(dir, { ...handRun(), ...(to ? { to } : {}), ...(by !== undefined ? { by } : {}), ...(opts.reason ? { reason: opts.reason } : {}) });
      console.log(`Turn ${r.turn} is now due ${localTime(r.to, tz)} (was ${localTime(r.from, tz)}).`);
      if (r.remindersReopened.length) console.log(`Reminders ${r.remindersReopened.join(', ')} will go again before the new deadline.`);
    });
}
