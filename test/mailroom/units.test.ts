import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CampaignError } from '../../src/campaign/problems.js';
import { openCampaign } from '../../src/campaign/store.js';
import { MailError } from '../../src/mail/errors.js';
import type { MailOutbox, OutboundMessage, SendResult } from '../../src/mail/types.js';
import { messageIdFor, withToken } from '../../src/mailroom/compose.js';
import { mailSettingsOf, mailSettingsSchema } from '../../src/mailroom/config.js';
import { cutQuotedTail, findCommands, subjectHints } from '../../src/mailroom/mail-commands.js';
import { authResults, bounceFacts, readRawHeaders } from '../../src/mailroom/headers.js';
import { htmlToOrderText } from '../../src/mailroom/html-text.js';
import { deliverPending } from '../../src/mailroom/delivery.js';
import { OutboxQueue, type QueuedMessage } from '../../src/mailroom/outbox.js';
import { loadSecrets } from '../../src/mailroom/secrets.js';
import { TestClock, cleanupAll, demoCopy, setMailBlock } from './support.js';

afterAll(cleanupAll);

describe('the mail: block', () => {
  it('fills in defaults for the folder transport', () => {
    const s = mailSettingsSchema.parse({ from: 'GM <turns@x.test>', gm: 'gm@x.test' });
    expect(s).toMatchObject({ transport: 'folder', maxMessageBytes: 5 * 1024 * 1024, flood: { perSenderPerDay: 30, repliesPerAddressPerDay: 20 }, retry: { attemptsPerRun: 3, maxRuns: 12 } });
  });

  it('names the key and the line of a mistake, and shows an example', async () => {
    const { dir } = demoCopy('config');
    setMailBlock(dir, 'mail:\n  transport: imap\n  from: not an address\n  gm: gm@x.test\n  smtp: { host: h, port: 25, user: me }\n');
    const error = await mailSettingsOf(await openCampaign(dir)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CampaignError);
    const text = (error as Error).message;
    expect(text).toMatch(/campaign\.yaml: line \d+: mail\.from: a mail address/);
    expect(text).toContain('mail.imap: transport imap needs an imap: block');
    expect(text).toContain('mail.smtp.passwordEnv: smtp.user is set');
    expect(text).toContain('for example:');
  });

  it('gives the SMTP server short timeouts unless told otherwise, and checks them', async () => {
    const smtp = { host: 'smtp.x.test', port: 587 };
    expect(mailSettingsSchema.parse({ from: 'turns@x.test', gm: 'gm@x.test', transport: 'imap', imap: { host: 'h', port: 993, user: 'u', passwordEnv: 'P' }, smtp }).smtp?.timeouts).toEqual({ connectMs: 5000, greetingMs: 5000, socketMs: 20000 });
    const { dir } = demoCopy('config-timeouts');
    setMailBlock(dir, 'mail:\n  from: turns@x.test\n  gm: gm@x.test\n  smtp: { host: h, port: 25, timeouts: { greetingMs: 5, socketSeconds: 3 } }\n');
    const error = await mailSettingsOf(await openCampaign(dir)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CampaignError);
    const text = (error as Error).message;
    expect(text).toMatch(/campaign\.yaml: line \d+: mail\.smtp\.timeouts\.greetingMs: at least 100 \(milliseconds\)/);
    expect(text).toMatch(/mail\.smtp\.timeouts: .*socketSeconds/);
  });
});

describe('secrets', () => {
  const root = mkdtempSync(join(tmpdir(), 'fc-secrets-'));
  it('reads nation tokens and passwords from the file; the environment wins', () => {
    const file = join(root, 's.yaml');
    writeFileSync(file, 'argenta: k3x9\ntokens:\n  gondarahl: 88fd\nFATECRAFT_IMAP_PASSWORD: hunter2\n', { mode: 0o600 });
    const s = loadSecrets({ campaign: 'x', campaignDir: join(root, 'campaign'), file, env: { FATECRAFT_TOKEN_ARGENTA: 'from-env', FATECRAFT_SMTP_PASSWORD: 'smtp' } });
    expect(s.token('argenta')).toBe('from-env');
    expect(s.token('gondarahl')).toBe('88fd');
    expect(s.token('grarkul')).toBeUndefined();
    expect(s.secret('FATECRAFT_IMAP_PASSWORD')).toBe('hunter2');
    expect(s.secret('FATECRAFT_SMTP_PASSWORD')).toBe('smtp');
    expect(s.nationsWithTokens()).toEqual(['argenta', 'gondarahl']);
  });

  it('refuses a secrets file inside the campaign folder (which is kept in git)', () => {
    const campaign = join(root, 'campaign');
    mkdirSync(campaign, { recursive: true });
    writeFileSync(join(campaign, 'secrets.yaml'), 'argenta: k3x9\n');
    expect(() => loadSecrets({ campaign: 'x', campaignDir: campaign, file: join(campaign, 'secrets.yaml') })).toThrow(/inside the campaign folder/);
  });

  it('defaults to $FATECRAFT_SECRETS, then ~/.config/fatecraft/<campaign>.secrets.yaml', () => {
    expect(loadSecrets({ campaign: 'x', campaignDir: root, env: { HOME: '/home/gm' } }).where).toBe('/home/gm/.config/fatecraft/x.secrets.yaml (missing)');
    expect(loadSecrets({ campaign: 'x', campaignDir: root, env: { FATECRAFT_SECRETS: '/etc/fc.yaml' } }).where).toBe('/etc/fc.yaml (missing)');
  });
});

