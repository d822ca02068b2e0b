import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { writeYaml } from '../src/campaign/yaml-io.js';

/**
 * `npm run bench -- --vs <commit>`: today's build (A) against a baseline
 * commit (B), built in a temporary git worktree, on the same generated
 * campaign. Each run is a whole `fatecraft turn --expect 1` process on a
 * fresh hard-linked copy of the campaign; runs alternate (A B, B A, A B...)
 * so that the machine's drift falls on both; each run's wall time, CPU time
 * (user + system, all threads) and peak memory are taken, and the ratio A/B
 * pair by pair. The first pair is a warm-up, not counted; its two turn
 * folders are compared file by file (a change that should keep the output
 * is checked in the same run).
 *
 *   npm run bench -- --vs 8341114 [--at <commit>] [--sizes 1000] [--units 100] [--runs 5]
 *        [--events] [--actions] [--warfare] [--formats txt,html,orders] [--mail]
 *
 * `--at` builds A from a commit too (in its own worktree), so the checkout
 * can change while a long series runs.
 * `--mail` pairs the mail stage instead (bench/mail.ts of each build, its
 * fetch-file-receipt seconds and the whole process's CPU).
 */
export interface PairedOptions {
  vs: string;
  /** A's commit; this checkout as it is when absent. */
  at?: string;
  sizes: number[];
  units: number;
  runs: number;
  events: boolean;
  actions: boolean;
  warfare: boolean;
  formats: readonly string[] | undefined;
  mail: boolean;
  messages: number;
}

interface Run {
  wall: number;
  cpu: number;
  peakMiB: number;
  /** The mail stage's own figure (seconds to fetch, file and receipt), for --mail. */
  fetch?: number;
}

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');
// Written by each timed process as it exits: its own CPU (every thread) and peak memory.
const USAGE_PRELOAD = `process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeFileSync(process.env.FATECRAFT_BENCH_USAGE, JSON.stringify({ cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, peakMiB: u.maxRSS / 1024 })); });\n`;

const git = (args: string[], cwd = ROOT) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** A commit checked out in a temporary worktree and built; removed by `remove`. */
async function buildCommit(commit: string, work: string, name: string): Promise<{ dir: string; label: string; remove: () => Promise<void> }> {
  const sha = git(['rev-parse', '--verify', `${commit}^{commit}`]);
  const dir = join(work, name);
  git(['worktree', 'add', '--detach', dir, sha]);
  const remove = (): Promise<void> => {
    git(['worktree', 'remove', '--force', dir]);
    return Promise.resolve();
  };
  try {
    // The same dependencies as today's checkout when the lock file is the same; else its own.
    const sameLock = readFileSync(join(ROOT, 'package-lock.json'), 'utf8') === (await readFile(join(dir, 'package-lock.json'), 'utf8').catch(() => ''));
    if (sameLock) await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    else execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, stdio: 'ignore' });
    execFileSync(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: dir, stdio: 'inherit' });
    // As `npm run build` does it there: a commit that bundles its command line is timed bundled (cliOf), as it ships.
    if (existsSync(join(dir, 'scripts', 'bundle.mjs'))) execFileSync(process.execPath, [join(dir, 'scripts', 'bundle.mjs')], { cwd: dir, stdio: 'inherit' });
  } catch (e) {
    await remove();
    throw e;
  }
  return { dir, label: sha.slice(0, 7), remove };
}

/** A build's command line: the bundle where the build makes one (scripts/bundle.mjs), tsc's output in older commits. */
function cliOf(build: string): string {
  const bundled = join(build, 'dist', 'fatecraft', 'main.js');
  return existsSync(bundled) ? bundled : join(build, 'dist', 'src', 'cli', 'main.js');
}

/** The campaign both builds resolve, written by the baseline's own generator (older code reads what older code wrote). */
async function generate(baseline: string, dir: string, nations: number, opts: PairedOptions): Promise<void> {
  const args = ['generate', dir, '--nations', String(nations), '--units-per-nation', String(opts.units), ...(opts.events ? ['--events'] : []), ...(opts.actions ? ['--actions'] : [])];
  execFileSync(process.execPath, [cliOf(baseline), ...args], { stdio: 'ignore' });
  if (!opts.warfare && !opts.formats) return;
  const file = join(dir, 'campaign.yaml');
  const campaign = load(await readFile(file, 'utf8')) as Record<string, Record<string, unknown>>;
  if (opts.warfare) campaign.rules = { ...campaign.rules, warfare: { enabled: true } };
  if (opts.formats) campaign.reports = { ...campaign.reports, formats: [...opts.formats] };
  await writeFile(file, writeYaml(campaign));
}

