import { handRun } from '../command-lock.js';
import type { Command } from 'commander';
import { openCampaign } from '../../campaign/store.js';
import { resumeCampaign } from '../../gm/steering.js';
import { localTime } from '../../schedule/deadline.js';
import { scheduleOf } from '../../schedule/settings.js';

export function registerResume(program: Command): void {
  program
    .command('resume')
    .description('carry on: unpause, let a turn held by a guard (NMR share, long gap) resolve, and mark the alerts as dealt with')
    .argument('<campaign>', 'campaign folder')
    .option('--reason <text>', "why: kept in the log, and shown to the players in the GM's log when the campaign has one (reports.gmLog)")
    .action(async (dir: string, opts: { reason?: string }) => {
      const tz = scheduleOf((await openCampaign(dir)).file).timeZone;
      const r = await resumeCampaign(dir, { ...handRun(), ...(opts.reason ? { reason: opts.reason } : {}) });
      if (r.wasPaused) console.log('Unpaused.');
      for (const h of r.confirmed) console.log(`Overruled the ${h.kind} guard on turn ${h.turn}: ${h.detail}`);
      if (r.acknowledged.length) console.log(`${r.acknowledged.length === 1 ? 'Alert' : 'Alerts'} ${r.acknowledged.map((a) => `#${a}`).join(', ')} marked as dealt with.`);
      console.log(r.dueNow ? `Turn ${r.turn} was due ${localTime(r.deadline, tz)}: the next tick resolves it (fatecraft extend first to give more time).` : `Turn ${r.turn} is due ${localTime(r.deadline, tz)}.`);
    });
}