describe('reading mail', () => {
  it('unfolds raw headers and trusts only our own server’s Authentication-Results', () => {
    const raw = Buffer.from('Authentication-Results: evil.test; dkim=pass\r\nAuthentication-Results: mx.ours.test;\r\n dkim=pass header.d=argenta.test;\r\n spf=fail; dmarc=fail (p=reject) header.from=argenta.test\r\nSubject: a\r\n\r\nbody: not a header\r\n');
    const headers = readRawHeaders(raw);
    expect(headers.get('subject')).toEqual(['a']);
    expect(headers.has('body')).toBe(false);
    expect(authResults(headers, 'mx.ours.test')).toEqual({ servId: 'mx.ours.test', trusted: true, dkim: 'pass', spf: 'fail', dmarc: 'fail', domain: 'argenta.test' });
    expect(authResults(headers)?.trusted).toBe(false);
  });

  it('reads which address bounced from a delivery status notification', () => {
    const facts = bounceFacts(
      [
        { filename: undefined, contentType: 'message/delivery-status', content: Buffer.from('Reporting-MTA: dns; mx\n\nFinal-Recipient: rfc822; Duke@Argenta.test\nAction: failed\nStatus: 5.1.1\nDiagnostic-Code: smtp; 550 5.1.1 no such user\n') },
        { filename: undefined, contentType: 'text/rfc822-headers', content: Buffer.from('Message-ID: <r1@x>\nSubject: Turn 3 report\n') },
      ],
      '',
    );
    expect(facts).toEqual({ recipients: [{ address: 'duke@argenta.test', action: 'failed', status: '5.1.1', diagnostic: '550 5.1.1 no such user' }], originalMessageId: '<r1@x>', originalSubject: 'Turn 3 report' });
  });

  it('turns HTML into one line per block, never wrapping, quoting blockquotes', () => {
    const long = `note ${'silver '.repeat(30).trim()}`;
    const html = `<html><head><style>p{}</style><title>x</title></head><body><div>Token: a&amp;b</div><p>${long}</p><ul><li>hold A</li><li>hold&nbsp;B</li></ul><blockquote>nation: argenta<br>orders:</blockquote><!-- <div>hidden</div> --><pre>move X\n  to 1,1</pre></body></html>`;
    expect(htmlToOrderText(html).split('\n')).toEqual(['Token: a&b', '', long, '- hold A', '- hold B', '> nation: argenta', '> orders:', 'move X', '  to 1,1']);
  });

  it('finds mail commands in the subject (not a reply’s) and the first lines', () => {
    expect(findCommands('resend report', '')).toEqual(['resend']);
    expect(findCommands('Re: report', 'Thanks!')).toEqual([]);
    expect(findCommands('question', 'Hi GM, when is the deadline?\nshow my orders\n-- \nresend report')).toEqual(['deadline', 'show']);
    expect(findCommands('x', 'hold Iron Guard\n> deadline')).toEqual([]);
    // The examples docs/mail.md gives.
    for (const text of ['resend report', 'send me my report again', 'report please']) expect(findCommands(text, ''), text).toEqual(['resend']);
    for (const text of ['deadline?', 'when is the deadline', 'when is the next turn due']) expect(findCommands(text, ''), text).toEqual(['deadline']);
    for (const text of ['show my orders', 'what are my orders?', 'current orders']) expect(findCommands(text, ''), text).toEqual(['show']);
  });

  it('reads the subject conventions, and only after "Orders"', () => {
    const { campaign } = { campaign: { nations: { argenta: { id: 'argenta', name: 'Duchy of Argenta' }, gondarahl: { id: 'gondarahl', name: 'Kingdom of Gondarahl' } } } } as never;
    expect(subjectHints('Orders argenta turn 5', campaign)).toEqual({ nation: 'argenta', turn: 5 });
    expect(subjectHints('orders for Duchy of Argenta, turn #7', campaign)).toEqual({ nation: 'argenta', turn: 7 });
    // A reply's subject was written for an earlier turn: only its nation counts.
    expect(subjectHints('RE: Fwd: orders for Duchy of Argenta, turn #7', campaign)).toEqual({ nation: 'argenta' });
    expect(subjectHints('Re: [x] Turn 1 report for Duchy of Argenta', campaign)).toEqual({});
  });

  it('blanks an Outlook-style quoted original, keeping line numbers', () => {
    expect(cutQuotedTail('hold A\n\nFrom: GM <gm@x>\nSent: Monday\nTo: me\nhold B').split('\n')).toEqual(['hold A', '', '', '', '', '']);
    expect(cutQuotedTail('note From: the king\nhold B')).toBe('note From: the king\nhold B');
  });
});

