import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { turnRenderers } from '../../src/cli/renderers.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import { sendPending, sendReports } from '../../src/mailroom/reports.js';
import { reprocessQuarantined } from '../../src/mailroom/status.js';
import type { FaultPoint } from '../../src/mailroom/runtime.js';
import { mailServersAvailable, type MailServers } from '../support/mail-servers.js';
import { ADDRESSES, CAMPAIGN_ADDRESS, DEMO, GM_ADDRESS, PASSWORD, TestClock, imapCampaign, imapSecrets, withMailServers } from './support.js';

/**
 * Faults and abuse against real servers: Dovecot restarted in the middle of a fetch, a relay answering 451
 * and then recovering, a 550, a run cut short; a spoofed sender, a stolen token, a 20 MB message.
 */
const run = mailServersAvailable() || process.env.CI !== undefined;
const nations = Object.keys(ADDRESSES).sort();

describe.skipIf(!run)('mail faults and abuse through real servers', () => {
  let servers: MailServers;
  withMailServers((started) => (servers = started));

  const smtp = () => createTransport({ host: servers.smtp.host, port: servers.smtp.port, secure: false, logger: false });
  const box = (address: string, mailbox = 'INBOX') => servers.readMailbox(address, PASSWORD, mailbox);
  const kind = (k: string) => (m: { parsed: { headers: Map<string, unknown> } }) => m.parsed.headers.get('x-fatecraft-kind') === k;

  /** A fresh set of mailboxes: the servers keep mail between tests, so each test starts by emptying them. */
  async function freshCampaign(label: string, opts: { yamlOrders?: boolean; concurrency?: number } = {}) {
    const scratch = await imapCampaign(servers, label, opts);
    for (const address of [CAMPAIGN_ADDRESS, GM_ADDRESS, ...Object.values(ADDRESSES)]) await clear(address);
    return scratch;
  }

  async function clear(address: string): Promise<void> {
    const { ImapFlow } = await import('imapflow');
    const client = new ImapFlow({ ...servers.imap, secure: false, auth: { user: address, pass: PASSWORD }, logger: false });
    client.on('error', () => undefined);
    await client.connect();
    for (const mailbox of (await client.list()).map((b) => b.path)) {
      const lock = await client.getMailboxLock(mailbox);
      try {
        if (client.mailbox !== false && client.mailbox.exists > 0) await client.messageDelete('1:*');
      } finally {
        lock.release();
      }
    }
    await client.logout();
  }

  /** The demo players' turn-1 mails, sent through the relay. */
  async function sendDemoOrders(): Promise<void> {
    const transport = smtp();
    const inbox = join(DEMO, 'mail', 'inbox');
    for (const name of readdirSync(inbox).sort()) {
      const nation = nations.find((n) => name.includes(n))!;
      await transport.sendMail({ envelope: { from: ADDRESSES[nation]!, to: [CAMPAIGN_ADDRESS] }, raw: readFileSync(join(inbox, name)) });
    }
    transport.close();
  }

  async function expectOneReceiptEach(): Promise<void> {
    for (const nation of nations) expect((await box(ADDRESSES[nation]!)).filter(kind('receipt')), nation).toHaveLength(1);
    expect(await box(CAMPAIGN_ADDRESS)).toEqual([]);
    expect(await box(CAMPAIGN_ADDRESS, 'Processed')).toHaveLength(5);
  }

  it('Dovecot restarted in the middle of a fetch (after the 2nd message, and while sending): nothing lost, nothing twice', async () => {
    const { dir } = await freshCampaign('restart');
    await sendDemoOrders();
    const clock = new TestClock();
    let restarts = 0;
    const faults = async (point: FaultPoint) => {
      if ((point === 'after-done' && ++restarts === 2) || (point === 'before-send' && restarts++ === 5)) await servers.restartDovecot();
    };
    const first = await fetchMail(dir, { clock, secrets: imapSecrets(), faults });
    expect(first.error).toBeUndefined();
    expect(first.filed).toHaveLength(5);
    // A receipt whose delivery met the restart waits for the next run.
    clock.advance(10 * 60_000);
    const second = await fetchMail(dir, { clock, secrets: imapSecrets() });
    expect(second.listed).toBe(0);
    expect(first.sent.sent.length + second.sent.sent.length).toBe(5);
    await expectOneReceiptEach();
  });

  it('a run cut short after filing the 3rd message, over IMAP, then run again: one receipt each', async () => {
    const { dir } = await freshCampaign('cut');
    await sendDemoOrders();
    let files = 0;
    // Batches of two: the first batch done and moved (one UID MOVE) when the third message is cut short.
    await expect(fetchMail(dir, { clock: new TestClock(), secrets: imapSecrets(), batch: 2, faults: (p) => { if (p === 'after-file' && ++files === 3) throw new Error('cut'); } })).rejects.toThrow('cut');
    expect(await box(CAMPAIGN_ADDRESS)).toHaveLength(3); // two moved, three still in the inbox
    const again = await fetchMail(dir, { clock: new TestClock(), secrets: imapSecrets() });
    expect(again.resumed).toBe(1);
    expect(again.handled).toBe(2);
    await expectOneReceiptEach();
  });

  it('the relay answers 451, then recovers: retried with backoff within the run, then in the next run; each receipt once', async () => {
    // One message at a time, so the relay's failures fall on one receipt.
    const { dir } = await freshCampaign('451', { concurrency: 1 });
    await sendDemoOrders();
    const clock = new TestClock();
    servers.relay.faults.failNext(2, 451); // the first receipt fails twice, goes through on its third try
    const first = await fetchMail(dir, { clock, secrets: imapSecrets() });
    expect(first.sent.sent).toHaveLength(5);
    expect(clock.slept).toEqual([20, 80]); // two failed tries, pauses growing fourfold
    await expectOneReceiptEach();

    const { dir: dir2 } = await freshCampaign('451-later', { concurrency: 1 });
    await sendDemoOrders();
    servers.relay.faults.failNext(3, 451); // more than one run's tries: that receipt waits for the next run
    const clock2 = new TestClock();
    const run1 = await fetchMail(dir2, { clock: clock2, secrets: imapSecrets() });
    expect(run1.sent.deferred).toHaveLength(1);
    const early = await sendPending(dir2, { clock: clock2, secrets: imapSecrets() });
    expect(early.sent).toEqual([]); // not due yet (backoff)
    clock2.advance(2 * 60_000);
    const run2 = await sendPending(dir2, { clock: clock2, secrets: imapSecrets() });
    expect(run2.sent).toEqual(run1.sent.deferred);
    await expectOneReceiptEach();
  });

  it('a 550 for one player: that report fails, the GM is alerted, the others arrive; a rerun sends nothing twice', async () => {
    const { dir } = await freshCampaign('550', { yamlOrders: true });
    await runTurn(dir, { renderers: turnRenderers() });
    servers.relay.faults.refuseRecipient(ADDRESSES.argenta!);
    try {
      const clock = new TestClock();
      const result = await sendReports(dir, 1, { clock, secrets: imapSecrets() });
      expect(result.sent.failed).toHaveLength(1);
      expect(result.sent.sent).toHaveLength(6); // four reports, the GM's, and the alert
      for (const nation of nations.filter((n) => n !== 'argenta')) expect((await box(ADDRESSES[nation]!)).filter(kind('report')), nation).toHaveLength(1);
      expect(await box(ADDRESSES.argenta!)).toEqual([]);
      const gm = await box(GM_ADDRESS);
      const alert = gm.find(kind('alert'));
      expect(alert?.parsed.subject).toContain('could not send report of turn 1 for argenta');
      expect(alert?.parsed.text).toContain('550');
      const failed = (await new OutboxQueue(join(dir, 'mail')).all()).filter((q) => q.status === 'failed');
      expect(failed.map((q) => q.message.to)).toEqual([[ADDRESSES.argenta]]);

      const again = await sendReports(dir, 1, { clock, secrets: imapSecrets() });
      expect(again.queued).toEqual([]);
      expect(again.sent.sent).toEqual([]);
      expect((await box(GM_ADDRESS)).length).toBe(gm.length);
    } finally {
      servers.relay.faults.reset();
    }
  });

  it('outgoing mail is DKIM-signed when the campaign configures a key (kept outside the campaign folder)', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const scratch = await freshCampaign('dkim', { yamlOrders: true });
    const keyFile = join(scratch.root, 'dkim.pem');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const file = join(scratch.dir, 'campaign.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('\nnations:\n', `  dkim: { domainName: silversheen.test, keySelector: fatecraft, privateKeyFile: ${keyFile} }\n\nnations:\n`));
    await runTurn(scratch.dir, { renderers: turnRenderers() });
    const sent = await sendReports(scratch.dir, 1, { clock: new TestClock(), secrets: imapSecrets() });
    expect(sent.sent.sent).toHaveLength(6);
    const report = (await box(ADDRESSES.argenta!)).find(kind('report'))!;
    expect(report.parsed.headers.has('dkim-signature')).toBe(true);
    const signature = String(/^DKIM-Signature:([^]*?)\r\n(?=\S)/m.exec(report.raw.toString('latin1'))?.[1]).replace(/\s+/g, ' ');
    expect(signature).toMatch(/a=rsa-sha256;.* d=silversheen\.test; .*s=fatecraft;/);

    // A key inside the campaign folder (kept in git) is refused.
    writeFileSync(join(scratch.dir, 'dkim.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(file, readFileSync(file, 'utf8').replace(keyFile, join(scratch.dir, 'dkim.pem')));
    await expect(sendPending(scratch.dir, { clock: new TestClock(), secrets: imapSecrets() })).rejects.toThrow(/inside the campaign folder/);
  });

  it('a message quarantined over IMAP is moved back to the inbox by reprocess and handled', async () => {
    const { dir } = await freshCampaign('reprocess');
    await sendDemoOrders();
    const good = imapSecrets();
    const failing = { ...good, token: (n: string) => (n === 'grarkul' ? (() => { throw new Error('boom'); })() : good.token(n)) };
    const first = await fetchMail(dir, { clock: new TestClock(), secrets: failing });
    expect(first.quarantined).toBe(1);
    expect(await box(CAMPAIGN_ADDRESS, 'Quarantine')).toHaveLength(1);
    expect((await box(GM_ADDRESS)).map((m) => m.parsed.subject)).toContain('[The Silversheen Sea] GM alert: a message was quarantined');
    expect(await reprocessQuarantined(dir, { secrets: good })).toMatchObject({ movedBack: 1 });
    expect(await box(CAMPAIGN_ADDRESS)).toHaveLength(1);
    const second = await fetchMail(dir, { clock: new TestClock(), secrets: good });
    expect(second.filed.map((f) => f.nation)).toEqual(['grarkul']);
    await expectOneReceiptEach();
  });

  it('abuse: a spoofed sender with a wrong token, the right token from a stranger, a 20 MB message', async () => {
    const { dir } = await freshCampaign('abuse');
    await servers.addUser('stranger@elsewhere.test', PASSWORD);
    await clear('stranger@elsewhere.test');
    const transport = smtp();
    // Someone writes as the Duke of Argenta, without his token.
    await transport.sendMail({ envelope: { from: 'mallory@evil.test', to: [CAMPAIGN_ADDRESS] }, from: 'Duke Cristoval <duke@argenta.test>', to: CAMPAIGN_ADDRESS, subject: 'orders', text: 'Token: guess\nmove Silver Gull to 1,1\n' });
    // The Duke's token, from an address the campaign does not know.
    await transport.sendMail({ from: 'stranger@elsewhere.test', to: CAMPAIGN_ADDRESS, subject: 'orders', text: 'Token: silver-sails-1021\nhold Argentum Guard\n' });
    transport.close();
    // 20 MB from the Duke himself, straight into the mailbox.
    const big = Buffer.concat([
      Buffer.from(`From: Duke Cristoval <duke@argenta.test>\r\nTo: ${CAMPAIGN_ADDRESS}\r\nSubject: the whole archive\r\nMessage-ID: <big@argenta.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain\r\n\r\nToken: silver-sails-1021\r\nhold Argentum Guard\r\n`),
      Buffer.alloc(20 * 1024 * 1024, `${'x'.repeat(998)}\r\n`),
    ]);
    await servers.deliver(big, CAMPAIGN_ADDRESS, 'duke@argenta.test');

    const memory = process.memoryUsage().rss;
    const result = await fetchMail(dir, { clock: new TestClock(), secrets: imapSecrets() });
    expect(result.listed).toBe(3);
    expect(result.filed).toEqual([]);
    expect(result.refused).toBe(3);
    expect(process.memoryUsage().rss - memory).toBeLessThan(20 * 1024 * 1024); // the 20 MB were never downloaded

    const duke = await box(ADDRESSES.argenta!);
    expect(duke.map((m) => m.parsed.text ?? '').some((t) => t.includes('with a wrong order token'))).toBe(true);
    expect(duke.map((m) => m.parsed.text ?? '').some((t) => t.includes('Your message was not read: it is'))).toBe(true);
    const stranger = await box('stranger@elsewhere.test');
    expect(stranger).toHaveLength(1);
    expect(stranger[0]!.parsed.text).toContain('is not registered for any nation');
    expect(stranger[0]!.parsed.text).not.toContain('Argenta');
    const gm = await box(GM_ADDRESS);
    expect(gm.map((m) => m.parsed.subject)).toContain("[The Silversheen Sea] GM alert: argenta's order token sent from an unknown address");
    expect(await box(CAMPAIGN_ADDRESS, 'Quarantine')).toHaveLength(1);
    expect(await box(CAMPAIGN_ADDRESS, 'Processed')).toHaveLength(2);
    expect(await box(CAMPAIGN_ADDRESS)).toEqual([]);
  });
});