/** One whole process, timed from outside (wall) and by itself (CPU, peak). */
async function timed(command: string[], usageFile: string, preload: string, stdout?: (text: string) => void): Promise<Run> {
  const start = performance.now();
  const out: Buffer[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', preload, ...command], { env: { ...process.env, FATECRAFT_BENCH_USAGE: usageFile }, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.on('error', reject);
    child.on('close', resolve);
  });
  const wall = (performance.now() - start) / 1000;
  if (code !== 0) throw new Error(`${command.join(' ')} exited with ${code}: ${Buffer.concat(out).toString().slice(-2000)}`);
  stdout?.(Buffer.concat(out).toString());
  const usage = JSON.parse(await readFile(usageFile, 'utf8')) as { cpu: number; peakMiB: number };
  return { wall, ...usage };
}

/** Every file under a folder with its hash, to tell two turns' outputs apart. */
async function hashes(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.set(relative(dir, p), createHash('sha256').update(await readFile(p)).digest('hex'));
    }
  };
  await walk(dir);
  return out;
}

function sameFiles(a: Map<string, string>, b: Map<string, string>): string {
  const differ = [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k)).sort();
  return differ.length ? `${differ.length} of ${a.size} files differ (${differ.slice(0, 5).join(', ')}${differ.length > 5 ? '…' : ''})` : `identical (${a.size} files)`;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const f2 = (x: number) => x.toFixed(2);
const spread = (xs: readonly number[]) => `${f2(median(xs))} (${f2(Math.min(...xs))}–${f2(Math.max(...xs))})`;

function pairRow(i: number, ra: Run, rb: Run, figure: (r: Run) => number): string {
  return `  ${String(i + 1).padStart(4)}  ${f2(figure(ra)).padStart(8)} ${f2(ra.cpu).padStart(6)} ${String(Math.round(ra.peakMiB)).padStart(6)}  ${f2(figure(rb)).padStart(8)} ${f2(rb.cpu).padStart(6)} ${String(Math.round(rb.peakMiB)).padStart(6)}  ${(figure(ra) / figure(rb)).toFixed(3).padStart(9)} ${(ra.cpu / rb.cpu).toFixed(3).padStart(8)}`;
}

/** Each pair as it ends, on stderr: a series stopped halfway (a busy machine, a long run) keeps what it measured. */
function progress(runs: Record<'A' | 'B', Run[]>, figure: (r: Run) => number): void {
  const i = runs.A.length - 1;
  if (i >= 0 && runs.B.length === runs.A.length) console.error(`pair done:${pairRow(i, runs.A[i]!, runs.B[i]!, figure)}`);
}

function report(title: string, a: Run[], b: Run[], figure: (r: Run) => number, figureName: string): void {
  console.log(title);
  console.log(`  pair  A ${figureName.padStart(6)}  A cpu  A MiB   B ${figureName.padStart(6)}  B cpu  B MiB   A/B ${figureName}  A/B cpu`);
  a.forEach((ra, i) => console.log(pairRow(i, ra, b[i]!, figure)));
  console.log(`  medians: A ${figureName} ${f2(median(a.map(figure)))} s, cpu ${f2(median(a.map((r) => r.cpu)))} s, peak ${Math.round(median(a.map((r) => r.peakMiB)))} MiB; B ${figureName} ${f2(median(b.map(figure)))} s, cpu ${f2(median(b.map((r) => r.cpu)))} s, peak ${Math.round(median(b.map((r) => r.peakMiB)))} MiB`);
  console.log(`  A/B pair by pair, median (min–max): ${figureName} ${spread(a.map((r, i) => figure(r) / figure(b[i]!)))}, cpu ${spread(a.map((r, i) => r.cpu / b[i]!.cpu))}`);
}

