import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTransport } from 'nodemailer';
import { writeYaml } from '../src/campaign/yaml-io.js';
import { generateCampaign } from '../src/generate/synthetic.js';
import { writeSyntheticCampaign } from '../src/generate/write.js';
import { fetchMail } from '../src/mailroom/fetch.js';
import type { FaultPoint } from '../src/mailroom/runtime.js';
import { staticSecrets } from '../src/mailroom/secrets.js';
import { mailServersAvailable, startMailServers } from '../test/support/mail-servers.js';

/**
 * The mail stage of `npm run bench`: N order mails (default 1,000) sent by players through the SMTP relay
 * into a real Dovecot, then one `fetchMail` run over IMAP that reads them, files the orders and sends a
 * receipt for each back through the relay. Timed: the fetch run (list + handle every message + send every
 * receipt), with its parts.
 *
 *   node dist/bench/mail.js [--messages 1000] [--nations 100]
 *
 * Needs the mail test servers (Dovecot, root): see docs/mail-testing.md.
 */
export interface MailBenchResult {
  messages: number;
  nations: number;
  /** Seconds for the players to send them all (through the relay into Dovecot); not part of the figure. */
  deliver: number;
  /** Seconds for the whole fetch run: the figure (target: under 60 s on the 2-core machine). */
  fetch: number;
  /**
   * Its parts: reading the inbox over IMAP; handling every message (parse, decide, file, queue, move), with
   * the receipts going out alongside since issue 37; then the sending left when the last message is done.
   */
  list: number;
  handle: number;
  send: number;
  filed: number;
  receipts: number;
  peakMiB: number;
}

export async function runMailBench(opts: { messages?: number; nations?: number } = {}): Promise<MailBenchResult> {
  const messages = opts.messages ?? 1000;
  const nations = opts.nations ?? 100;
  const root = await mkdtemp(join(tmpdir(), 'fatecraft-mailbench-'));
  const servers = await startMailServers();
  try {
    const campaignAddress = 'turns@bench.test';
    const generated = generateCampaign({ nations, unitsPerNation: 10, width: 140, height: 140, seed: 'mail-bench' });
    const ids = Object.keys(generated.orders).sort();
    const tokens: Record<string, string> = {};
    const book = generated.campaign.nations as Record<string, Record<string, unknown>>;
    for (const id of Object.keys(book)) {
      book[id]!.email = [`${id}@players.bench.test`];
      tokens[id] = `token-${id}`;
    }
    generated.campaign.mail = {
      transport: 'imap',
      from: `Bench <${campaignAddress}>`,
      gm: 'gm@bench.test',
      imap: { host: servers.imap.host, port: servers.imap.port, user: campaignAddress, passwordEnv: 'BENCH_IMAP_PASSWORD' },
      smtp: { host: servers.smtp.host, port: servers.smtp.port, concurrency: 8 },
    };
    const dir = join(root, 'campaign');
    await writeSyntheticCampaign(dir, generated);
    await rm(join(dir, 'orders'), { recursive: true, force: true }); // every order comes by mail
    for (const address of [campaignAddress, 'gm@bench.test', ...Object.keys(book).map((id) => `${id}@players.bench.test`)]) await servers.addUser(address, 'bench-pass');

    // The players send: each nation's generated orders pasted as YAML, with its token, round-robin.
    let t = performance.now();
    const transport = createTransport({ host: servers.smtp.host, port: servers.smtp.port, secure: false, pool: true, maxConnections: 8, logger: false });
    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < messages; i++) {
      const nation = ids[i % ids.length]!;
      const sheet = { ...generated.orders[nation], token: tokens[nation] };
      sends.push(transport.sendMail({ from: `${nation}@players.bench.test`, to: campaignAddress, subject: `Orders ${nation} turn 1`, messageId: `<bench-${i}@players.bench.test>`, text: `Dear GM,\n\n${writeYaml(sheet)}\nRegards\n` }));
    }
    await Promise.all(sends);
    transport.close();
    const deliver = (performance.now() - t) / 1000;

    const marks: Partial<Record<'listed' | 'handled', number>> = {};
    const faults = (point: FaultPoint) => {
      if (point === 'after-list') marks.listed ??= performance.now();
      if (point === 'after-done' || point === 'after-move') marks.handled = performance.now();
    };
    t = performance.now();
    const summary = await fetchMail(dir, { secrets: staticSecrets(tokens, { BENCH_IMAP_PASSWORD: 'bench-pass' }), faults });
    const end = performance.now();
    if (summary.error !== undefined) throw new Error(`the fetch stopped: ${summary.error}`);
    const listed = marks.listed ?? t;
    const handled = marks.handled ?? listed;
    return {
      messages,
      nations,
      deliver,
      fetch: (end - t) / 1000,
      list: (listed - t) / 1000,
      handle: (handled - listed) / 1000,
      send: (end - handled) / 1000,
      filed: summary.filed.length,
      receipts: summary.sent.sent.length,
      peakMiB: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    await servers.stop();
    await rm(root, { recursive: true, force: true });
  }
}

export function mailBenchLine(r: MailBenchResult): string {
  const s = (x: number) => x.toFixed(1);
  return `mail: ${r.messages} order mails from ${r.nations} nations through Dovecot + SMTP relay — fetch+file+receipt ${s(r.fetch)} s (IMAP read ${s(r.list)}, handle ${s(r.handle)} with receipts sent alongside, then send ${s(r.send)}; ${(r.fetch * 1000 / r.messages).toFixed(1)} ms per mail), ${r.filed} filed, ${r.receipts} receipts sent; players' sending ${s(r.deliver)} s; peak ${Math.round(r.peakMiB)} MiB`;
}

async function main(): Promise<void> {
  if (!mailServersAvailable()) {
    console.log('mail: skipped (needs Dovecot and root; see docs/mail-testing.md)');
    return;
  }
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? Number(process.argv[i + 1]) : undefined;
  };
  console.log(`Fatecraft mail benchmark — node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`);
  const result = await runMailBench({ ...(arg('--messages') ? { messages: arg('--messages')! } : {}), ...(arg('--nations') ? { nations: arg('--nations')! } : {}) });
  console.log(mailBenchLine(result));
  if (process.argv.includes('--json')) console.log(JSON.stringify(result));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
