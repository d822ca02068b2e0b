import type { Command } from 'commander';
import { handRun } from '../command-lock.js';
import { nationsNamed } from '../../campaign/nation-label.js';
import { startCampaign } from '../../gm/start.js';

export function registerStart(program: Command): void {
  program
    .command('start')
    .description('start a campaign: write turn 0 from the start sheets, issue the order tokens, mail every player the starting report, order sheet and token, and the GM the GM\'s report (safe to run again: nothing is sent twice)')
    .argument('<campaign>', 'campaign folder')
    .option('--new-tokens', 'replace the tokens already issued (the old ones are refused from then on) and mail the new ones')
    .action(async (dir: string, opts: { newTokens?: boolean }) => {
      const r = await startCampaign(dir, { ...handRun(), newTokens: opts.newTokens ?? false });
      console.log(r.wroteTurn ? `Wrote turn 0 from the start sheets (${dir}/turns/0000).` : `Turn 0 was on disk already (${dir}/turns/0000).`);
      console.log(r.wroteReports ? 'Wrote the starting reports and order sheets (turns/0000/reports/).' : 'The starting reports were written already (turns/0000/reports/).');
      // Nations by name, with the id a GM types in commands (fatecraft token <campaign> <nation>) where it differs.
      const named = (ids: readonly string[]) => nationsNamed(ids, (id) => r.nationNames[id]);
      const t = r.tokens;
      const parts = [
        ...(t.issued.length ? [`issued for ${named(t.issued)}`] : []),
        ...(t.renewed.length ? [`replaced for ${named(t.renewed)}`] : []),
        ...(t.kept.length ? [`kept for ${named(t.kept)}`] : []),
        ...(t.fromEnv.length ? [`taken from FATECRAFT_TOKEN_* variables for ${named(t.fromEnv)}`] : []),
      ];
      console.log(`Order tokens: ${parts.join('; ') || 'none (no nations)'} — in ${t.file}, outside the campaign folder.`);
      console.log(`${r.wasStarted ? 'The campaign had started already' : 'Campaign started'}: orders for turn 1 are due ${r.deadline}.`);
      if (r.mail === undefined) {
        console.log('campaign.yaml has no mail: block, so nothing was mailed: hand each player turns/0000/reports/<nation>.txt, its order sheet and its token.');
        return;
      }
      const m = r.mail;
      if (m.queued.length) console.log(`Queued the welcome, starting report, order sheet and token for: ${named(m.queued)}; the GM's report for the GM.`);
      if (m.alreadyQueued.length) console.log(`Queued by an earlier run (not again): ${named(m.alreadyQueued)}.`);
      if (m.noAddress.length) console.error(`warning: no address in campaign.yaml, nothing mailed to: ${named(m.noAddress)}`);
      if (m.noToken.length) console.error(`warning: no token, nothing mailed to: ${named(m.noToken)}`);
      const s = m.sent;
      console.log(`Sent ${s.sent.length} message(s)${s.deferred.length ? `; ${s.deferred.length} deferred (retried by the next tick or fatecraft mail send)` : ''}${s.failed.length ? `; ${s.failed.length} failed (fatecraft mail status)` : ''}.`);
      // As `mail send`: a run that stopped early or a message that failed is the GM's to see to (exit 1).
      if (s.stopped !== undefined) console.error(`sending stopped: ${s.stopped}; run fatecraft start ${dir} again once the mail settings are mended`);
      if (s.stopped !== undefined || s.failed.length > 0) process.exitCode = 1;
    });
}

