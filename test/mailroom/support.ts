/**
 * Helpers for the mailroom tests: scratch copies of the demo campaign (which plays by mail through the folder
 * transport), the demo players' tokens, a settable clock, and snapshots of what a run left behind.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { FolderInbox, FolderOutbox } from '../../src/mail/folder-transport.js';
import type { OutboundMessage } from '../../src/mail/types.js';
import { Ledger } from '../../src/mailroom/ledger.js';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import type { MailClock } from '../../src/mailroom/runtime.js';
import { staticSecrets } from '../../src/mailroom/secrets.js';
import type { MailTransport } from '../../src/mailroom/transport.js';
import { hangLimit } from '../support/limits.js';
import { startMailServers, type MailServers } from '../support/mail-servers.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const DEMO = join(ROOT, 'campaigns', 'silversheen');
export const FIXTURES = join(ROOT, 'test', 'fixtures', 'mailroom');

export const TOKENS: Record<string, string> = {
  argenta: 'silver-sails-1021',
  gondarahl: 'starkrock-deep',
  grarkul: 'bloodtusk-bones',
  vulcanstille: 'ash-and-chains',
  westvalia: 'brass-and-thunder',
};

export const ADDRESSES: Record<string, string> = {
  argenta: 'duke@argenta.test',
  gondarahl: 'king@gondarahl.test',
  grarkul: 'warchief@grarkul.test',
  vulcanstille: 'magister@vulcanstille.test',
  westvalia: 'thane@westvalia.test',
};

export const secrets = (extra: Record<string, string> = {}) => staticSecrets(TOKENS, extra);

export interface Scratch {
  root: string;
  dir: string;
  cleanup: () => void;
}

const scratches: Scratch[] = [];

/**
 * A copy of the demo campaign. `yamlOrders: false` removes its turn-1 YAML orders, as the demo does, so every
 * order comes by mail (the GM's `_gm.yaml` stays, as in the demo); the demo's own inbox mails are removed unless `demoMail` is set.
 */
export function demoCopy(label: string, opts: { yamlOrders?: boolean; demoMail?: boolean } = {}): Scratch {
  const root = mkdtempSync(join(tmpdir(), `fc-mailroom-${label}-`));
  const dir = join(root, 'silversheen');
  cpSync(DEMO, dir, { recursive: true });
  if (opts.yamlOrders === false) {
    for (const name of readdirSync(join(dir, 'orders', '0001'))) if (name.endsWith('.yaml') && name !== '_gm.yaml') rmSync(join(dir, 'orders', '0001', name));
  }
  if (!opts.demoMail) rmSync(join(dir, 'mail', 'inbox'), { recursive: true, force: true });
  mkdirSync(join(dir, 'mail', 'inbox'), { recursive: true });
  const scratch = { root, dir, cleanup: () => rmSync(root, { recursive: true, force: true }) };
  scratches.push(scratch);
  return scratch;
}

export function cleanupAll(): void {
  for (const s of scratches.splice(0)) s.cleanup();
}

/**
 * Starts the real Dovecot and SMTP relay for the enclosing describe block and
 * hands them over once they are up; after the block, stops them and removes
 * its scratch campaigns.
 */
export function withMailServers(started: (servers: MailServers) => void): void {
  let servers: MailServers | undefined;
  beforeAll(async () => {
    servers = await startMailServers();
    started(servers);
  });
  afterAll(async () => {
    await servers?.stop();
    cleanupAll();
  });
}

/** Replaces the `mail:` block of a campaign copy's campaign.yaml. */
export function setMailBlock(dir: string, block: string): void {
  const file = join(dir, 'campaign.yaml');
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf('\nmail:\n');
  const end = text.indexOf('\nnations:\n');
  if (start < 0 || end < start) throw new Error('no mail: block before nations: in campaign.yaml');
  writeFileSync(file, `${text.slice(0, start)}\n${block.trimEnd()}\n${text.slice(end)}`);
}

