import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { turnRenderers } from '../src/cli/renderers.js';
import { writeYaml } from '../src/campaign/yaml-io.js';
import { generateCampaign } from '../src/generate/synthetic.js';
import { writeSyntheticCampaign } from '../src/generate/write.js';
import { runTurn } from '../src/jobs/run-turn.js';
import { startDesk } from '../src/web/serve.js';
import { webClient, type ClientKind } from './web-client.js';

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
 *     [--runs players,reports,checks] [--campaign <dir>] [--server-flags "--trace-gc"] [--timeline] [--client http|fetch] [--together]
 *
 * --checks: the share of requests that are live checks (the rest are report pages). --runs: which of the
 * three runs. --campaign: the generated campaign kept in this folder and used again when it is there (the
 * setup takes a minute; a profile wants several runs). --server-flags: node's flags for the desk's process
 * (--trace-gc, --cpu-prof). --timeline: each second of a run, its requests and slowest answers, to see when
 * the tail happens. --client: the players' HTTP client (web-client.ts). --together: the players' run starts
 * every player at the same millisecond (200 requests at once, a burst no campaign sees); by default each
 * player's first request comes after a first pause drawn like its later ones, as players arrive. Besides latencies, the desk's event-loop delay (monitorEventLoopDelay): how long its
 * thread was kept from answering, whatever held it.
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
  /** The server's CPU time (user + system) per request answered, ms: all its threads, and the desk's own thread. */
  serverCpuMs: number;
  deskThreadCpuMs: number;
  /** The bench's own CPU time per request answered (its clients share the machine with the desk), ms. */
  clientCpuMs: number;
  /** The same latencies without the requests begun in the first 3 s (when all the players start at once). */
  settled: { report: Latencies; check: Latencies };
  /** How late the desk's thread ran its timers during the run (ms): the longest stall and the 99th percentile. */
  loopDelay: { p50: number; p99: number; max: number };
  /** Per second of the run: requests answered and the slowest of each kind (ms). With --timeline. */
  timeline?: { second: number; reports: number; checks: number; slowestReport: number; slowestCheck: number }[];
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
  // How late the thread runs: the stalls a player's request waits behind, whatever their cause.
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  // Ended by the bench: exit so that node writes what --cpu-prof or --heap-prof gathered.
  process.once('SIGTERM', () => process.exit(0));
  process.stdout.write(`${running.url}\n`);
  // The bench asks for the CPU time used so far, to divide by the requests answered, and the loop's delay since it last asked.
  process.on('message', () => {
    const ms = (ns: number) => ns / 1e6;
    process.send?.({ ...process.cpuUsage(), deskThread: threadCpuMs(process.pid), loop: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) } });
    delay.reset();
  });
}

