import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { simpleParser, type ParsedMail } from 'mailparser';
import { createTransport } from 'nodemailer';
import { afterAll, describe, expect, it } from 'vitest';
import { OutboxQueue, type QueuedMessage } from '../../src/mailroom/outbox.js';
import { mailServersAvailable, type MailServers } from '../support/mail-servers.js';
import { RELAY_TIMEOUTS, withMailServers } from '../mailroom/support.js';
import { cleanupScratch, scratchDir } from '../schedule/support.js';
import { runInProcess } from '../support/command-line.js';

/**
 * A campaign's whole first week as a new GM runs it from the command line: `new` → the GM writes the
 * players' addresses → `start` (each player gets the welcome: starting report, order sheet, token, deadline;
 * the GM the GM's report) → the players answer with those tokens → `tick` before and after the deadline →
 * the reports of turn 1 go out → `rerun` → the corrected reports go out. Over the folder transport and over
 * the real IMAP/SMTP servers; every message counted in the outgoing queue (and, over the servers, in each
 * player's mailbox and at the relay): none sent twice, none missing.
 */
afterAll(cleanupScratch);

const MONDAY = '2026-03-02T12:00:00Z'; // the deadline is then Sunday 8 March, 18:00 London (GMT)
const BEFORE_DEADLINE = '2026-03-08T16:00:00Z';
const AFTER_GRACE = '2026-03-08T18:20:00Z';
const PLAYERS = { northmark: 'edda@north.test', southmoor: 'aldo@south.test' } as const;
type Nation = keyof typeof PLAYERS;
const NATIONS = Object.keys(PLAYERS) as Nation[];
const GUARD: Record<Nation, string> = { northmark: 'nm-guard', southmoor: 'sm-guard' };

interface Game {
  root: string;
  dir: string;
  secrets: string;
  env: Record<string, string>;
}

function newGame(label: string, env: Record<string, string> = {}): Game {
  const root = scratchDir(label);
  return { root, dir: join(root, 'iron-coast'), secrets: join(root, 'private', 'iron-coast.secrets.yaml'), env };
}

/** `fatecraft <args>` as the GM runs it in the game's parent folder (in this process: test/support/command-line.ts). */
const fc = (game: Game, args: string[], now: string) => runInProcess(args, { cwd: game.root, env: { FATECRAFT_NOW: now, FATECRAFT_SECRETS: game.secrets, FATECRAFT_LOCK_WAIT: '0', ...game.env } });

/** What the GM does after `new`: the players' addresses in place of the template's, and (optionally) the mail block. */
function fillIn(game: Game, mailBlock?: string): void {
  const file = join(game.dir, 'campaign.yaml');
  let text = readFileSync(file, 'utf8');
  for (const nation of NATIONS) text = text.replace(`email: [${nation}-player@example.org]`, `email: [${PLAYERS[nation]}]`);
  if (mailBlock !== undefined) text = text.replace(/^mail:\n(?:[ \t]+.*\n)*/m, `${mailBlock.trimEnd()}\n`);
  writeFileSync(file, text);
}

const tokens = (game: Game) => load(readFileSync(game.secrets, 'utf8')) as Record<string, string>;
const queue = (game: Game) => new OutboxQueue(join(game.dir, 'mail')).all();
const byKind = (entries: QueuedMessage[]) => entries.reduce<Record<string, number>>((n, e) => ({ ...n, [e.kind]: (n[e.kind] ?? 0) + 1 }), {});

/** Every file of the campaign folder except the mail (which carries each player's own token to them). */
function campaignFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (path === 'mail') continue;
    if (entry.isDirectory()) out.push(...campaignFiles(dir, path));
    else out.push(path);
  }
  return out;
}

