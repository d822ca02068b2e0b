import { format } from 'node:util';
import { Command } from 'commander';
import { vi } from 'vitest';
import { registerCommands } from '../../src/cli/commands/index.js';
import { newProgram, runFatecraft } from '../../src/cli/run.js';

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

/** What a command left: its exit code and what it printed, as spawnSync gives them for the built CLI. */
export interface CommandRun {
  status: number;
  /** Always null: nothing kills a command run in this process (a hang fails the test at its time limit). */
  signal: null;
  stdout: string;
  stderr: string;
}

export interface InProcessOptions {
  /** Variables set for the command's run only (undefined removes one); the rest of process.env stays. */
  env?: Record<string, string | undefined>;
  /** The working folder for the command's run only. */
  cwd?: string;
}

/**
 * `fatecraft <args>` run in this process exactly as src/cli/main.ts runs it (the same commands, the same
 * exit codes), for tests of what a command does. Much cheaper than a process of the built CLI (which loads
 * the whole program again, ~1 s of CPU each); the tests of the wiring itself (signals, SIGKILL, locks
 * between processes, what a process loads) keep spawning dist/src/cli/main.js. Not for commands run at
 * the same time: the environment and the working folder are this process's.
 */
export async function runInProcess(args: string[], opts: InProcessOptions = {}): Promise<CommandRun> {
  const saved = Object.fromEntries(Object.keys(opts.env ?? {}).map((k) => [k, process.env[k]]));
  const setEnv = (vars: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(vars)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  const cwd = process.cwd();
  const exitCode = process.exitCode;
  let stdout = '';
  let stderr = '';
  const out = (...a: unknown[]) => void (stdout += `${format(...a)}\n`);
  const err = (...a: unknown[]) => void (stderr += `${format(...a)}\n`);
  const spies = [vi.spyOn(console, 'log').mockImplementation(out), vi.spyOn(console, 'info').mockImplementation(out), vi.spyOn(console, 'error').mockImplementation(err), vi.spyOn(console, 'warn').mockImplementation(err)];
  const program = newProgram().configureOutput({ writeOut: (s) => void (stdout += s), writeErr: (s) => void (stderr += s) });
  try {
    setEnv(opts.env ?? {});
    if (opts.cwd !== undefined) process.chdir(opts.cwd);
    process.exitCode = undefined;
    const code = await runFatecraft(['node', 'fatecraft', ...args], program);
    return { status: code ?? Number(process.exitCode ?? 0), signal: null, stdout, stderr };
  } finally {
    process.exitCode = exitCode;
    process.chdir(cwd);
    setEnv(saved);
    for (const spy of spies) spy.mockRestore();
  }
}
