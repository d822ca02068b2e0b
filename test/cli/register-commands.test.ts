import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerCommands } from '../../src/cli/commands/index.js';
import { runInProcess } from '../support/command-line.js';

/**
 * Which commands a process of the command line loads: the one it names, all of them for the help, and none
 * for `--version` (which loaded the whole program, about a second of CPU, to print one line).
 */
const registered = async (...args: string[]) => {
  const program = new Command();
  await registerCommands(program, ['node', 'fatecraft', ...args]);
  return program.commands.map((c) => c.name());
};

describe('registerCommands', () => {
  it('registers no command for -V or --version, whatever follows', async () => {
    expect(await registered('-V')).toEqual([]);
    expect(await registered('--version')).toEqual([]);
    expect(await registered('--version', 'tick')).toEqual([]);
  });

  it('registers the command named, and every command for the help or a word it does not know', async () => {
    expect(await registered('tick', 'x')).toEqual(['tick']);
    const all = await registered('--help');
    expect(all).toEqual(expect.arrayContaining(['new', 'turn', 'tick', 'mail', 'nation', 'token']));
    expect(await registered('tcik')).toEqual(all);
  });

  it('still says the version, and still refuses what only looks like the option', async () => {
    const version = await runInProcess(['-V', 'tick']);
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const wrong = await runInProcess(['--version=1']);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain("unknown option '--version=1'");
  });
});