/** Adds an address to a nation's email list in a campaign copy. */
export function addEmail(dir: string, nation: string, address: string): void {
  const file = join(dir, 'campaign.yaml');
  const text = readFileSync(file, 'utf8');
  const re = new RegExp(`(\\n  ${nation}:\\n(?:    .*\\n)*?    email: \\[)([^\\]]*)\\]`);
  if (!re.test(text)) throw new Error(`no email list for ${nation}`);
  writeFileSync(file, text.replace(re, (_m, head: string, list: string) => `${head}${list}, ${address}]`));
}

export function dropInInbox(dir: string, name: string, content: Buffer | string): void {
  mkdirSync(join(dir, 'mail', 'inbox'), { recursive: true });
  writeFileSync(join(dir, 'mail', 'inbox', name), content);
}

/** A clock that stays where it is put; pauses return at once but are counted. */
export class TestClock implements MailClock {
  slept: number[] = [];
  private t: number;

  constructor(start = '2026-03-08T12:00:00Z') {
    this.t = Date.parse(start);
  }

  now(): Date {
    return new Date(this.t);
  }

  set(at: string | Date): void {
    this.t = new Date(at).getTime();
  }

  advance(ms: number): void {
    this.t += ms;
  }

  async sleep(ms: number): Promise<void> {
    this.slept.push(ms);
  }
}

export function files(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((n) => !n.startsWith('.')).sort() : [];
}

/**
 * What a campaign's mail left on disk, for comparing an interrupted-and-resumed run with an uninterrupted
 * one: filed orders, what left the inbox and where to, the ledger's outcomes and the queue's statuses.
 */
export async function snapshot(dir: string): Promise<Record<string, unknown>> {
  const mail = join(dir, 'mail');
  const orders: Record<string, string> = {};
  for (const turn of files(join(dir, 'orders'))) {
    for (const name of files(join(dir, 'orders', turn))) {
      // Filed YAML carries the time the mail was received; that is the one thing allowed to differ.
      orders[`${turn}/${name}`] = readFileSync(join(dir, 'orders', turn, name), 'utf8').replace(/^# Received: .*$/m, '# Received: …');
    }
  }
  const ledger = (await new Ledger(mail).all()).map((e) => ({ key: e.key, status: e.status, outcome: e.outcome, folder: e.folder, queued: e.queued }));
  const queue = (await new OutboxQueue(mail).all()).map((q) => ({ id: q.messageId, kind: q.kind, status: q.status, to: q.message.to }));
  return { orders, inbox: files(join(mail, 'inbox')), processed: files(join(mail, 'processed')), quarantine: files(join(mail, 'quarantine')), outbox: files(join(mail, 'outbox')), ledger, queue };
}

/**
 * Every file under `dir` (dot-files too), by path relative to it, with its content: for comparing a run
 * killed and run again with an uninterrupted one byte for byte. The folder itself is named <campaign> in
 * the contents (the folder transport writes where it put each mail).
 */
export function everyFile(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else out[path] = readFileSync(join(dir, path), 'utf8').replaceAll(dir, '<campaign>');
    }
  };
  walk('');
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Real servers (test/support/mail-servers.ts)
// ---------------------------------------------------------------------------------------------------------

export const CAMPAIGN_ADDRESS = 'turns@silversheen.test';
export const GM_ADDRESS = 'gm@silversheen.test';
export const PASSWORD = 'pass-word';
export const IMAP_PASSWORD_ENV = 'FC_TEST_IMAP_PASSWORD';

interface ServerEndpoints {
  imap: { host: string; port: number };
  smtp: { host: string; port: number };
}

/**
 * SMTP timeouts for the harness's relay: it answers as soon as the test process (whose event loop it shares)
 * gets the CPU, which on a busy machine can take longer than the defaults of a few seconds.
 */
export const RELAY_TIMEOUTS = `timeouts: { connectMs: ${relayLimit(30_000)}, greetingMs: ${relayLimit(30_000)}, socketMs: ${relayLimit(60_000)} }`;

