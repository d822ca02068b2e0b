import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { turnRenderers } from '../src/cli/renderers.js';
import { writeYaml } from '../src/campaign/yaml-io.js';
import { generateCampaign } from '../src/generate/synthetic.js';
import { writeSyntheticCampaign } from '../src/generate/write.js';
import { runTurn } from '../src/jobs/run-turn.js';
import { startDesk } from '../src/web/serve.js';

/**
 * The web desk's stage of `npm run bench`: a 1,000-nation campaign (100 units each) with one turn resolved,
 * served by `fatecraft serve`'s desk in a process of its own, and 200 clients at once, each signed in as
 * its own nation, each fetching its report page or checking its order sheet (the sheet of its report with
 * the first option of every unit taken, as a player fills it in: about 100 orders) for a fixed time. Three
 * runs: "players" pause 1 to 3 s between requests, a quarter of them checks (200 players reading and
 * typing at once, about 100 requests a second); then report pages alone and checks alone, flat out (no
 * pause: the desk's throughput, every request waiting its turn behind 199 others). Every check sends a sheet
 * the desk has not seen (a line more, as a player typing): the checker's kept answers are not what is
 * measured. Prints p50, p95 and p99
 * latency of each kind, the throughput, and the server's CPU time per request (what a quiet machine's
 * throughput follows from, whatever else the machine runs); the server's peak memory. Not a timed test:
 * figures for docs/benchmarks.md.
 *
 *   node dist/bench/web.js [--nations 1000] [--clients 200] [--seconds 30] [--checks 0.25]
 *
 * --checks: the share of requests that are live checks (the rest are report pages).
 */
export interface WebBenchResult {
  nations: number;
  clients: number;
  players: LoadResult;
  reportsFlatOut: LoadResult;
  checksFlatOut: LoadResult;
  serverPeakMiB: number;
  /** The machine's load average (1 minute) at the end: how much else it ran. */
  loadAverage: number;
}

export interface LoadResult {
  seconds: number;
  report: Latencies;
  check: Latencies;
  /** Requests answered per second, both kinds. */
  throughput: number;
  errors: number;
  /** The server's CPU time (user + system) per request answered, ms. */
  serverCpuMs: number;
}

export interface Latencies {
  count: number;
  p50: number;
  p95: number;
  p99: number;
}

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};

/** The server side: the desk over the campaign, limits raised so 200 sessions from one address may sign in. */
async function serve(dir: string): Promise<void> {
  const running = await startDesk({
    folder: dir,
    port: 0,
    host: '127.0.0.1',
    renderers: turnRenderers(),
    limits: { signInPerClient: { limit: 1e9, windowMs: 1000 }, checkPerSession: { limit: 1e9, windowMs: 1000 } },
  });
  process.stdout.write(`${running.url}\n`);
  // The bench asks for the CPU time used so far, to divide by the requests answered.
  process.on('message', () => process.send?.(process.cpuUsage()));
}

/** The order sheet of a report as a player fills it in: each unit's first option taken (its "# " removed). */
export function playersSheet(sheet: string): string {
  let unit = false;
  return sheet
    .split('\n')
    .map((line) => {
      if (/^\s*# .+\(.+\) at \d+,\d+ /.test(line)) {
        unit = true;
        return line;
      }
      const option = /^(\s*)# (- \{.*)$/.exec(line);
      if (!unit || !option) return line;
      unit = false;
      return `${option[1]}${option[2]}`;
    })
    .join('\n');
}

