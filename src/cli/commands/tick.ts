import type { Command } from 'commander';
import { clockFromEnv, type Clock } from '../../schedule/clock.js';
import { idleTick } from '../../schedule/idle-tick.js';
import type { TickOutcome } from '../../schedule/tick.js';

/**
 * Exit code of a tick over several campaigns: 0 when every one ticked; else
 * bit i is set when the (i+1)-th campaign named failed or was busy (the 7th
 * bit stands for the 7th and every later one), so 1 = the first, 2 = the
 * second, 3 = both...
 */
export function tickExitCode(outcomes: TickOutcome[]): number {
  let code = 0;
  outcomes.forEach((o, i) => {
    if (o.status !== 'ok') code |= 1 << Math.min(i, 6);
  });
  return code;
}

export function printOutcomes(outcomes: TickOutcome[], json: boolean): void {
  if (json) {
    console.log(JSON.stringify(outcomes.map((o) => ({ ...o, nextEvent: o.nextEvent?.toISOString() })), null, 2));
    return;
  }
  for (const o of outcomes) {
    for (const line of o.lines) console.log(`${o.dir}: ${line}`);
    // Problems in the campaign folder itself already start with its name.
    const error = o.error?.startsWith(`${o.dir}: `) ? o.error.slice(o.dir.length + 2) : o.error;
    if (o.status === 'busy') console.error(`${o.dir}: ${error}`);
    if (o.status === 'failed') console.error(`${o.dir}: FAILED: ${error}`);
  }
}

export function registerTick(program: Command): void {
  program
    .command('tick')
    .description('one pass of the schedule: read mail, send reminders, resolve a turn that is due, send reports (safe to run from cron every few minutes)')
    .argument('<campaign...>', 'campaign folders')
    .option('--json', 'print the outcome of each campaign as JSON')
    .action(async (dirs: string[], opts: { json?: boolean }) => {
      const clock = clockFromEnv();
      const outcomes: TickOutcome[] = [];
      for (const dir of dirs) outcomes.push(await idleTick(dir, clock, () => fullTick(dir, clock)));
      printOutcomes(outcomes, opts.json ?? false);
      const code = tickExitCode(outcomes);
      if (code !== 0 && dirs.length > 1 && !opts.json) console.error(`fatecraft tick: ${outcomes.filter((o) => o.status !== 'ok').map((o) => `${o.dir} (${o.status})`).join(', ')} did not tick; exit code ${code}`);
      if (code !== 0) process.exitCode = code;
    });
}

/**
 * A tick that found something to do (or could not tell): the mail room, the
 * engine and the reports are loaded only now, see idle-tick.ts.
 */
async function fullTick(dir: string, clock: Clock): Promise<TickOutcome> {
  const [{ tickMany }, { tickHooksFor }, { turnRenderers }] = await Promise.all([import('../../schedule/tick.js'), import('../tick-hooks.js'), import('../renderers.js')]);
  const [outcome] = await tickMany([dir], { clock, hooksFor: tickHooksFor, renderers: turnRenderers() });
  return outcome!;
}
