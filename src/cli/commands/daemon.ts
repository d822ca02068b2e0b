import type { Command } from 'commander';
import { CampaignError } from '../../campaign/problems.js';
import { clockFromEnv } from '../../schedule/clock.js';
import { runDaemon } from '../../schedule/daemon.js';
import { parseLocalTime } from '../../schedule/deadline.js';
import { DURATION_EXAMPLE, parseDuration } from '../../schedule/duration.js';
import { tickHooksFor } from '../tick-hooks.js';
import { printOutcomes } from './tick.js';
import { turnRenderers } from '../renderers.js';

export function registerDaemon(program: Command): void {
  program
    .command('daemon')
    .description('tick the campaigns on their schedule in this process, for hosts without cron (stop with SIGTERM or Ctrl-C)')
    .argument('<campaign...>', 'campaign folders')
    .option('--poll <duration>', 'longest wait between ticks (mail is read this often)', '5m')
    .option('--until <time>', 'stop at this time (ISO 8601); for rehearsals with FATECRAFT_NOW')
    .action(async (dirs: string[], opts: { poll: string; until?: string }) => {
      const poll = parseDuration(opts.poll);
      if (!poll) throw new CampaignError([{ file: '--poll', message: `"${opts.poll}" is not a duration; ${DURATION_EXAMPLE}` }]);
      const until = opts.until !== undefined ? parseLocalTime(opts.until, 'UTC') : undefined;
      if (opts.until !== undefined && !until) throw new CampaignError([{ file: '--until', message: `"${opts.until}" is not a time; write e.g. 2025-03-30T18:00:00Z` }]);
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
      const clock = clockFromEnv();
      console.log(`fatecraft daemon: ticking ${dirs.join(', ')} at least every ${opts.poll}`);
      try {
        const { rounds } = await runDaemon(dirs, {
          clock,
          poll,
          hooksFor: tickHooksFor,
          renderers: turnRenderers(),
          signal: stop.signal,
          ...(until ? { until } : {}),
          onTick: (outcomes, at) => {
            const busy = outcomes.some((o) => o.lines.length > 0 || o.status !== 'ok');
            if (busy) console.log(`-- ${at.toISOString()}`);
            printOutcomes(outcomes, false);
          },
        });
        console.log(`fatecraft daemon: stopped after ${rounds} round(s)`);
      } finally {
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
      }
    });
}
