import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { Ledger } from '../../src/mailroom/ledger.js';
import { staticSecrets } from '../../src/mailroom/secrets.js';
import { reprocessQuarantined } from '../../src/mailroom/status.js';
import { FIXTURES, TOKENS, TestClock, cleanupAll, demoCopy, dropInInbox, files, secrets } from './support.js';
import { runCommandLine } from '../support/command-line.js';

/** `fatecraft mail fetch|send|status|reprocess`, and quarantine with a second chance. */
afterAll(cleanupAll);
afterEach(() => {
  delete process.env.FATECRAFT_SECRETS;
  delete process.env.FATECRAFT_NOW;
  process.exitCode = undefined;
});

const cli = runCommandLine;

describe('fatecraft mail', () => {
  it('fetch, turn, send and status play the demo turn by mail', async () => {
    const s = demoCopy('cli', { yamlOrders: false, demoMail: true });
    process.env.FATECRAFT_SECRETS = join(s.root, 'secrets.yaml');
    process.env.FATECRAFT_NOW = '2026-03-08T12:00:00Z';
    writeFileSync(process.env.FATECRAFT_SECRETS, Object.entries(TOKENS).map(([n, t]) => `${n}: ${t}`).join('\n'), { mode: 0o600 });
    const fetched = await cli('mail', 'fetch', s.dir, '--quiet');
    expect(fetched).toContain('Read 5 message(s) from folder');
    expect(fetched).toContain('5 filed (argenta turn 1, gondarahl turn 1, grarkul turn 1, vulcanstille turn 1, westvalia turn 1)');
    expect(fetched).toContain('Sent 5 message(s).');
    await cli('turn', s.dir);
    const sent = await cli('mail', 'send', s.dir, '--quiet');
    expect(sent).toContain('Reports of turn 1: queued for argenta, gondarahl, grarkul, vulcanstille, westvalia.');
    expect(sent).toContain('Sent 6 message(s).');
    expect(await cli('mail', 'send', s.dir, '--quiet')).toContain("Every resolved turn's reports have been queued already.\nSent 0 message(s).");
    const status = await cli('mail', 'status', s.dir);
    expect(status).toContain('Inbound: 5 messages in the ledger\n  file: 5');
    expect(status).toContain('Outbound: 11 sent, 0 pending, 0 failed');
    expect(process.exitCode).toBeUndefined();
    // The outgoing mail is dated by FATECRAFT_NOW: the same files on every run.
    expect(readFileSync(join(s.dir, 'mail', 'outbox', files(join(s.dir, 'mail', 'outbox'))[0]!), 'latin1')).toContain('Date: Sun, 08 Mar 2026 12:00:00 +0000');
  });

  it('fetch holds orders whose DMARC check failed; accept files them and sends the receipt', async () => {
    const s = demoCopy('cli-accept', { yamlOrders: false });
    process.env.FATECRAFT_SECRETS = join(s.root, 'secrets.yaml');
    process.env.FATECRAFT_NOW = '2026-03-08T12:00:00Z';
    writeFileSync(process.env.FATECRAFT_SECRETS, Object.entries(TOKENS).map(([n, t]) => `${n}: ${t}`).join('\n'), { mode: 0o600 });
    dropInInbox(s.dir, '75.eml', readFileSync(join(FIXTURES, '75-dmarc-fail-gmail.eml')));
    const fetched = await cli('mail', 'fetch', s.dir, '--quiet');
    expect(fetched).toContain('0 filed, 0 refused, 0 command(s), 0 ignored, 0 bounce(s), 0 quarantined, 1 held for the GM (fatecraft mail accept)');
    expect(await cli('mail', 'status', s.dir)).toContain('Held for you (1)');
    const accepted = await cli('mail', 'accept', s.dir, 'mid:<f75@argenta.test>');
    expect(accepted).toBe('Filed the held orders of argenta for turn 1.\nSent 1 message(s).');
    expect(readFileSync(join(s.dir, 'orders', '0001', 'argenta.yaml'), 'utf8')).toContain('Orders of argenta for turn 1');
    await expect(cli('mail', 'accept', s.dir, 'mid:<f75@argenta.test>')).rejects.toThrow('was accepted already');
  });

  it('says how to set mail up when the campaign has none', async () => {
    const s = demoCopy('nomail');
    const file = join(s.dir, 'campaign.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\nmail:\n(?: {2}.*\n)+/, '\n'));
    await expect(cli('mail', 'fetch', s.dir)).rejects.toThrow(/the campaign has no mail settings; add a mail: block/);
    expect(await cli('mail', 'status', s.dir)).toContain('Mail is not set up for this campaign');
  });
});

describe('quarantine', () => {
  it('a message that cannot be handled is quarantined with a GM alert, the others go on; reprocess gives it another chance', async () => {
    const { dir } = demoCopy('quarantine', { yamlOrders: false, demoMail: true });
    dropInInbox(dir, '01-plain-text.eml', readFileSync(join(FIXTURES, '01-plain-text.eml')));
    // Something unexpected while judging the Duke's mail (here: the secrets store failing for argenta).
    const broken = staticSecrets(TOKENS);
    const failing = { ...broken, token: (n: string) => (n === 'argenta' ? (() => { throw new Error('secrets store unavailable'); })() : broken.token(n)) };
    const first = await fetchMail(dir, { clock: new TestClock(), secrets: failing });
    expect(first.error).toBeUndefined();
    expect(first.quarantined).toBe(2);
    expect(first.filed.map((f) => f.nation)).toEqual(['gondarahl', 'grarkul', 'vulcanstille', 'westvalia']);
    expect(files(join(dir, 'mail', 'quarantine'))).toEqual(['01-plain-text.eml', '2026-03-06-argenta.eml']);
    const ledger = await new Ledger(join(dir, 'mail')).all();
    expect(ledger.filter((e) => e.status === 'quarantined').map((e) => e.error)).toEqual(['secrets store unavailable', 'secrets store unavailable']);
    dropInInbox(dir, '25-spoofed-wrong-token.eml', readFileSync(join(FIXTURES, '25-spoofed-wrong-token.eml')));
    await fetchMail(dir, { clock: new TestClock(), secrets: secrets() });
    const status = await cli('mail', 'status', dir);
    expect(status).toContain('Quarantined (2)');
    expect(status).toContain('from duke@argenta.test: dkim=none spf=fail dmarc=fail (unverified, stamped by mx.silversheen.test) — refused (token)');

    const again = await reprocessQuarantined(dir, {});
    expect(again).toEqual({ marked: expect.any(Array), movedBack: 2 });
    expect(files(join(dir, 'mail', 'inbox'))).toEqual(['01-plain-text.eml', '2026-03-06-argenta.eml']);
    const second = await fetchMail(dir, { clock: new TestClock(), secrets: secrets() });
    expect(second.filed.map((f) => f.nation)).toEqual(['argenta', 'argenta']);
    const entries = await new Ledger(join(dir, 'mail')).all();
    expect(entries.filter((e) => e.status === 'quarantined')).toEqual([]);
    expect(entries.filter((e) => e.history?.[0]?.outcome.startsWith('quarantined'))).toHaveLength(2);
  });
});

describe('a damaged ledger entry', () => {
  it('leaves its message in the inbox and tells the GM; the other messages go on', async () => {
    const { dir } = demoCopy('damaged', { yamlOrders: false, demoMail: true });
    await fetchMail(dir, { clock: new TestClock(), secrets: secrets() });
    const ledger = new Ledger(join(dir, 'mail'));
    const argenta = (await ledger.all()).find((e) => e.decision?.kind === 'file' && e.decision.nation === 'argenta')!;
    writeFileSync(ledger.fileFor(argenta.key), 'key: [not, this, one]\n');
    // The same mail delivered again, and a new one.
    dropInInbox(dir, 'again.eml', readFileSync(join(dir, 'mail', 'processed', '2026-03-06-argenta.eml')));
    dropInInbox(dir, '26-missing-token.eml', readFileSync(join(FIXTURES, '26-missing-token.eml')));
    const summary = await fetchMail(dir, { clock: new TestClock(), secrets: secrets() });
    expect(summary.skipped).toEqual([{ id: 'file:again.eml', reason: expect.stringContaining('not a ledger entry') }]);
    expect(summary.refused).toBe(1);
    expect(files(join(dir, 'mail', 'inbox'))).toEqual(['again.eml']);
    expect(files(join(dir, 'mail', 'outbox')).filter((n) => n.startsWith('fatecraft.alert'))).toHaveLength(1);
  });
});