/** The welcome as a player reads it: token, deadline and the order sheet with the token in it. */
function checkWelcome(mail: ParsedMail, nation: Nation, token: string): void {
  expect(mail.subject).toContain('starting report');
  expect(mail.text).toContain(`Your order token: ${token}`);
  expect(mail.text).toContain('Orders for turn 1 are due Sun 8 Mar 2026 18:00 GMT.');
  expect(mail.text).toContain(`"Token: ${token}"`);
  expect(mail.text).toMatch(/Turn 0: the starting position/);
  const sheet = mail.attachments.find((a) => a.filename === `${nation}-orders.yaml`);
  expect(sheet, 'the order sheet is attached').toBeDefined();
  expect(sheet!.content.toString('utf8')).toContain(`token: "${token}"`);
  // One nation's mail holds no other nation's token.
  for (const other of NATIONS.filter((n) => n !== nation)) expect(mail.text).not.toContain(`"Token: ${other}`);
}

describe('starting a campaign: new → start → orders by mail → tick (folder transport)', () => {
  it('mails every player the welcome once, takes their orders with those tokens, and mails turn 1\'s reports once', async () => {
    const game = newGame('start-folder');
    const made = await fc(game, ['new', 'iron-coast'], MONDAY);
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toContain('Made the campaign "iron-coast"');
    fillIn(game);

    const started = await fc(game, ['start', 'iron-coast'], MONDAY);
    expect(started.status, started.stderr).toBe(0);
    expect(started.stdout).toContain('Order tokens: issued for The Northmark (northmark), The Southmoor (southmoor)');
    expect(started.stdout).toContain('orders for turn 1 are due Sun 8 Mar 2026 18:00 GMT');
    expect(started.stdout).toContain('Sent 3 message(s).');

    // The tokens: in the private secrets file (mode 0600), in no file of the campaign folder.
    const issued = tokens(game);
    expect(Object.keys(issued).sort()).toEqual(NATIONS);
    expect(statSync(game.secrets).mode & 0o777).toBe(0o600);
    for (const path of campaignFiles(game.dir)) {
      const text = readFileSync(join(game.dir, path), 'utf8');
      for (const token of Object.values(issued)) expect(text.includes(token), `${path} holds a token`).toBe(false);
    }
    expect(existsSync(join(game.dir, 'turns', '0000', 'reports', 'northmark.txt'))).toBe(true);

    const outbox = join(game.dir, 'mail', 'outbox');
    const read = async (name: string) => simpleParser(readFileSync(join(outbox, name)));
    const afterStart = readdirSync(outbox).sort();
    expect(afterStart).toHaveLength(3);
    for (const nation of NATIONS) {
      const name = afterStart.find((n) => n.startsWith(`fatecraft.start.${nation}.`));
      const mail = await read(name!);
      expect(mail.to).toMatchObject({ text: PLAYERS[nation] });
      checkWelcome(mail, nation, issued[nation]!);
    }
    const gm = await read(afterStart.find((n) => n.startsWith('fatecraft.gm-report.t0000'))!);
    expect(gm.to).toMatchObject({ text: 'gm@example.org' });
    expect(gm.text).toContain('Starting reports, order sheets and tokens mailed to: northmark, southmoor.');

    // Twice: nothing new, nothing sent, the tokens kept.
    const again = await fc(game, ['start', 'iron-coast'], MONDAY);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('Order tokens: kept for The Northmark (northmark), The Southmoor (southmoor)');
    expect(again.stdout).toContain('Queued by an earlier run (not again): The Northmark (northmark), The Southmoor (southmoor).');
    expect(again.stdout).toContain('Sent 0 message(s).');
    expect(readdirSync(outbox).sort()).toEqual(afterStart);
    expect(tokens(game)).toEqual(issued);

    // The players answer with the tokens they were mailed.
    for (const nation of NATIONS) {
      writeFileSync(
        join(game.dir, 'mail', 'inbox', `${nation}.eml`),
        `From: ${PLAYERS[nation]}\r\nTo: turns@example.org\r\nSubject: Re: my orders\r\nDate: Tue, 03 Mar 2026 10:00:00 +0000\r\nMessage-ID: <orders-${nation}@test>\r\n\r\nToken: ${issued[nation]}\r\nhold ${GUARD[nation]}\r\n`,
      );
    }
    const early = await fc(game, ['tick', 'iron-coast'], BEFORE_DEADLINE);
    expect(early.status, early.stdout + early.stderr).toBe(0);
    expect(early.stdout).toContain('read 2 message(s)');
    expect(early.stdout).not.toContain('started the campaign'); // `start` did it
    const due = await fc(game, ['tick', 'iron-coast'], AFTER_GRACE);
    expect(due.status, due.stdout + due.stderr).toBe(0);
    expect(due.stdout).toContain('resolved turn 1');
    expect(due.stdout).toContain('sent the reports of turn 1');

    // Counted in the outgoing queue: each message once, all sent at the first try, one file each in the outbox.
    const entries = await queue(game);
    expect(byKind(entries)).toEqual({ report: 4, 'gm-report': 2, receipt: 2 });
    expect(entries.every((e) => e.status === 'sent' && e.attempts === 1)).toBe(true);
    expect(new Set(entries.map((e) => e.messageId)).size).toBe(entries.length);
    expect(readdirSync(outbox)).toHaveLength(entries.length);
    const filed = readFileSync(join(game.dir, 'turns', '0001', 'events.yaml'), 'utf8');
    expect(filed).not.toMatch(/type: nmr/);
    for (const nation of NATIONS) {
      const about = entries.filter((e) => e.message.to.includes(PLAYERS[nation])).map((e) => e.about ?? e.kind);
      expect(about.sort()).toEqual([`receipt for ${nation}`, `report of turn 1 for ${nation}`, `starting report for ${nation}`]);
    }

    // Once turn 1 is resolved the campaign has started: `start` refuses and says what to do instead.
    const late = await fc(game, ['start', 'iron-coast'], AFTER_GRACE);
    expect(late.status).not.toBe(0);
    expect(late.stderr).toContain('the campaign has started already: turn 1 is resolved');
    expect(late.stderr).toContain('fatecraft token');

    // The GM fixes turn 1 and resolves it again: `mail send` mails the corrected reports, once, marked so.
    const rerun = await fc(game, ['rerun', 'iron-coast', '1', '--force'], '2026-03-08T19:00:00Z');
    expect(rerun.status, rerun.stdout + rerun.stderr).toBe(0);
    const send = await fc(game, ['mail', 'send', 'iron-coast'], '2026-03-08T19:05:00Z');
    expect(send.status, send.stdout + send.stderr).toBe(0);
    const afterRerun = await queue(game);
    expect(byKind(afterRerun)).toEqual({ report: 6, 'gm-report': 3, receipt: 2 });
    const corrected = afterRerun.filter((e) => !entries.some((before) => before.messageId === e.messageId));
    expect(corrected).toHaveLength(3);
    expect(corrected.map((e) => [e.status, e.attempts, e.message.subject]).sort()).toEqual([
      ['sent', 1, '[A New Fatecraft Campaign] GM report, turn 1 (rerun)'],
      ['sent', 1, '[A New Fatecraft Campaign] Turn 1 report for The Northmark (corrected)'],
      ['sent', 1, '[A New Fatecraft Campaign] Turn 1 report for The Southmoor (corrected)'],
    ]);
    expect(readdirSync(outbox)).toHaveLength(afterRerun.length);
    // Nothing twice: another send, or a tick, finds nothing owed.
    expect((await fc(game, ['mail', 'send', 'iron-coast'], '2026-03-08T19:10:00Z')).stdout).toContain('Sent 0 message(s).');
    expect((await fc(game, ['tick', 'iron-coast'], '2026-03-08T19:15:00Z')).status).toBe(0);
    expect(readdirSync(outbox)).toHaveLength(afterRerun.length);
  });

  it('the first tick of a campaign nobody started starts it: turn 0, tokens, the welcome; the next tick sends nothing again', async () => {
    const game = newGame('start-by-tick');
    expect((await fc(game, ['new', 'iron-coast'], MONDAY)).status).toBe(0);
    fillIn(game);
    const first = await fc(game, ['tick', 'iron-coast'], MONDAY);
    expect(first.status, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toContain('issued order tokens for The Northmark (northmark), The Southmoor (southmoor)');
    expect(first.stdout).toContain('started the campaign: the welcome, starting report, order sheet and token queued for The Northmark (northmark), The Southmoor (southmoor)');
    const issued = tokens(game);
    const outbox = join(game.dir, 'mail', 'outbox');
    const names = readdirSync(outbox).sort();
    expect(names.filter((n) => n.startsWith('fatecraft.start.'))).toHaveLength(2);
    for (const nation of NATIONS) checkWelcome(await simpleParser(readFileSync(join(outbox, names.find((n) => n.startsWith(`fatecraft.start.${nation}.`))!))), nation, issued[nation]!);
    const second = await fc(game, ['tick', 'iron-coast'], '2026-03-02T12:05:00Z');
    expect(second.status).toBe(0);
    expect(readdirSync(outbox).sort()).toEqual(names);
    expect(tokens(game)).toEqual(issued);
    // `start` after the tick finds it all done.
    expect((await fc(game, ['start', 'iron-coast'], '2026-03-02T12:10:00Z')).stdout).toContain('Sent 0 message(s).');
  });

  it('`token --new` replaces one nation\'s token, mails it to that player only; the old token is refused as replaced', async () => {
    const game = newGame('token-new');
    expect((await fc(game, ['new', 'iron-coast'], MONDAY)).status).toBe(0);
    fillIn(game);
    const before = await fc(game, ['token', 'iron-coast', 'northmark', '--new'], MONDAY);
    expect(before.status).not.toBe(0);
    expect(before.stderr).toContain('the campaign has not started');
    expect((await fc(game, ['start', 'iron-coast'], MONDAY)).status).toBe(0);
    const old = tokens(game);
    const outbox = join(game.dir, 'mail', 'outbox');
    const sentBefore = readdirSync(outbox);

    const noFlag = await fc(game, ['token', 'iron-coast', 'northmark'], MONDAY);
    expect(noFlag.status).not.toBe(0);
    expect(noFlag.stderr).toContain('add --new');
    const unknown = await fc(game, ['token', 'iron-coast', 'eastmarch', '--new'], MONDAY);
    expect(unknown.stderr).toContain('no nation "eastmarch" in campaign.yaml; its nations are northmark, southmoor');

    const renewed = await fc(game, ['token', 'iron-coast', 'northmark', '--new'], MONDAY);
    expect(renewed.status, renewed.stderr).toBe(0);
    expect(renewed.stdout).toContain(`Mailed it to ${PLAYERS.northmark} only.`);
    const now = tokens(game);
    expect(now.southmoor).toBe(old.southmoor);
    expect(now.northmark).not.toBe(old.northmark);
    const added = readdirSync(outbox).filter((n) => !sentBefore.includes(n));
    expect(added).toHaveLength(1);
    const mail = await simpleParser(readFileSync(join(outbox, added[0]!)));
    expect(mail.to).toMatchObject({ text: PLAYERS.northmark });
    expect(mail.text).toContain(`Your order token: ${now.northmark}`);
    expect(mail.text).not.toContain(old.northmark!);
    expect(mail.text).not.toContain(now.southmoor!);

    // The old token is refused as replaced; the new one files the orders.
    const send = (name: string, token: string) =>
      writeFileSync(join(game.dir, 'mail', 'inbox', name), `From: ${PLAYERS.northmark}\r\nTo: turns@example.org\r\nSubject: orders\r\nDate: Tue, 03 Mar 2026 10:00:00 +0000\r\nMessage-ID: <${name}@test>\r\n\r\nToken: ${token}\r\nhold nm-guard\r\n`);
    send('old.eml', old.northmark!);
    const refused = await fc(game, ['tick', 'iron-coast'], '2026-03-03T10:05:00Z');
    expect(refused.stdout).toMatch(/old\.eml: refused \(token\)/);
    send('new.eml', now.northmark!);
    const filed = await fc(game, ['tick', 'iron-coast'], '2026-03-03T10:10:00Z');
    expect(filed.stdout).toContain('filed the orders of northmark for turn 1');
    const refusal = (await queue(game)).find((e) => e.kind === 'reply' || (e.kind as string) === 'refusal');
    expect(refusal?.message.text ?? '').toMatch(/replaced/);
  });

  it('`start --new-tokens` before turn 1 replaces every token and mails each player a new welcome; a token from the environment is left alone', async () => {
    const game = newGame('new-tokens');
    expect((await fc(game, ['new', 'iron-coast'], MONDAY)).status).toBe(0);
    fillIn(game);
    expect((await fc(game, ['start', 'iron-coast'], MONDAY)).status).toBe(0);
    const old = tokens(game);
    const outbox = join(game.dir, 'mail', 'outbox');
    const first = readdirSync(outbox);
    const again = await fc(game, ['start', 'iron-coast', '--new-tokens'], MONDAY);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('Order tokens: replaced for The Northmark (northmark), The Southmoor (southmoor)');
    expect(again.stdout).toContain('Queued the welcome, starting report, order sheet and token for: The Northmark (northmark), The Southmoor (southmoor)');
    const now = tokens(game);
    for (const nation of NATIONS) expect(now[nation]).not.toBe(old[nation]);
    const added = readdirSync(outbox).filter((n) => !first.includes(n)).sort();
    expect(added.map((n) => n.split('.').slice(0, 3).join('.'))).toEqual(['fatecraft.start.northmark', 'fatecraft.start.southmoor']);
    for (const nation of NATIONS) checkWelcome(await simpleParser(readFileSync(join(outbox, added.find((n) => n.startsWith(`fatecraft.start.${nation}.`))!))), nation, now[nation]!);
    // The old tokens are known as replaced.
    const runtime = load(readFileSync(join(game.dir, 'runtime.yaml'), 'utf8')) as { retiredTokens: Record<string, string[]> };
    expect(Object.keys(runtime.retiredTokens).sort()).toEqual(NATIONS);

    const fromEnv = await fc({ ...game, env: { FATECRAFT_TOKEN_NORTHMARK: 'set-by-the-host' } }, ['start', 'iron-coast', '--new-tokens'], MONDAY);
    expect(fromEnv.status, fromEnv.stderr).toBe(0);
    expect(fromEnv.stdout).toContain('Order tokens: replaced for The Southmoor (southmoor); taken from FATECRAFT_TOKEN_* variables for The Northmark (northmark)');
    expect(tokens(game).northmark).toBe(now.northmark);
  });

  it('without a mail: block `start` writes turn 0 and the tokens, mails nothing, and says what to hand out', async () => {
    const game = newGame('start-no-mail');
    expect((await fc(game, ['new', 'iron-coast'], MONDAY)).status).toBe(0);
    const file = join(game.dir, 'campaign.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^mail:\n(?:[ \t]+.*\n)*/m, ''));
    const started = await fc(game, ['start', 'iron-coast'], MONDAY);
    expect(started.status, started.stderr).toBe(0);
    expect(started.stdout).toContain('Order tokens: issued for The Northmark (northmark), The Southmoor (southmoor)');
    expect(started.stdout).toContain('campaign.yaml has no mail: block, so nothing was mailed: hand each player turns/0000/reports/<nation>.txt, its order sheet and its token.');
    expect(existsSync(join(game.dir, 'turns', '0000', 'reports', 'southmoor-orders.yaml'))).toBe(true);
    expect(existsSync(join(game.dir, 'mail', 'outbox'))).toBe(false);
  });

  it('`new` makes a folder that loads as a campaign out of the box, and refuses a folder already in use', async () => {
    const game = newGame('new-folder');
    mkdirSync(game.dir);
    writeFileSync(join(game.dir, 'notes.txt'), 'mine');
    const refused = await fc(game, ['new', 'iron-coast'], MONDAY);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('is not empty; give the path of a new or empty folder');
    const other = newGame('new-named');
    const made = await fc(other, ['new', 'My Game'], MONDAY);
    expect(made.status, made.stderr).toBe(0);
    expect(readFileSync(join(other.root, 'My Game', 'campaign.yaml'), 'utf8')).toMatch(/^name: my-game$/m);
    const status = await fc(other, ['status', 'My Game'], MONDAY);
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toContain('Orders: 0 of 2 expected nations');
  });
});

const withServers = mailServersAvailable() || process.env.CI !== undefined;

describe.skipIf(!withServers)('starting a campaign over real IMAP and SMTP servers', () => {
  let servers: MailServers;
  withMailServers((started) => (servers = started));
  const PASSWORD = 'pass-word';
  const CAMPAIGN = 'turns@iron-coast.test';
  const GM = 'gm@iron-coast.test';

  it('players read the welcome over IMAP, answer by SMTP with its token, get turn 1\'s report, then its correction after a rerun: each message exactly once', async () => {
    const game = newGame('start-imap', { FC_START_IMAP_PASSWORD: PASSWORD });
    expect((await fc(game, ['new', 'iron-coast'], MONDAY)).status).toBe(0);
    fillIn(
      game,
      `mail:
  transport: imap
  from: "Iron Coast <${CAMPAIGN}>"
  gm: ${GM}
  imap: { host: ${servers.imap.host}, port: ${servers.imap.port}, user: ${CAMPAIGN}, passwordEnv: FC_START_IMAP_PASSWORD }
  smtp: { host: ${servers.smtp.host}, port: ${servers.smtp.port}, ${RELAY_TIMEOUTS} }
  retry: { attemptsPerRun: 3, firstDelayMs: 20, backoffMinutes: 1, maxRuns: 3 }`,
    );
    for (const address of [CAMPAIGN, GM, ...Object.values(PLAYERS)]) await servers.addUser(address, PASSWORD);

    const started = await fc(game, ['start', 'iron-coast'], MONDAY);
    expect(started.status, started.stdout + started.stderr).toBe(0);
    expect(started.stdout).toContain('Sent 3 message(s).');
    expect((await fc(game, ['start', 'iron-coast'], MONDAY)).stdout).toContain('Sent 0 message(s).');
    const issued = tokens(game);

    const mailbox = (address: string) => servers.readMailbox(address, PASSWORD);
    const smtp = createTransport({ host: servers.smtp.host, port: servers.smtp.port, secure: false, logger: false });
    for (const nation of NATIONS) {
      const box = await mailbox(PLAYERS[nation]);
      expect(box, `${nation}'s mailbox after start`).toHaveLength(1);
      const welcome = box[0]!.parsed;
      checkWelcome(welcome, nation, issued[nation]!);
      // Answer as a player would: the token read from the welcome, the order below it.
      const token = /Your order token: (\S+)/.exec(welcome.text ?? '')![1]!;
      await smtp.sendMail({ from: PLAYERS[nation], to: CAMPAIGN, subject: `Re: ${welcome.subject}`, inReplyTo: welcome.messageId, text: `Token: ${token}\nhold ${GUARD[nation]}\n` });
    }
    expect((await mailbox(GM)).map((m) => m.parsed.subject)).toEqual(['[A New Fatecraft Campaign] GM report, turn 0']);

    const early = await fc(game, ['tick', 'iron-coast'], BEFORE_DEADLINE);
    expect(early.status, early.stdout + early.stderr).toBe(0);
    expect(early.stdout).toContain('read 2 message(s)');
    const due = await fc(game, ['tick', 'iron-coast'], AFTER_GRACE);
    expect(due.status, due.stdout + due.stderr).toBe(0);
    expect(due.stdout).toContain('resolved turn 1');
    expect((await fc(game, ['tick', 'iron-coast'], '2026-03-08T18:25:00Z')).status).toBe(0);

    // Each player: the welcome, the receipt, the report of turn 1 — once each.
    for (const nation of NATIONS) {
      const box = await mailbox(PLAYERS[nation]);
      const kinds = box.map((m) => m.parsed.headers.get('x-fatecraft-kind'));
      expect(kinds, `${nation}'s mailbox`).toEqual(['report', 'receipt', 'report']);
      expect(box[1]!.parsed.text).toContain(`Accepted (1):\n  line 2: hold ${GUARD[nation]}`);
      expect(box[2]!.parsed.subject).toContain('Turn 1 report');
      expect(new Set(box.map((m) => m.parsed.messageId)).size).toBe(box.length);
    }
    expect((await mailbox(GM)).map((m) => m.parsed.subject)).toEqual(['[A New Fatecraft Campaign] GM report, turn 0', '[A New Fatecraft Campaign] GM report, turn 1']);
    // And the queue agrees: what was queued was sent, once, and reached the relay once.
    const entries = await queue(game);
    expect(byKind(entries)).toEqual({ report: 4, 'gm-report': 2, receipt: 2 });
    expect(entries.every((e) => e.status === 'sent' && e.attempts === 1)).toBe(true);
    const relayed = servers.relay.relayed.filter((r) => r.from === CAMPAIGN);
    expect(relayed).toHaveLength(entries.length);

    // The GM resolves turn 1 again: `mail send` mails the corrected reports over SMTP, once each, marked so.
    const rerun = await fc(game, ['rerun', 'iron-coast', '1', '--force'], '2026-03-08T19:00:00Z');
    expect(rerun.status, rerun.stdout + rerun.stderr).toBe(0);
    const send = await fc(game, ['mail', 'send', 'iron-coast'], '2026-03-08T19:05:00Z');
    expect(send.status, send.stdout + send.stderr).toBe(0);
    expect(send.stdout).toContain('Reports of turn 1 (corrected, rerun 1): queued for northmark, southmoor.');
    // Nothing twice: another send and a tick find nothing owed.
    expect((await fc(game, ['mail', 'send', 'iron-coast'], '2026-03-08T19:10:00Z')).stdout).toContain('Sent 0 message(s).');
    expect((await fc(game, ['tick', 'iron-coast'], '2026-03-08T19:15:00Z')).status).toBe(0);
    for (const nation of NATIONS) {
      const box = await mailbox(PLAYERS[nation]);
      expect(box.map((m) => m.parsed.headers.get('x-fatecraft-kind')), `${nation}'s mailbox after the rerun`).toEqual(['report', 'receipt', 'report', 'report']);
      expect(box[3]!.parsed.subject).toMatch(/Turn 1 report for .* \(corrected\)$/);
      expect(box[3]!.parsed.text).toContain('(corrected, version 2)');
      expect(new Set(box.map((m) => m.parsed.messageId)).size).toBe(box.length);
    }
    expect((await mailbox(GM)).map((m) => m.parsed.subject)).toEqual([
      '[A New Fatecraft Campaign] GM report, turn 0',
      '[A New Fatecraft Campaign] GM report, turn 1',
      '[A New Fatecraft Campaign] GM report, turn 1 (rerun)',
    ]);
    const afterRerun = await queue(game);
    expect(byKind(afterRerun)).toEqual({ report: 6, 'gm-report': 3, receipt: 2 });
    expect(afterRerun.every((e) => e.status === 'sent' && e.attempts === 1)).toBe(true);
    expect(new Set(afterRerun.map((e) => e.messageId)).size).toBe(afterRerun.length);
    expect(servers.relay.relayed.filter((r) => r.from === CAMPAIGN)).toHaveLength(afterRerun.length);
  });
});