/** CPU time of one thread of this process (user + system, ms), from /proc (Linux; NaN elsewhere). */
function threadCpuMs(tid: number): number {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks (100 a second).
    const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(')').at(-1)!.trim().split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
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

export interface WebBenchOptions {
  nations?: number;
  clients?: number;
  seconds?: number;
  checks?: number;
  /** Which runs (default all three). */
  runs?: readonly ('players' | 'reports' | 'checks')[];
  /** A folder to keep the generated campaign in and use again. */
  campaign?: string;
  /** Node's flags for the desk's process. */
  serverFlags?: readonly string[];
  timeline?: boolean;
  /** The players' HTTP client (web-client.ts; default http). */
  client?: ClientKind;
  /** Every player's first request in the same millisecond (default: each after a first pause, as players arrive). */
  together?: boolean;
}

const NOT_RUN: LoadResult = { seconds: 0, report: latencies([]), check: latencies([]), settled: { report: latencies([]), check: latencies([]) }, throughput: 0, errors: 0, serverCpuMs: NaN, deskThreadCpuMs: NaN, clientCpuMs: NaN, loopDelay: { p50: NaN, p99: NaN, max: NaN } };

/** The generated campaign with turn 1 resolved, and its tokens (made once into `dir`, or found there). */
async function benchCampaign(dir: string, nations: number, secrets: string): Promise<string[]> {
  const side = Math.min(400, Math.max(24, Math.ceil(Math.sqrt(nations) * 13)));
  const generated = generateCampaign({ nations, unitsPerNation: 100, width: side, height: side, seed: `web-bench-${nations}` });
  const ids = Object.keys(generated.orders).sort();
  await writeFile(secrets, writeYaml(Object.fromEntries(ids.map((id) => [id, `token-${id}`]))), { mode: 0o600 });
  if (existsSync(join(dir, 'turns', '0001', 'reports'))) return ids;
  await writeSyntheticCampaign(dir, generated);
  // One turn resolved with its reports, as the players read them: the pages are the stored reports of turn 1.
  await runTurn(dir, { renderers: turnRenderers() });
  return ids;
}

export async function runWebBench(opts: WebBenchOptions = {}): Promise<WebBenchResult> {
  const nations = opts.nations ?? 1000;
  const clients = opts.clients ?? 200;
  const seconds = opts.seconds ?? 30;
  const checkShare = opts.checks ?? 0.25;
  const runs = new Set(opts.runs ?? ['players', 'reports', 'checks']);
  const root = await mkdtemp(join(tmpdir(), 'fatecraft-webbench-'));
  let server: ChildProcess | undefined;
  try {
    const dir = join(opts.campaign ?? root, 'bench');
    const secrets = join(root, 'secrets.yaml');
    const ids = await benchCampaign(dir, nations, secrets);
    const tokens = Object.fromEntries(ids.map((id) => [id, `token-${id}`]));

    server = spawn(process.execPath, ['--max-old-space-size=4096', ...(opts.serverFlags ?? []), fileURLToPath(import.meta.url), '--server', dir], { env: { ...process.env, FATECRAFT_SECRETS: secrets }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    type Usage = { user: number; system: number; deskThread: number; loop: LoadResult['loopDelay'] };
    const usage = () => new Promise<Usage>((resolve) => {
      server!.once('message', (u: Usage) => resolve(u));
      server!.send('cpu');
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      server!.stdout!.on('data', (chunk: Buffer) => {
        // Besides its address, what the desk prints (--trace-gc) goes to stderr, to be read beside the figures.
        process.stderr.write(chunk);
        out += chunk.toString();
        const address = /^http\S+$/m.exec(out)?.[0];
        if (address) resolve(address);
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

    const client = webClient(opts.client ?? 'http', clients);
    const together = opts.together ?? false;
    const load = async (checkShare: number, pause: () => number): Promise<LoadResult> => {
      const before = await usage();
      const clientBefore = process.cpuUsage();
      const report: number[] = [];
      const check: number[] = [];
      const seen: { at: number; ms: number; check: boolean }[] = [];
      let errors = 0;
      let n = 0;
      const end = performance.now() + seconds * 1000;
      const started = performance.now();
      await Promise.all(
        sessions.map(async (s) => {
          // Players arrive as they come and go: each one's first request after a pause like its later ones.
          // All 200 in the same millisecond (--together) is a burst no campaign sees, measured on request.
          if (!together) {
            const first = pause();
            if (first > 0) await new Promise((resolve) => setTimeout(resolve, first));
          }
          while (performance.now() < end) {
            const k = n++;
            const isCheck = Math.floor((k + 1) * checkShare) > Math.floor(k * checkShare);
            const t = performance.now();
            try {
              const r = isCheck ? await client.postForm(`${base}/orders/check`, s.cookie, origin, { csrf: s.csrf, turn: '2', text: `${s.sheet}\n# typed ${k}\n` }) : await client.get(`${base}/report`, s.cookie);
              const body = r.body;
              const ms = performance.now() - t;
              if (r.status !== 200 || !(isCheck ? body.includes('class="verdict') : body.includes('class="report"'))) errors++;
              else {
                (isCheck ? check : report).push(ms);
                seen.push({ at: t - started, ms, check: isCheck });
              }
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
      const clientUsed = process.cpuUsage(clientBefore);
      const after = await usage();
      const cpuMs = (u: Usage) => (u.user + u.system) / 1000;
      const per = (ms: number) => ms / Math.max(1, answered);
      const settled = (isCheck: boolean) => latencies(seen.filter((r) => r.at >= 3000 && r.check === isCheck).map((r) => r.ms));
      return { seconds: elapsed, report: latencies(report), check: latencies(check), settled: { report: settled(false), check: settled(true) }, throughput: answered / elapsed, errors, serverCpuMs: per(cpuMs(after) - cpuMs(before)), deskThreadCpuMs: per(after.deskThread - before.deskThread), clientCpuMs: per((clientUsed.user + clientUsed.system) / 1000), loopDelay: after.loop, ...(opts.timeline ? { timeline: timelineOf(seen) } : {}) };
    };
    // A fixed sequence of pauses (no Math.random in this project): 1 to 3 s, spread evenly.
    let p = 0;
    const players = runs.has('players') ? await load(checkShare, () => 1000 + ((p++ * 7919) % 2000)) : NOT_RUN;
    const reportsFlatOut = runs.has('reports') ? await load(0, () => 0) : NOT_RUN;
    const checksFlatOut = runs.has('checks') ? await load(1, () => 0) : NOT_RUN;
    client.close();
    return { nations, clients, players, reportsFlatOut, checksFlatOut, serverPeakMiB: peakMiB(server.pid), loadAverage: loadavg()[0] ?? NaN };
  } finally {
    server?.kill('SIGTERM');
    await rm(root, { recursive: true, force: true });
  }
}

/** Each second of a run: how many answers of each kind began in it, and the slowest of each. */
function timelineOf(seen: readonly { at: number; ms: number; check: boolean }[]): NonNullable<LoadResult['timeline']> {
  const out: NonNullable<LoadResult['timeline']> = [];
  for (const r of seen) {
    const second = Math.floor(r.at / 1000);
    while (out.length <= second) out.push({ second: out.length, reports: 0, checks: 0, slowestReport: 0, slowestCheck: 0 });
    const row = out[second]!;
    if (r.check) {
      row.checks++;
      row.slowestCheck = Math.max(row.slowestCheck, r.ms);
    } else {
      row.reports++;
      row.slowestReport = Math.max(row.slowestReport, r.ms);
    }
  }
  return out;
}

export function webBenchLine(r: WebBenchResult): string {
  const ms = (x: number) => `${Math.round(x)} ms`;
  const l = (what: string, x: Latencies) => `${what} p50 ${ms(x.p50)}, p95 ${ms(x.p95)}, p99 ${ms(x.p99)} (${x.count})`;
  const timeline = (x: LoadResult) => (x.timeline ?? []).map((t) => `\n    ${String(t.second).padStart(3)} s: ${t.reports} pages (slowest ${ms(t.slowestReport)}), ${t.checks} checks (slowest ${ms(t.slowestCheck)})`).join('');
  const run = (what: string, x: LoadResult) => x.seconds === 0 ? '' : `  ${what} (${x.seconds.toFixed(0)} s): ${[x.report.count ? l('report page', x.report) : '', x.check.count ? l('live check', x.check) : ''].filter(Boolean).join('; ')}; ${x.throughput.toFixed(0)} requests/s; CPU a request: server ${x.serverCpuMs.toFixed(1)} ms (its desk thread ${x.deskThreadCpuMs.toFixed(1)} ms), bench's clients ${x.clientCpuMs.toFixed(1)} ms; after the first 3 s: ${[x.settled.report.count ? l('report page', x.settled.report) : '', x.settled.check.count ? l('live check', x.settled.check) : ''].filter(Boolean).join('; ') || 'none'}; the desk's thread late by p50 ${ms(x.loopDelay.p50)}, p99 ${ms(x.loopDelay.p99)}, at most ${ms(x.loopDelay.max)}; ${x.errors} errors${timeline(x)}`;
  return [`web: ${r.clients} clients on a ${r.nations}-nation campaign, each its own nation; server peak ${Math.round(r.serverPeakMiB)} MiB; load average ${r.loadAverage.toFixed(1)} at the end`, run('players, 1–3 s between requests, a quarter checks', r.players), run('report pages alone, flat out', r.reportsFlatOut), run('live checks alone, flat out', r.checksFlatOut)].filter(Boolean).join('\n');
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--server');
  if (i >= 0) {
    await serve(process.argv[i + 1]!);
    return;
  }
  console.log(`Fatecraft web desk benchmark — node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`);
  const text = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const runs = text('--runs')?.split(',') as WebBenchOptions['runs'];
  const campaign = text('--campaign');
  const result = await runWebBench({
    nations: arg('--nations', 1000),
    clients: arg('--clients', 200),
    seconds: arg('--seconds', 30),
    checks: arg('--checks', 0.25),
    ...(runs ? { runs } : {}),
    ...(campaign ? { campaign } : {}),
    serverFlags: text('--server-flags')?.split(' ').filter(Boolean) ?? [],
    timeline: process.argv.includes('--timeline'),
    client: text('--client') === 'fetch' ? 'fetch' : 'http',
    together: process.argv.includes('--together'),
  });
  console.log(webBenchLine(result));
  if (process.argv.includes('--json')) console.log(JSON.stringify(result));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
