import type { Command } from 'commander';
import { CampaignError } from '../../campaign/problems.js';
import { openCampaign } from '../../campaign/store.js';
import { checkLine, needsTheGm } from '../../schedule/attention.js';
import { clockFromEnv } from '../../schedule/clock.js';
import { tickHooksFor } from '../tick-hooks.js';
import { campaignStatus, formatStatus } from '../../schedule/status.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('the pending turn, its deadline and time left, who has sent orders, NMRs, mail and alerts waiting for the GM')
    .argument('<campaign>', 'campaign folder')
    .option('--json', 'machine-readable output')
    .option('--check', 'for monitoring: print nothing and exit 0 when all is well; else one line of what needs the GM, exit 1')
    .action(async (dir: string, opts: { json?: boolean; check?: boolean }) => {
      if (opts.check) {
        process.exitCode = await check(dir);
        return;
      }
      const hooks = await tickHooksFor(await openCampaign(dir));
      const status = await campaignStatus(dir, { clock: clockFromEnv(), hooks });
      console.log(opts.json ? JSON.stringify(status, null, 2) : formatStatus(status));
    });
}

/** Silent when all is well, so that cron mails (MAILTO) only trouble; a campaign that cannot be read is trouble too. */
async function check(dir: string): Promise<number> {
  try {
    const hooks = await tickHooksFor(await openCampaign(dir));
    const items = needsTheGm(await campaignStatus(dir, { clock: clockFromEnv(), hooks }));
    if (items.length === 0) return 0;
    console.log(checkLine(dir, items));
  } catch (e) {
    if (!(e instanceof CampaignError)) throw e;
    console.log(checkLine(dir, [{ what: 'alert', line: e.message }]));
  }
  return 1;
}
