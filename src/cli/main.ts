#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { CampaignError } from '../campaign/problems.js';
import { BUSY_EXIT, LockBusyError } from '../schedule/lock.js';
import { registerCommands } from './commands/index.js';

/**
 * The command line. Known failures (bad files, refused operations) print a
 * clear message and exit 1; a campaign busy with another command exits
 * BUSY_EXIT (75) having done nothing; anything else is a bug and says so. A command
 * may set process.exitCode itself (e.g. `check` exits 1 when an order is bad).
 */
const program = new Command();
program.name('fatecraft').description('Play-by-mail turn processor for Fatecraft').version(packageVersion(), '-V, --version', 'the version of fatecraft').exitOverride();

/** The version in package.json, two folders above the built dist/src/cli/. */
function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

async function main(argv: string[]): Promise<number | undefined> {
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

const code = await main(process.argv);
if (code !== undefined) process.exitCode = code;
