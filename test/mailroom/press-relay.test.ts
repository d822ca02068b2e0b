import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import { turnRenderers } from '../../src/cli/renderers.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { acceptHeld } from '../../src/mailroom/held.js';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import { outboxFileName } from '../../src/mail/folder-transport.js';
import { createTransport } from 'nodemailer';
import { mailServersAvailable, type MailServers } from '../support/mail-servers.js';
import { ADDRESSES, CAMPAIGN_ADDRESS, PASSWORD, TestClock, TOKENS, argentaOrdersMail, cleanupAll, demoCopy, dropInInbox, imapCampaign, imapSecrets, secrets, withMailServers } from './support.js';

/** Press relayed at once by mail (rules.press.relay: atOnce, docs/rules.md P2), through the folder transport. */
afterAll(cleanupAll);

function pressCampaign(label: string, relay: 'atOnce' | 'withReport' = 'atOnce', given?: string): string {
  const dir = given ?? demoCopy(label, { yamlOrders: false }).dir;
  const file = join(dir, 'campaign.yaml');
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.replace('rules:\n  newSettlementCost: 50\n', `rules:\n  newSettlementCost: 50\n  press: { maxLength: 1000, perTurn: 3, anonymous: true, relay: ${relay} }\n`));
  return dir;
}

const ordersMail = (id: string, lines: string[]) => argentaOrdersMail(id, lines, { date: 'Fri, 6 Mar 2026 18:00:00 +0000', replyTo: true, transferEncoding: '8bit' });

const SIGNED = 'press to Gondarahl: Peace at the ford? <b>Answer</b> by spring.';
const UNSIGNED = 'press unsigned to all: === Turn 1 report === the Duke lies.';

async function queue(dir: string) {
  return new OutboxQueue(join(dir, 'mail')).all();
}

describe('press relayed at once', () => {
  it('mails each recipient the letter when the orders are filed, the unsigned one naming its sender nowhere', async () => {
    const dir = pressCampaign('press-relay');
    dropInInbox(dir, 'a1.eml', ordersMail('p1', ['hold Argentum Guard', SIGNED, UNSIGNED]));
    const summary = await fetchMail(dir, { clock: new TestClock('2026-03-08T12:00:00Z'), secrets: secrets() });
    expect(summary.filed.map((f) => f.nation)).toEqual(['argenta']);

    const sent = await queue(dir);
    const letters = sent.filter((q) => q.kind === 'press');
    expect(letters.every((q) => q.status === 'sent')).toBe(true);
    // The signed letter to Gondarahl; the unsigned one to every other nation with a player (all four).
    const signed = letters.filter((q) => q.message.subject.includes('A letter from'));
    const unsigned = letters.filter((q) => q.message.subject.includes('An unsigned letter'));
    expect(signed.map((q) => q.message.to)).toEqual([[ADDRESSES.gondarahl]]);
    expect(unsigned.map((q) => q.message.to[0]).sort()).toEqual([ADDRESSES.gondarahl, ADDRESSES.grarkul, ADDRESSES.vulcanstille, ADDRESSES.westvalia].sort());

    const signedText = signed[0]!.message.text;
    expect(signedText).toContain('A letter from Duchy of Argenta to Kingdom of Gondarahl, turn 1');
    // Plain text, each line set off by a bar, so a letter cannot pass for the processor's own words.
    expect(signedText).toContain('| Peace at the ford? <b>Answer</b> by spring.');
    expect(signed[0]!.message.subject).toBe('[The Silversheen Sea] A letter from Duchy of Argenta (turn 1)');

    // The unsigned letter, as it reached the reader: the whole raw mail, headers and Message-ID included.
    for (const q of unsigned) {
      const raw = readFileSync(join(dir, 'mail', 'outbox', outboxFileName(q.messageId)));
      const mail = await simpleParser(raw);
      expect(mail.text).toContain('| === Turn 1 report === the Duke lies.');
      expect(mail.text).toContain('An unsigned letter to every nation, turn 1');
      const head = raw.toString('latin1').split('\r\n\r\n')[0]!;
      for (const text of [head, mail.text ?? '', mail.subject ?? '', q.messageId]) {
        for (const secret of ['argenta', 'Argenta', 'duke@', 'Cristoval', 'p1@', TOKENS.argenta!]) expect(text).not.toContain(secret);
      }
      expect(head).not.toMatch(/^(Reply-To|In-Reply-To|References):/im);
      expect(mail.from?.value.map((a) => a.address)).toEqual(['turns@silversheen.test']);
    }

    // The sender's receipt says what was relayed, and that it cannot be taken back.
    const receipt = sent.find((q) => q.kind === 'receipt' && q.message.to.includes(ADDRESSES.argenta!))!;
    expect(receipt.message.text).toContain('Letters relayed at once by mail:');
    expect(receipt.message.text).toContain('to Kingdom of Gondarahl: “Peace at the ford? <b>Answer</b> by spring.” — mailed now to Kingdom of Gondarahl');
    expect(receipt.message.text).toContain('unsigned, to every nation: “=== Turn 1 report === the Duke lies.” — mailed now to');
    expect(receipt.message.text).toContain('A relayed letter cannot be taken back');
  });

  it('does not mail the same letter twice when the orders are replaced, and relays a new one', async () => {
    const dir = pressCampaign('press-replace');
    const clock = new TestClock('2026-03-08T12:00:00Z');
    dropInInbox(dir, 'a1.eml', ordersMail('p1', ['hold Argentum Guard', SIGNED]));
    await fetchMail(dir, { clock, secrets: secrets() });
    clock.set('2026-03-08T14:00:00Z');
    dropInInbox(dir, 'a2.eml', ordersMail('p2', ['hold Argentum Guard', SIGNED, 'press to Vulcanstille: A second thought.']));
    await fetchMail(dir, { clock, secrets: secrets() });
    // A second delivery of the same mail changes nothing.
    dropInInbox(dir, 'a2-again.eml', ordersMail('p2', ['hold Argentum Guard', SIGNED, 'press to Vulcanstille: A second thought.']));
    await fetchMail(dir, { clock, secrets: secrets() });

    const letters = (await queue(dir)).filter((q) => q.kind === 'press');
    expect(letters.map((q) => q.message.to[0]).sort()).toEqual([ADDRESSES.gondarahl, ADDRESSES.vulcanstille]);
    const receipts = (await queue(dir)).filter((q) => q.kind === 'receipt').sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    expect(receipts).toHaveLength(2);
    expect(receipts[1]!.message.text).toContain('already mailed to Kingdom of Gondarahl this season, not again');
    expect(receipts[1]!.message.text).toContain('to Vulcanstille: “A second thought.” — mailed now to Vulcanstille');

    // The letters still come with the turn's reports.
    await runTurn(dir, { renderers: turnRenderers() });
    const report = readFileSync(join(dir, 'turns', '0001', 'reports', 'gondarahl.txt'), 'utf8');
    expect(report).toContain('Peace at the ford?');
  });

  it('relays the letters of held orders only when the GM accepts them', async () => {
    const dir = pressCampaign('press-held');
    const held = ordersMail('p5', ['hold Argentum Guard', SIGNED]).replace(
      'MIME-Version: 1.0',
      'MIME-Version: 1.0\r\nAuthentication-Results: mx.silversheen.test; dkim=fail header.d=argenta.test; spf=pass smtp.mailfrom=duke@argenta.test; dmarc=fail (p=REJECT) header.from=argenta.test',
    );
    dropInInbox(dir, 'a5.eml', held);
    const summary = await fetchMail(dir, { clock: new TestClock('2026-03-08T12:00:00Z'), secrets: secrets() });
    expect(summary.held).toBe(1);
    expect((await queue(dir)).filter((q) => q.kind === 'press')).toEqual([]);
    await acceptHeld(dir, 'p5@argenta.test', { clock: new TestClock('2026-03-08T13:00:00Z'), secrets: secrets() });
    const after = await queue(dir);
    expect(after.filter((q) => q.kind === 'press').map((q) => q.message.to)).toEqual([[ADDRESSES.gondarahl]]);
    expect(after.find((q) => q.kind === 'receipt')!.message.text).toContain('— mailed now to Kingdom of Gondarahl');
  });

  it('relays nothing by default: letters wait for the report', async () => {
    const dir = pressCampaign('press-default', 'withReport');
    dropInInbox(dir, 'a1.eml', ordersMail('p1', ['hold Argentum Guard', SIGNED]));
    await fetchMail(dir, { clock: new TestClock('2026-03-08T12:00:00Z'), secrets: secrets() });
    const sent = await queue(dir);
    expect(sent.filter((q) => q.kind === 'press')).toEqual([]);
    expect(sent.find((q) => q.kind === 'receipt')!.message.text).not.toContain('relayed');
  });
});

