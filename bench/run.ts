import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { turnRenderers } from '../src/cli/renderers.js';
import { NATION_FORMATS } from '../src/report/render.js';
import { reportFormatsSchema } from '../src/report/renderer.js';
import { generateCampaign, silenced } from '../src/generate/synthetic.js';
import { writeSyntheticCampaign } from '../src/generate/write.js';
import { mailServersAvailable } from '../test/support/mail-servers.js';
import { mailBenchLine, runMailBench } from './mail.js';
import { runWebBench, webBenchLine } from './web.js';
import { timeStages, type StageTimes } from './stages.js';

/**
 * `npm run bench`: for each world size, generates a synthetic campaign and
 * times every stage of a turn in a fresh child process (so each size's peak
 * memory is its own). Prints a table; `--sizes 10,100` picks sizes, `--units`
 * the units per nation, `--formats txt,html,orders` the nations' report files
 * made (campaign.yaml `reports.formats`; all five by default).
 *
 * Then the mail stage (bench/mail.ts): 1,000 order mails through a real
 * Dovecot and SMTP relay, when they are installed (`--no-mail` skips it). Then the web desk's stage
 * (bench/web.ts): 200 clients reading reports and checking sheets of a 1,000-nation campaign (`--no-web`
 * skips it; `--web-nations`, `--clients`, `--web-seconds` size it).
 *
 * `--silent`: every player silent, the caretaker plays every nation (the world is the same as without it).
 *
 * Usage: npm run bench [-- --sizes 10,100,1000 --units 100 --formats txt,html,orders --silent --no-mail --no-web]
 */
interface ChildResult extends StageTimes {
  peakMiB: number;
}

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};

async function child(dir: string, nations: number, units: number, formats: readonly string[] | undefined, silent: boolean): Promise<void> {
  await mkdir(dir, { recursive: true });
  const side = Math.min(400, Math.max(24, Math.ceil(Math.sqrt(nations) * 13)));
  const world = generateCampaign({ nations, unitsPerNation: units, width: side, height: side, seed: `bench-${nations}` });
  // --silent: the same world with every player silent, each nation played by its caretaker (issue 35).
  const generated = silent ? silenced(world) : world;
  // Checked with the rest of campaign.yaml when the turn loads it.
  if (formats) generated.campaign.reports = { formats };
  await writeSyntheticCampaign(dir, generated);
  const times = await timeStages(dir, turnRenderers());
  const peakMiB = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ ...times, peakMiB }));
}

function row(r: ChildResult): string {
  const s = (ms: number) => (ms / 1000).toFixed(2).padStart(7);
  const turn = r.load + r.parseOrders + r.resolve + r.reports + r.flush;
  const ratio = (r.resolve + r.reports) / r.baseline;
  return [
    String(r.nations).padStart(7),
    String(r.units).padStart(8),
    s(r.load),
    s(r.parseOrders),
    s(r.resolve),
    s(r.write),
    s(r.reports),
    s(r.flush),
    s(turn),
    s(r.baseline),
    ratio.toFixed(2).padStart(6),
    String(Math.round(r.units / (turn / 1000))).padStart(9),
    String(Math.round(r.peakMiB)).padStart(8),
  ].join(' ');
}

/** `--formats`, when given: the nations' report files to make, checked as campaign.yaml's `reports.formats` is. */
function formatsArg(): string[] | undefined {
  const list = arg('--formats', '');
  if (!list) return undefined;
  const parsed = reportFormatsSchema.safeParse(list.split(',').map((f) => f.trim()));
  if (!parsed.success) {
    console.error(`bench: --formats "${list}": ${parsed.error.issues.map((i) => i.message).join('; ')} (formats: ${NATION_FORMATS.join(', ')})`);
    process.exit(2);
  }
  return parsed.data;
}

async function main(): Promise<void> {
  if (process.argv.includes('--child')) {
    const dir = arg('--dir', '');
    if (!dir) throw new Error('bench: --child runs in the folder --dir names (the parent makes it)');
    await child(dir, Number(arg('--nations', '10')), Number(arg('--units', '100')), formatsArg(), process.argv.includes('--silent'));
    return;
  }
  const sizes = arg('--sizes', '10,100,250,500,1000').split(',').map(Number);
  const units = Number(arg('--units', '100'));
  const formats = formatsArg();
  console.log(`Fatecraft turn benchmark — node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB`);
  console.log('Seconds per stage; turn = load + orders + resolve + reports + flush (the whole turn: write runs inside reports, beside');
  console.log('the report workers); ratio = (resolve + reports) / YAML baseline.');
  if (formats) console.log(`Each nation's report files: ${formats.join(', ')} (reports.formats).`);
  console.log(' nations    units    load  orders resolve  (write) reports   flush    turn baseline  ratio  units/s peak MiB');
  // Every size's files stay until the whole run ends: on a machine that gives freed memory back to
  // its host (as this project's do), deleting half a gigabyte just before the next size is timed
  // makes that size's writes several times slower (docs/benchmarks.md, "The machine").
  const root = await mkdtemp(join(tmpdir(), 'fatecraft-bench-'));
  try {
    for (const nations of sizes) {
      const args = ['--max-old-space-size=4096', process.argv[1] ?? '', '--child', '--dir', join(root, String(nations)), '--nations', String(nations), '--units', String(units), ...(formats ? ['--formats', formats.join(',')] : []), ...(process.argv.includes('--silent') ? ['--silent'] : [])];
      const out = execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
      console.log(row(JSON.parse(out) as ChildResult));
    }
    if (process.argv.includes('--no-mail')) {
      // skipped
    } else if (!mailServersAvailable()) {
      console.log('mail stage skipped: Dovecot is not installed (bash .ci/mail-setup.sh)');
    } else {
      console.log(mailBenchLine(await runMailBench({ messages: Number(arg('--messages', '1000')) })));
    }
    if (!process.argv.includes('--no-web')) console.log(webBenchLine(await runWebBench({ nations: Number(arg('--web-nations', '1000')), clients: Number(arg('--clients', '200')), seconds: Number(arg('--web-seconds', '30')) })));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
