import type { Command } from 'commander';
import { CampaignError } from '../../campaign/problems.js';
import { renewToken } from '../../gm/token.js';
import { handRun } from '../command-lock.js';

export function registerToken(program: Command): void {
  program
    .command('token')
    .description('give one nation a new order token (it leaked, or a new player) and mail it to that nation\'s player only; the old token is refused from then on')
    .argument('<campaign>', 'campaign folder')
    .argument('<nation>', 'the nation')
    .option('--new', 'replace the token (required: this command only ever replaces)')
    .option('--reason <text>', 'why: kept in the log (runtime.yaml), as the other GM operations keep theirs')
    .action(async (dir: string, nation: string, opts: { new?: boolean; reason?: string }) => {
      if (!opts.new) throw new CampaignError([{ file: 'fatecraft token', message: `add --new to replace ${nation}'s token (fatecraft token ${dir} ${nation} --new); the current token is in the secrets file` }]);
      const r = await renewToken(dir, nation, { ...handRun(), ...(opts.reason ? { reason: opts.reason } : {}) });
      console.log(`${r.nation} has a new order token${r.replaced ? '; the old one is refused from now on' : ''} (kept in ${r.file}).`);
      if (r.mailedTo === undefined) console.log(`campaign.yaml has no mail: block: give the player the token yourself (it is in ${r.file}).`);
      else if (r.mailedTo.length === 0) console.error(`warning: ${r.nation} has no address in campaign.yaml, so nothing was mailed; give the player the token yourself (it is in ${r.file}).`);
      else if (r.sent && (r.sent.stopped !== undefined || r.sent.failed.length > 0 || r.sent.deferred.length > 0)) {
        // The token is replaced either way; the mail waits in the queue for the next tick or `mail send`.
        console.error(`warning: the mail to ${r.mailedTo.join(', ')} is not sent yet (${r.sent.stopped ?? (r.sent.failed.length ? 'failed: fatecraft mail status' : 'deferred: the next tick or fatecraft mail send retries it')}); the new token is in ${r.file}.`);
        process.exitCode = 1;
      } else console.log(`Mailed it to ${r.mailedTo.join(', ')} only.`);
    });
}