describe('composing', () => {
  it('derives Message-IDs from what a message is', () => {
    const base = { settings: mailSettingsSchema.parse({ from: 'GM <turns@silver.test>', gm: 'gm@x.test' }), campaign: { name: 'silver', title: 'Silver' } };
    const a = messageIdFor(base, 'report', 'argenta', 3, 'rerun-0');
    expect(a).toMatch(/^<fatecraft\.report\.argenta\.t0003\.rerun-0\.[0-9a-f]{20}@silver\.test>$/);
    expect(messageIdFor(base, 'report', 'argenta', 3, 'rerun-0')).toBe(a);
    expect(messageIdFor(base, 'report', 'argenta', 3, 'rerun-1')).not.toBe(a);
  });

  it('fills the token into the order sheet below its turn line', () => {
    expect(withToken('# c\nnation: a\nturn: 2\norders: []\n', 'k"3')).toBe('# c\nnation: a\nturn: 2\ntoken: "k\\"3"\norders: []\n');
  });
});

describe('the outgoing queue', () => {
  const retry = { attemptsPerRun: 3, firstDelayMs: 100, backoffMinutes: 5, maxRuns: 3 };
  const message = (n: number): OutboundMessage => ({ messageId: `<m${n}@x.test>`, date: '2026-03-08T12:00:00Z', from: 'a@x.test', to: [`p${n}@x.test`], subject: `m${n}`, text: 'hi' });
  const fake = (script: (m: OutboundMessage, attempt: number) => SendResult | MailError): MailOutbox & { tries: Map<string, number> } => {
    const tries = new Map<string, number>();
    return {
      tries,
      async send(m) {
        const attempt = (tries.get(m.messageId) ?? 0) + 1;
        tries.set(m.messageId, attempt);
        const result = script(m, attempt);
        if (result instanceof MailError) throw result;
        return result;
      },
      async close() {},
    };
  };
  const ok = (m: OutboundMessage): SendResult => ({ accepted: m.to, rejected: [], response: '250 ok' });

  async function queueOf(label: string, n: number) {
    const { dir } = demoCopy(label);
    const queue = new OutboxQueue(join(dir, 'mail'));
    for (let i = 1; i <= n; i++) expect(await queue.enqueue(message(i), { kind: 'reply' }, new Date('2026-03-08T12:00:00Z'))).toBe(true);
    expect(await queue.enqueue(message(1), { kind: 'reply' }, new Date())).toBe(false); // queued once
    return queue;
  }

  it('retries 4xx within the run with growing pauses', async () => {
    const queue = await queueOf('q451', 1);
    const clock = new TestClock();
    const outbox = fake((m, attempt) => (attempt < 3 ? new MailError('ETEMP', '451 later', { responseCode: 451 }) : ok(m)));
    const summary = await deliverPending(queue, outbox, { clock, retry });
    expect(summary.sent).toEqual(['<m1@x.test>']);
    expect(clock.slept).toEqual([100, 400]);
    expect((await queue.get('<m1@x.test>'))?.status).toBe('sent');
  });

  it('defers to later runs with doubling backoff, then fails and tells whoever listens', async () => {
    const queue = await queueOf('qdefer', 1);
    const clock = new TestClock();
    const failed: QueuedMessage[] = [];
    const outbox = fake(() => new MailError('ETEMP', 'connection dropped'));
    const opts = { clock, retry, onFailed: async (e: QueuedMessage) => void failed.push(e) };
    expect((await deliverPending(queue, outbox, opts)).deferred).toHaveLength(1);
    expect((await queue.get('<m1@x.test>'))?.nextAttemptAt).toBe('2026-03-08T12:05:00.000Z');
    expect((await deliverPending(queue, outbox, opts)).sent).toEqual([]); // not due yet
    clock.advance(5 * 60_000);
    expect((await deliverPending(queue, outbox, opts)).deferred).toHaveLength(1);
    expect((await queue.get('<m1@x.test>'))?.nextAttemptAt).toBe('2026-03-08T12:15:00.000Z');
    clock.advance(10 * 60_000);
    expect((await deliverPending(queue, outbox, opts)).failed).toHaveLength(1);
    expect(failed.map((f) => f.messageId)).toEqual(['<m1@x.test>']);
    expect(outbox.tries.get('<m1@x.test>')).toBe(9);
  });

  it('keeps sent messages in sent/, so a run reads only what is still to send', async () => {
    const queue = await queueOf('qsent', 3);
    const outbox = fake(ok);
    expect((await deliverPending(queue, outbox, { clock: new TestClock(), retry })).sent).toHaveLength(3);
    expect(readdirSync(queue.dir).filter((n) => n.endsWith('.yaml'))).toEqual([]);
    expect(readdirSync(queue.sentDir)).toHaveLength(3);
    expect(await queue.unsent()).toEqual([]);
    expect((await queue.all()).map((q) => q.status)).toEqual(['sent', 'sent', 'sent']);
    expect(await queue.sentCount()).toBe(3);
    // Still queued once, found where it is, and never sent again.
    expect(await queue.enqueue(message(2), { kind: 'reply' }, new Date())).toBe(false);
    expect((await queue.get('<m2@x.test>'))?.status).toBe('sent');
    await deliverPending(queue, outbox, { clock: new TestClock(), retry });
    expect([...outbox.tries.values()]).toEqual([1, 1, 1]);
  });

  it('sends nothing twice after a run killed between keeping the sent copy and removing the queued one', async () => {
    const queue = await queueOf('qhalf', 1);
    const outbox = fake(ok);
    const pendingFile = readFileSync(queue.fileFor('<m1@x.test>'));
    await deliverPending(queue, outbox, { clock: new TestClock(), retry });
    // The state a kill leaves behind: the sent copy written, the queued file (still pending) not yet removed.
    writeFileSync(queue.fileFor('<m1@x.test>'), pendingFile);
    expect(await queue.unsent()).toEqual([]);
    expect((await queue.get('<m1@x.test>'))?.status).toBe('sent');
    await deliverPending(queue, outbox, { clock: new TestClock(), retry });
    expect(outbox.tries.get('<m1@x.test>')).toBe(1);
    expect(existsSync(queue.fileFor('<m1@x.test>'))).toBe(false);
  });

  it('moves sent messages an older version kept in the queue folder into sent/', async () => {
    const queue = await queueOf('qold', 2);
    const outbox = fake(ok);
    await deliverPending(queue, outbox, { clock: new TestClock(), retry, kinds: ['reply'] });
    // As earlier versions left them: sent, in the queue's own folder.
    for (const id of ['<m1@x.test>', '<m2@x.test>']) renameSync(queue.sentFileFor(id), queue.fileFor(id));
    expect(await queue.unsent()).toEqual([]);
    expect(await queue.sentCount()).toBe(2);
    expect(await queue.enqueue(message(3), { kind: 'reply' }, new Date('2026-03-08T12:00:00Z'))).toBe(true);
    expect((await deliverPending(queue, outbox, { clock: new TestClock(), retry })).sent).toEqual(['<m3@x.test>']);
    expect(readdirSync(queue.dir).filter((n) => n.endsWith('.yaml'))).toEqual([]);
    expect(readdirSync(queue.sentDir)).toHaveLength(3);
  });

  it('fails a 5xx at once, stops the run on bad credentials, and reports partial refusals', async () => {
    const queue = await queueOf('qperm', 3);
    const partial: string[] = [];
    const outbox = fake((m) =>
      m.messageId === '<m1@x.test>' ? new MailError('EPERM', '550 no such user', { responseCode: 550 }) : m.messageId === '<m2@x.test>' ? { accepted: [], rejected: m.to, response: '250 but' } : ok(m),
    );
    const summary = await deliverPending(queue, outbox, { clock: new TestClock(), retry, onPartial: async (e) => void partial.push(e.messageId) });
    expect(summary).toMatchObject({ failed: ['<m1@x.test>'], sent: ['<m2@x.test>', '<m3@x.test>'], partial: ['<m2@x.test>'] });
    expect(partial).toEqual(['<m2@x.test>']);

    const queue2 = await queueOf('qauth', 2);
    const stopped = await deliverPending(queue2, fake(() => new MailError('EAUTH', '535 bad password')), { clock: new TestClock(), retry });
    expect(stopped.stopped).toContain('535 bad password');
    expect((await queue2.all()).map((q) => q.status)).toEqual(['pending', 'pending']);
  });
});
