import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { acceptHeld } from '../../src/mailroom/held.js';
import { mailServersAvailable, type MailServers } from '../support/mail-servers.js';
import { ADDRESSES, CAMPAIGN_ADDRESS, FIXTURES, GM_ADDRESS, PASSWORD, TestClock, imapCampaign, imapSecrets, withMailServers } from './support.js';

/**
 * Mail from real programs' shapes, sent through the SMTP relay into Dovecot, fetched over IMAP, answered
 * through the relay: what was filed, what each player and the GM read in their mailboxes.
 */
const run = mailServersAvailable() || process.env.CI !== undefined;

describe.skipIf(!run)('intake of real mail programs through real servers', () => {
  let servers: MailServers;
  withMailServers((started) => (servers = started));
  const box = (address: string, mailbox = 'INBOX') => servers.readMailbox(address, PASSWORD, mailbox);
  const kind = (k: string) => (m: { parsed: { headers: Map<string, unknown> } }) => m.parsed.headers.get('x-fatecraft-kind') === k;

  it('reads Outlook mail with X-Auto-Response-Suppress, holds a DMARC failure until the GM accepts it, and tells the GM of list relays and bad From fields', async () => {
    const { dir } = await imapCampaign(servers, 'intake');
    const transport = createTransport({ host: servers.smtp.host, port: servers.smtp.port, secure: false, logger: false });
    for (const name of ['60-outlook-suppress-all.eml', '75-dmarc-fail-gmail.eml', '72-list-mailman.eml', '68-from-name-brackets.eml', '64-subject-abwesenheitsnotiz.eml']) {
      await transport.sendMail({ envelope: { from: ADDRESSES.argenta!, to: [CAMPAIGN_ADDRESS] }, raw: readFileSync(join(FIXTURES, name)) });
    }
    transport.close();

    const summary = await fetchMail(dir, { clock: new TestClock('2026-03-08T12:00:00Z'), secrets: imapSecrets() });
    expect(summary.error).toBeUndefined();
    expect(summary.listed).toBe(5);
    expect(summary.filed.map((f) => f.nation)).toEqual(['argenta']);
    expect(summary).toMatchObject({ held: 1, refused: 1, ignored: 2 });
    expect(readFileSync(join(dir, 'orders', '0001', 'argenta.yaml'), 'utf8')).toContain('<f60@argenta.test>');
    expect(await box(CAMPAIGN_ADDRESS)).toEqual([]);
    expect(await box(CAMPAIGN_ADDRESS, 'Processed')).toHaveLength(5);

    // The Duke: the receipt of his Outlook mail, and word that the other one is held. Nothing else.
    const duke = await box(ADDRESSES.argenta!);
    expect(duke).toHaveLength(2);
    expect(duke.filter(kind('receipt'))[0]!.parsed.text).toContain('Accepted (2)');
    expect(duke.filter(kind('reply'))[0]!.parsed.text).toContain('held for the GM and not yet on file');

    // The GM: the held orders with the command, the list relay with the token command, the bad From field.
    const alerts = (await box(GM_ADDRESS)).filter(kind('alert'));
    const text = alerts.map((m) => `${m.parsed.subject}\n${m.parsed.text ?? ''}`).join('\n');
    expect(alerts).toHaveLength(3);
    expect(text).toContain(`fatecraft mail accept ${dir} 'mid:<f75@argenta.test>'`);
    expect(text).toContain(`fatecraft token ${dir} argenta --new`);
    expect(text).toContain('From: Duke Cristoval [Argenta] <duke@argenta.test>');

    // The GM accepts the held orders: filed, and the receipt goes out through the relay.
    const accepted = await acceptHeld(dir, 'mid:<f75@argenta.test>', { clock: new TestClock('2026-03-08T13:00:00Z'), secrets: imapSecrets() });
    expect(accepted).toMatchObject({ nation: 'argenta', turn: 1, replaced: true });
    expect(readFileSync(join(dir, 'orders', '0001', 'argenta.yaml'), 'utf8')).toContain('<f75@argenta.test>');
    const receipts = (await box(ADDRESSES.argenta!)).filter(kind('receipt'));
    expect(receipts).toHaveLength(2);
    expect(receipts[1]!.parsed.text).toContain('are on file, replacing the orders you sent earlier');
  });
});
