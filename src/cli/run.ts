import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { CampaignError } from '../campaign/problems.js';
import { BUSY_EXIT, LockBusyError } from '../schedule/lock.js';
import { registerCommands } from './commands/index.js';

/**
 * The command line, as main.ts runs it (and the tests run it in their own process). Known failures (bad
 * files, refused operations) print a clear message and give 1; a campaign busy with another command gives
 * BUSY_EXIT (75) having done nothing; anything else is a bug and says so (2). A command may set
 * process.exitCode itself (e.g. `check` exits 1 when an order is bad); then this returns undefined.
 */
export function newProgram(): Command {
  return new Command().name('fatecraft').description('Play-by-mail turn processor for Fatecraft').version(packageVersion(), '-V, --version', 'the version of fatecraft').exitOverride();
}

/** The version in package.json: two folders above the built dist/src/cli/, one above src/cli/. */
function packageVersion(): string {
  for (const up of ['../../../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version: string };
      if (pkg.name === 'fatecraft') return pkg.version;
    } catch {
      // not there: the other layout
    }
  }
  return 'unknown';
}

/** Runs the command `argv` names (["node", "fatecraft", "<command>", ...]); the exit code, when it decides one. */
export async function runFatecraft(argv: string[], program: Command = newProgram()): Promise<number | undefined> {
  try {
    await registerCommands(program, argv);
    await program.parseAsync(argv);
    return undefined;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode;
    if (e instanceof LockBusyError) {
      console.error(e.message);
      return BUSY_EXIT;
    }
    if (e instanceof CampaignError) {
      console.error(e.message);
      return 1;
    }
    console.error(`fatecraft: unexpected error — please report it with the command you ran.\n${(e as Error).stack ?? String(e)}`);
    return 2;
  }
}
