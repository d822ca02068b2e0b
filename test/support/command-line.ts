import { Command } from 'commander';
import { vi } from 'vitest';
import { registerCommands } from '../../src/cli/commands/index.js';

/** Runs the command line in this process and returns what it printed with console.log, line by line. */
export async function runCommandLine(...args: string[]): Promise<string> {
  const program = new Command().exitOverride();
  await registerCommands(program);
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
  try {
    await program.parseAsync(['node', 'fatecraft', ...args]);
  } finally {
    log.mockRestore();
  }
  return lines.join('\n');
}
