import { handRun } from '../command-lock.js';
import type { Command } from 'commander';
import { pauseCampaign } from '../../gm/steering.js';

export function registerPause(program: Command): void {
  program
    .command('pause')
    .description('stop reminders and resolution until `fatecraft resume` (mail is still read and receipted)')
    .argument('<campaign>', 'campaign folder')
    .option('--reason <text>', "why: for the log, the players' notice and the GM's log (reports.gmLog)")
    .action(async (dir: string, opts: { reason?: string }) => {
      const r = await pauseCampaign(dir, { ...handRun(), ...(opts.reason ? { reason: opts.reason } : {}) });
      console.log(`Paused at turn ${r.turn}. Resume with: fatecraft resume ${dir}`);
    });
}