/**
 * How long file creation stays slow after a big deletion on ext4 without a journal (this VM's disk): a new
 * inode skips every one freed in the last minute, one inode-table read each, some 30× the usual cost for the
 * first ~60 s (measured; docs/benchmarks.md, "The machine").
 */
const SETTLE_MS = 70_000;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

export async function runPaired(opts: PairedOptions): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'fatecraft-paired-'));
  const preload = join(work, 'usage.cjs');
  await writeFile(preload, USAGE_PRELOAD);
  const head = git(['rev-parse', '--short', 'HEAD']);
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
  const baseline = await buildCommit(opts.vs, work, 'baseline');
  const built = opts.at ? await buildCommit(opts.at, work, 'this').catch(async (e: unknown) => { await baseline.remove(); throw e; }) : undefined;
  const builds = { A: built?.dir ?? ROOT, B: baseline.dir };
  console.log(`Paired: A = ${built ? built.label : `this checkout (${head}${dirty ? ', with uncommitted changes' : ''})`}, B = ${baseline.label}; ${opts.runs} pairs after a warm-up pair, alternating which goes first.`);
  try {
    if (opts.mail) {
      const runs: Record<'A' | 'B', Run[]> = { A: [], B: [] };
      for (let i = 0; i <= opts.runs; i++) {
        for (const side of i % 2 ? (['B', 'A'] as const) : (['A', 'B'] as const)) {
          let fetch = 0;
          const run = await timed([join(builds[side], 'dist', 'bench', 'mail.js'), '--messages', String(opts.messages), '--json'], join(work, 'usage.json'), preload, (text) => {
            fetch = (JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as { fetch: number }).fetch;
          });
          if (i > 0) runs[side].push({ ...run, fetch });
        }
        progress(runs, (r) => r.fetch ?? 0);
      }
      report(`mail: ${opts.messages} order mails through Dovecot, filed and receipted (fetch = the mail stage's own seconds; cpu = the whole process, sending included)`, runs.A, runs.B, (r) => r.fetch ?? 0, 'fetch');
      return;
    }
    for (const [k, nations] of opts.sizes.entries()) {
      const campaign = join(work, `campaign-${nations}`);
      await generate(baseline.dir, campaign, nations, opts);
      const runs: Record<'A' | 'B', Run[]> = { A: [], B: [] };
      const copies: string[] = [];
      let checked = '';
      for (let i = 0; i <= opts.runs; i++) {
        for (const side of i % 2 ? (['B', 'A'] as const) : (['A', 'B'] as const)) {
          const copy = join(work, `run-${nations}-${i}-${side}`);
          execFileSync('cp', ['-al', campaign, copy]);
          copies.push(copy);
          const run = await timed([cliOf(builds[side]), 'turn', copy, '--expect', '1'], join(work, 'usage.json'), preload);
          if (i > 0) runs[side].push(run);
        }
        progress(runs, (r) => r.wall);
        if (i === 0) checked = sameFiles(await hashes(join(work, `run-${nations}-0-A`, 'turns', '0001')), await hashes(join(work, `run-${nations}-0-B`, 'turns', '0001')));
      }
      const what = [opts.events && 'events', opts.actions && 'actions', opts.warfare && 'warfare', opts.formats && `formats ${opts.formats.join(',')}`].filter(Boolean).join(', ');
      report(`${nations} nations × ${opts.units} units${what ? ` (${what})` : ''}: fatecraft turn, whole process; turn folders of A and B ${checked}`, runs.A, runs.B, (r) => r.wall, 'wall');
      // Each series' files stay until it ends: deleting half a gigabyte just before a run slows it here (docs/benchmarks.md, "The machine").
      for (const copy of copies) await rm(copy, { recursive: true, force: true });
      await rm(campaign, { recursive: true, force: true });
      // And the next series waits out the minute in which this disk's new files skip the inodes just freed.
      if (k < opts.sizes.length - 1) {
        console.log(`waiting ${SETTLE_MS / 1000} s before the next size, for the file system to settle after the deletions`);
        await settle();
      }
    }
  } finally {
    await baseline.remove();
    await built?.remove();
    await rm(work, { recursive: true, force: true });
    if (existsSync(join(ROOT, '.git'))) git(['worktree', 'prune']);
  }
}
