import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { awaiting, hangError } from './awaiting.js';
import { hangLimit } from './limits.js';

/**
 * The built command line as it ships (dist/fatecraft/main.js: tsc's output bundled, scripts/bundle.mjs) as
 * separate processes, for the tests of what only a process shows: exit codes and output as cron sees them,
 * signals and SIGKILL, locks between processes, what a process loads. What a command does is tested
 * in-process (test/support/command-line.ts, runInProcess).
 */
export const ROOT = join(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'fatecraft', 'main.js');

/** Builds dist/ (tsc, then the bundle) when it is older than the sources, so the CLI tests run the code under test. */
export function ensureBuilt(): void {
  const newest = (d: string): number => {
    let t = 0;
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
    }
    return t;
  };
  if (existsSync(CLI) && statSync(CLI).mtimeMs >= newest(join(ROOT, 'src'))) return;
  // Type errors elsewhere in the tree still emit; only a missing CLI is fatal.
  spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.json')], { stdio: 'ignore' });
  const bundled = spawnSync(process.execPath, [join(ROOT, 'scripts', 'bundle.mjs')], { encoding: 'utf8' });
  if (!existsSync(CLI)) throw new Error(`npm run build did not produce dist/fatecraft/main.js${bundled.stderr ? `: ${bundled.stderr}` : ''}`);
}

export interface ProcessOptions {
  /** Variables added to (undefined: removed from) this process's environment for the command. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Arguments for node before the CLI's path (e.g. --import a tracer). */
  nodeArgs?: string[];
}

export interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const describeRun = (args: string[]) => `the process \`fatecraft ${args.join(' ')}\``;

function environment(env: ProcessOptions['env'] = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** Runs the built CLI to its end, blocking this process; a hang is killed at the hang limit and thrown. */
export function runBuilt(args: string[], opts: ProcessOptions = {}): SpawnSyncReturns<string> {
  const limit = hangLimit();
  const run = spawnSync(process.execPath, [...(opts.nodeArgs ?? []), CLI, ...args], { encoding: 'utf8', env: environment(opts.env), cwd: opts.cwd, timeout: limit, killSignal: 'SIGKILL' });
  if (run.error) throw (run.error as NodeJS.ErrnoException).code === 'ETIMEDOUT' ? hangError(describeRun(args), limit, `${run.stdout}${run.stderr}`.slice(-2000)) : run.error;
  return run;
}

/**
 * Starts the built CLI without blocking this process (whose servers or other processes must go on). `done`
 * settles when it exits; a process still running at the hang limit is killed and `done` rejects, naming it.
 * `output()` is what it has printed so far.
 */
export function startBuilt(args: string[], opts: ProcessOptions = {}): { child: ChildProcess; done: Promise<Exited>; output: () => { stdout: string; stderr: string } } {
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), CLI, ...args], { env: environment(opts.env), cwd: opts.cwd });
  const limit = hangLimit();
  let stdout = '';
  let stderr = '';
  const done = new Promise<Exited>((resolve, reject) => {
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, limit);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (hung) reject(hangError(describeRun(args), limit, `${stdout}${stderr}`.slice(-2000)));
      else resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done: awaiting(describeRun(args), done), output: () => ({ stdout, stderr }) };
}

/** startBuilt's `done` alone. */
export const runBuiltAsync = (args: string[], opts: ProcessOptions = {}): Promise<Exited> => startBuilt(args, opts).done;