describe.skipIf(!(mailServersAvailable() || process.env.CI !== undefined))('press relayed at once, through the real servers', () => {
  let servers: MailServers;
  withMailServers((started) => (servers = started));

  it('reaches the readers\' mailboxes, the unsigned letter naming its sender nowhere in what they receive', async () => {
    const { dir } = await imapCampaign(servers, 'press-imap');
    pressCampaign('press-imap', 'atOnce', dir);
    const transport = createTransport({ host: servers.smtp.host, port: servers.smtp.port, secure: false, logger: false });
    await transport.sendMail({ envelope: { from: ADDRESSES.argenta!, to: [CAMPAIGN_ADDRESS] }, raw: ordersMail('p9', ['hold Argentum Guard', 'press unsigned to Gondarahl: The ford at dawn.']) });
    transport.close();
    const summary = await fetchMail(dir, { clock: new TestClock('2026-03-08T12:00:00Z'), secrets: imapSecrets() });
    expect(summary.error).toBeUndefined();
    expect(summary.filed.map((f) => f.nation)).toEqual(['argenta']);

    const king = await servers.readMailbox(ADDRESSES.gondarahl!, PASSWORD);
    const letters = king.filter((m) => m.parsed.headers.get('x-fatecraft-kind') === 'press');
    expect(letters).toHaveLength(1);
    const letter = letters[0]!;
    expect(letter.parsed.text).toContain('| The ford at dawn.');
    const raw = letter.raw.toString('latin1');
    for (const secret of ['argenta', 'Argenta', 'duke@', 'Cristoval', 'p9@', TOKENS.argenta!]) expect(raw).not.toContain(secret);
    const duke = await servers.readMailbox(ADDRESSES.argenta!, PASSWORD);
    expect(duke.find((m) => m.parsed.headers.get('x-fatecraft-kind') === 'receipt')!.parsed.text).toContain('— mailed now to Kingdom of Gondarahl');
  });
});
