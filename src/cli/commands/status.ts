import type { Command } from 'commander';
import { openCampaign } from '../../campaign/store.js';
import { clockFromEnv } from '../../schedule/clock.js';
import { tickHooksFor } from '../../schedule/hooks.js';
import { campaignStatus, formatStatus } from '../../schedule/status.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('the pending turn, its deadline and time left, who has sent orders, NMRs, mail and alerts waiting for the GM')
    .argument('<campaign>', 'campaign folder')
    .option('--json', 'machine-readable output')
    .action(async (dir: string, opts: { json?: boolean }) => {
      const hooks = tickHooksFor(await openCampaign(dir));
      const status = await campaignStatus(dir, { clock: clockFromEnv(), hooks });
      console.log(opts.json ? JSON.stringify(status, null, 2) : formatStatus(status));
    });
}
