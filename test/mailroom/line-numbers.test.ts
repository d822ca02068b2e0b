import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { turnRenderers } from '../../src/cli/renderers.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import { ADDRESSES, TOKENS, TestClock, cleanupAll, demoCopy, dropInInbox, secrets } from './support.js';

/**
 * Line numbers are the lines of the mail as the player wrote it: the receipt, the orders on file ("show
 * orders") and the turn report's "Orders refused" all say "line 11" for the order on the mail's 11th line,
 * whatever stands above it (a greeting, the quoted report, a comment).
 */
afterAll(cleanupAll);

const mail = (id: string, subject: string, body: string) =>
  [
    `From: Duke Cristoval <${ADDRESSES.argenta}>`,
    'To: The Silversheen Sea <turns@silversheen.test>',
    `Subject: ${subject}`,
    'Date: Fri, 6 Mar 2026 18:00:00 +0000',
    `Message-ID: <${id}@argenta.test>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    body,
  ].join('\r\n');

const ORDERS = [
  'Hello GM,',
  '',
  'On Thu, 5 Mar 2026, The Silversheen Sea <turns@silversheen.test> wrote:',
  '> The Silversheen Sea — report for Duchy of Argenta',
  '> Next orders: turn 1',
  '',
  `Token: ${TOKENS.argenta}`,
  'Turn: 1',
  '# the riders strike first; the guard will not make it in time',
  'hold Tidewatch Marines',
  'Quicksilver Riders attacks Ironguard of Kharnik supported by Argentum Guard',
  '',
  'Regards,',
  'Cristoval',
].join('\n');

describe('line numbers of a mailed order', () => {
  it('are the same in the receipt, in "show orders" and in the report', async () => {
    const { dir } = demoCopy('line-numbers', { yamlOrders: false });
    dropInInbox(dir, '1.eml', mail('lines-1', 'Orders', ORDERS));
    const clock = new TestClock('2026-03-08T12:00:00Z');
    await fetchMail(dir, { clock, secrets: secrets() });
    dropInInbox(dir, '2.eml', mail('lines-2', 'show orders', 'show orders\n'));
    clock.advance(60_000);
    await fetchMail(dir, { clock, secrets: secrets() });

    const toDuke = (await new OutboxQueue(join(dir, 'mail')).all()).filter((q) => q.message.to.includes(ADDRESSES.argenta!));
    const receipt = toDuke.find((q) => q.kind === 'receipt')!.message.text;
    expect(receipt).toContain('Line numbers count the lines of your message, from its first line.');
    expect(receipt).toContain('line 10: hold Tidewatch Marines');
    expect(receipt).toContain('line 11: Quicksilver Riders attacks Ironguard of Kharnik supported by Argentum Guard');
    expect(receipt).toContain("! WARNING: supporting unit Argentine Marines 'Argentum Guard' (ar-argentum-guard) cannot reach 24,5 this turn");

    const shown = toDuke.find((q) => q.message.subject.includes('show orders'))!.message.text;
    expect(shown).toContain('Line numbers count the lines of the message that brought them, from its first line.');
    expect(shown).toContain('line 10: hold Tidewatch Marines');
    expect(shown).toContain('line 11: Quicksilver Riders attacks Ironguard of Kharnik supported by Argentum Guard');

    const filed = readFileSync(join(dir, 'orders', '0001', 'argenta.yaml'), 'utf8');
    expect(filed).toContain('    line: 11\n    written: Quicksilver Riders attacks Ironguard of Kharnik supported by Argentum Guard\n');

    await runTurn(dir, { renderers: turnRenderers() });
    const report = readFileSync(join(dir, 'turns', '0001', 'reports', 'argenta.txt'), 'utf8');
    expect(report).toContain('-- Orders carried out with a warning --\n- line 11: Quicksilver Riders attacks Ironguard of Kharnik supported by Argentum Guard\n    supporting unit');
    const gm = readFileSync(join(dir, 'turns', '0001', 'reports', 'gm.html'), 'utf8');
    expect(gm).toContain('line 11: ');
  });
});

describe('a message refused for its token', () => {
  it('still tells the player what the reader could not read, at its line, and nothing of the nation', async () => {
    const { dir } = demoCopy('token-slips', { yamlOrders: false });
    const body = ['Token: not-the-token', 'Turn: 1', 'hold Tidewatch Marines', 'dance a jig at dawn', 'Quicksilver Riders attacks Ironguard of Kharnik'].join('\n');
    dropInInbox(dir, '1.eml', mail('token-slip', 'Orders', body));
    await fetchMail(dir, { clock: new TestClock('2026-03-08T12:00:00Z'), secrets: secrets() });
    const reply = (await new OutboxQueue(join(dir, 'mail')).all()).find((q) => q.message.to.includes(ADDRESSES.argenta!))!.message.text;
    expect(reply).toContain('with a wrong order token, so none of it was read and nothing was filed');
    expect(reply).toMatch(/What could not be read \(line numbers count the lines of your message, from its first line\):\n {2}- line 4: "dance a jig at dawn": /);
    // The token was not checked: no unit, no order checked against the nation, no receipt.
    expect(reply).not.toContain('Tidewatch');
    expect(reply).not.toContain('Accepted');
  });
});

describe('an HTML-only message', () => {
  it('is numbered as the text read from it, and the receipt says so', async () => {
    const { dir } = demoCopy('html-lines', { yamlOrders: false });
    const html = `<html><body><p>Hello GM,</p><p>Token: ${TOKENS.argenta}<br>Turn: 1<br>hold Tidewatch Marines<br>dance a jig</p><p>Cristoval</p></body></html>`;
    const raw = mail('html-only', 'Orders', html).replace('Content-Type: text/plain; charset=utf-8', 'Content-Type: text/html; charset=utf-8');
    dropInInbox(dir, '1.eml', raw);
    await fetchMail(dir, { clock: new TestClock('2026-03-08T12:00:00Z'), secrets: secrets() });
    const receipt = (await new OutboxQueue(join(dir, 'mail')).all()).find((q) => q.kind === 'receipt')!.message.text;
    expect(receipt).toContain('Line numbers count the lines of your message as plain text (it came as HTML only: each paragraph and line break starts a line), from its first line.');
    expect(receipt).toMatch(/line \d+: hold Tidewatch Marines/);
  });
});