function relayLimit(ms: number): number {
  return Math.min(600_000, hangLimit(ms)); // campaign.yaml allows ten minutes at most
}

/**
 * The mail: block of a demo copy that reads its mailbox on the harness's Dovecot and sends through the relay
 * (or, with `smtpPort`, another SMTP server on this machine). `smtp` replaces the smtp: line's timeouts.
 */
export function imapMailBlock(servers: ServerEndpoints, opts: { smtpPort?: number; smtp?: string; concurrency?: number; maxRuns?: number; extra?: string } = {}): string {
  const smtp = opts.smtpPort === undefined ? servers.smtp : { host: '127.0.0.1', port: opts.smtpPort };
  return `mail:
  transport: imap
  from: "The Silversheen Sea <${CAMPAIGN_ADDRESS}>"
  gm: ${GM_ADDRESS}
  imap: { host: ${servers.imap.host}, port: ${servers.imap.port}, user: ${CAMPAIGN_ADDRESS}, passwordEnv: ${IMAP_PASSWORD_ENV} }
  smtp: { host: ${smtp.host}, port: ${smtp.port}, concurrency: ${opts.concurrency ?? 4}, ${opts.smtp ?? RELAY_TIMEOUTS} }
  retry: { attemptsPerRun: 3, firstDelayMs: 20, backoffMinutes: 1, maxRuns: ${opts.maxRuns ?? 3} }
${opts.extra ?? ''}`;
}

/** A demo campaign copy that reads its mailbox over IMAP and sends through the relay; every address has a mailbox. */
export async function imapCampaign(
  servers: ServerEndpoints & { addUser(a: string, p: string): Promise<void> },
  label: string,
  opts: { yamlOrders?: boolean; extra?: string; concurrency?: number } = {},
): Promise<Scratch> {
  const scratch = demoCopy(label, { yamlOrders: opts.yamlOrders ?? false });
  setMailBlock(scratch.dir, imapMailBlock(servers, opts));
  for (const address of [CAMPAIGN_ADDRESS, GM_ADDRESS, ...Object.values(ADDRESSES)]) await servers.addUser(address, PASSWORD);
  return scratch;
}

export const imapSecrets = () => secrets({ [IMAP_PASSWORD_ENV]: PASSWORD });

/**
 * A plain-text order mail from Argenta's Duke to the demo campaign, turn 1, with its token and `lines`.
 * `date` is the Date header; `replyTo` and `transferEncoding` add those headers.
 */
export function argentaOrdersMail(id: string, lines: string[], opts: { date: string; replyTo?: boolean; transferEncoding?: string }): string {
  return [
    'From: Duke Cristoval <duke@argenta.test>',
    'To: The Silversheen Sea <turns@silversheen.test>',
    'Subject: Orders',
    `Date: ${opts.date}`,
    `Message-ID: <${id}@argenta.test>`,
    ...(opts.replyTo ? ['Reply-To: Duke Cristoval <duke@argenta.test>'] : []),
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    ...(opts.transferEncoding ? [`Content-Transfer-Encoding: ${opts.transferEncoding}`] : []),
    '',
    'Turn: 1',
    `Token: ${TOKENS.argenta}`,
    ...lines,
    '',
  ].join('\r\n');
}

/** A folder transport that counts every message handed to the "server", `concurrency` at a time. */
export function countingTransport(dir: string, concurrency: number): MailTransport & { sends: Map<string, number> } {
  const sends = new Map<string, number>();
  const folder = new FolderOutbox({ dir: join(dir, 'mail', 'outbox') });
  return {
    sends,
    inbox: new FolderInbox({ mailDir: join(dir, 'mail') }),
    outbox: {
      send: async (m: OutboundMessage) => {
        const result = await folder.send(m);
        sends.set(m.messageId, (sends.get(m.messageId) ?? 0) + 1);
        return result;
      },
      close: () => folder.close(),
    },
    concurrency,
    describe: 'counting folder',
    uidValidity: () => undefined,
    close: async () => undefined,
  };
}