function latencies(times: number[]): Latencies {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

/** Peak resident memory of a process, from /proc (Linux), in MiB. */
function peakMiB(pid: number | undefined): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

export async function runWebBench(opts: { nations?: number; clients?: number; seconds?: number; checks?: number } = {}): Promise<WebBenchResult> {
  const nations = opts.nations ?? 1000;
  const clients = opts.clients ?? 200;
  const seconds = opts.seconds ?? 30;
  const checkShare = opts.checks ?? 0.25;
  const root = await mkdtemp(join(tmpdir(), 'fatecraft-webbench-'));
  let server: ChildProcess | undefined;
  try {
    const dir = join(root, 'bench');
    const side = Math.min(400, Math.max(24, Math.ceil(Math.sqrt(nations) * 13)));
    const generated = generateCampaign({ nations, unitsPerNation: 100, width: side, height: side, seed: `web-bench-${nations}` });
    const ids = Object.keys(generated.orders).sort();
    const tokens = Object.fromEntries(ids.map((id) => [id, `token-${id}`]));
    await writeSyntheticCampaign(dir, generated);
    const secrets = join(root, 'secrets.yaml');
    await writeFile(secrets, writeYaml(tokens), { mode: 0o600 });
    // One turn resolved with its reports, as the players read them: the pages are the stored reports of turn 1.
    await runTurn(dir, { renderers: turnRenderers() });

    server = spawn(process.execPath, ['--max-old-space-size=4096', fileURLToPath(import.meta.url), '--server', dir], { env: { ...process.env, FATECRAFT_SECRETS: secrets }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    const cpu = () => new Promise<number>((resolve) => {
      server!.once('message', (u: { user: number; system: number }) => resolve((u.user + u.system) / 1000));
      server!.send('cpu');
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      server!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(out.trim().split('\n')[0]!);
      });
      server!.once('exit', (code) => reject(new Error(`the desk stopped (exit ${code})`)));
    });
    const base = `${url}/c/bench`;
    const origin = new URL(url).origin;

    // Each client signs in as its own nation (by token) and keeps its session.
    const sessions: { nation: string; cookie: string; csrf: string; sheet: string }[] = [];
    for (let i = 0; i < clients; i++) {
      const nation = ids[(i * 7) % ids.length]!;
      const r = await fetch(`${base}/sign-in/token`, { method: 'POST', redirect: 'manual', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: tokens[nation]! }) });
      const cookie = (r.headers.getSetCookie()[0] ?? '').split(';')[0]!;
      const page = await (await fetch(`${base}/orders`, { headers: { cookie } })).text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
      if (!cookie || !csrf) throw new Error(`client ${i} could not sign in as ${nation} (${r.status})`);
      const sheet = playersSheet(readFileSync(join(dir, 'turns', '0001', 'reports', `${nation}-orders.yaml`), 'utf8'));
      sessions.push({ nation, cookie, csrf, sheet });
    }
    // Warm up: the state loaded once for the checks, as it is after the first check of a turn.
    await fetch(`${base}/orders/check`, { method: 'POST', headers: { origin, cookie: sessions[0]!.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf: sessions[0]!.csrf, turn: '2', text: sessions[0]!.sheet }) });

    const load = async (checkShare: number, pause: () => number): Promise<LoadResult> => {
      const cpuBefore = await cpu();
      const report: number[] = [];
      const check: number[] = [];
      let errors = 0;
      let n = 0;
      const end = performance.now() + seconds * 1000;
      const started = performance.now();
      await Promise.all(
        sessions.map(async (s) => {
          while (performance.now() < end) {
            const k = n++;
            const isCheck = Math.floor((k + 1) * checkShare) > Math.floor(k * checkShare);
            const t = performance.now();
            try {
              const r = isCheck
                ? await fetch(`${base}/orders/check`, { method: 'POST', headers: { origin, cookie: s.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf: s.csrf, turn: '2', text: `${s.sheet}\n# typed ${k}\n` }) })
                : await fetch(`${base}/report`, { headers: { cookie: s.cookie } });
              const body = await r.text();
              const ms = performance.now() - t;
              if (r.status !== 200 || !(isCheck ? body.includes('class="verdict') : body.includes('class="report"'))) errors++;
              else (isCheck ? check : report).push(ms);
            } catch {
              errors++; // a connection reset or refused: counted, and the client goes on
            }
            const wait = pause();
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      const answered = report.length + check.length;
      return { seconds: elapsed, report: latencies(report), check: latencies(check), throughput: answered / elapsed, errors, serverCpuMs: ((await cpu()) - cpuBefore) / Math.max(1, answered) };
    };
    // A fixed sequence of pauses (no Math.random in this project): 1 to 3 s, spread evenly.
    let p = 0;
    const players = await load(checkShare, () => 1000 + ((p++ * 7919) % 2000));
    const reportsFlatOut = await load(0, () => 0);
    const checksFlatOut = await load(1, () => 0);
    return { nations, clients, players, reportsFlatOut, checksFlatOut, serverPeakMiB: peakMiB(server.pid), loadAverage: loadavg()[0] ?? NaN };
  } finally {
    server?.kill('SIGTERM');
    await rm(root, { recursive: true, force: true });
  }
}

export function webBenchLine(r: WebBenchResult): string {
  const ms = (x: number) => `${Math.round(x)} ms`;
  const l = (what: string, x: Latencies) => `${what} p50 ${ms(x.p50)}, p95 ${ms(x.p95)}, p99 ${ms(x.p99)} (${x.count})`;
  const run = (what: string, x: LoadResult) => `  ${what} (${x.seconds.toFixed(0)} s): ${[x.report.count ? l('report page', x.report) : '', x.check.count ? l('live check', x.check) : ''].filter(Boolean).join('; ')}; ${x.throughput.toFixed(0)} requests/s; server CPU ${x.serverCpuMs.toFixed(1)} ms a request; ${x.errors} errors`;
  return [`web: ${r.clients} clients on a ${r.nations}-nation campaign, each its own nation; server peak ${Math.round(r.serverPeakMiB)} MiB; load average ${r.loadAverage.toFixed(1)} at the end`, run('players, 1–3 s between requests, a quarter checks', r.players), run('report pages alone, flat out', r.reportsFlatOut), run('live checks alone, flat out', r.checksFlatOut)].join('\n');
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--server');
  if (i >= 0) {
    await serve(process.argv[i + 1]!);
    return;
  }
  console.log(`Fatecraft web desk benchmark — node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`);
  const result = await runWebBench({ nations: arg('--nations', 1000), clients: arg('--clients', 200), seconds: arg('--seconds', 30), checks: arg('--checks', 0.25) });
  console.log(webBenchLine(result));
  if (process.argv.includes('--json')) console.log(JSON.stringify(result));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
