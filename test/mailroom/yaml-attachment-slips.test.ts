import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import { ADDRESSES, TOKENS, TestClock, cleanupAll, demoCopy, dropInInbox, secrets } from './support.js';

/**
 * Issue 34, item 4: one YAML slip in the order sheet a player fills in and
 * attaches refused the whole sheet, under "No valid orders were found in your
 * message". The sheet the report mails writes each order on one line in
 * braces, `- {move: …, to: "17,5"}`; uncommenting one a space off, or without
 * the space after its "-", swallowed the order above it too, and an
 * `orders:` line a space off swallowed them all. The orders around a slip now
 * stand and are filed; the slip's order is refused at its line; the receipt
 * names the attachment the line numbers count; and no answer opens with "no
 * valid orders" when there were some.
 */
afterAll(cleanupAll);

const SHEET = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'demo-golden', 'turn-1', 'argenta-orders.yaml'), 'utf8').replace(/^turn: 2$/m, 'turn: 1');

/** The mailed order sheet with two orders uncommented, as `slip` writes the second. */
function filledIn(second: string, orders = 'orders:'): string {
  return SHEET.replace(/^orders:$/m, orders)
    .replace('  # - {move: ar-argentum-guard, to: "17,5"}', '  - {move: ar-argentum-guard, to: "17,5"}')
    .replace('  # - {move: ar-harbour-marines, to: "16,1"}', second);
}

function mail(id: string, attachment: string): string {
  const boundary = 'b-slips';
  return [
    `From: Duke Cristoval <${ADDRESSES.argenta}>`,
    'To: The Silversheen Sea <turns@silversheen.test>',
    'Subject: Orders',
    'Date: Fri, 6 Mar 2026 18:00:00 +0000',
    `Message-ID: <${id}@argenta.test>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Token: ${TOKENS.argenta}`,
    'My orders are attached.',
    '',
    `--${boundary}`,
    'Content-Type: application/yaml; name="argenta-orders.yaml"',
    'Content-Disposition: attachment; filename="argenta-orders.yaml"',
    '',
    attachment,
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

const SLIPS: Record<string, { sheet: string; line: number; says: string }> = {
  'an order a space off the others': { sheet: filledIn('   - {move: ar-harbour-marines, to: "16,1"}'), line: 28, says: 'this order is indented more than the orders above it (its "-" is in column 4, theirs in column 3)' },
  'an order with no space after its "-"': { sheet: filledIn('  -{move: ar-harbour-marines, to: "16,1"}'), line: 28, says: 'there is no space after the "-" that starts this order' },
};

describe('a slip in an attached order sheet', () => {
  for (const [what, slip] of Object.entries(SLIPS)) {
    it(`${what}: the order above it stands and is filed, the slip is refused at its line of the attachment`, { timeout: 60_000 }, async () => {
      const { dir } = demoCopy('yaml-slips', { yamlOrders: false });
      dropInInbox(dir, '1.eml', mail(`slip-${what.length}`, slip.sheet));
      await fetchMail(dir, { clock: new TestClock('2026-03-08T12:00:00Z'), secrets: secrets() });
      const filed = readFileSync(join(dir, 'orders', '0001', 'argenta.yaml'), 'utf8');
      expect(filed).toContain('move: ar-argentum-guard');
      expect(filed).not.toContain('ar-harbour-marines');
      const answer = (await new OutboxQueue(join(dir, 'mail')).all()).find((q) => q.message.to.includes(ADDRESSES.argenta!))!.message.text;
      expect(answer).not.toMatch(/no valid orders/i);
      expect(answer).toContain('are on file');
      expect(answer).toContain('Line numbers count the lines of the attached argenta-orders.yaml, from its first line.');
      expect(answer).toContain('Accepted (1):\n  line 20: ');
      expect(answer).toContain(`line ${slip.line}: `);
      expect(answer).toContain(`✗ ${slip.says}`);
    });
  }

  it('an orders: line a space off column 1: every order under it stands', { timeout: 60_000 }, async () => {
    const { dir } = demoCopy('yaml-slips', { yamlOrders: false });
    dropInInbox(dir, '1.eml', mail('slip-orders', filledIn('  - {move: ar-harbour-marines, to: "16,1"}', ' orders:')));
    await fetchMail(dir, { clock: new TestClock('2026-03-08T12:00:00Z'), secrets: secrets() });
    const filed = readFileSync(join(dir, 'orders', '0001', 'argenta.yaml'), 'utf8');
    expect(filed).toContain('move: ar-argentum-guard');
    expect(filed).toContain('move: ar-harbour-marines');
  });

  it('a sheet none of whose orders can be read says so, naming the attachment, and not "no valid orders"', { timeout: 60_000 }, async () => {
    const { dir } = demoCopy('yaml-slips', { yamlOrders: false });
    const sheet = SHEET.replace('  # - {move: ar-harbour-marines, to: "16,1"}', '  -{move: ar-harbour-marines, to: "16,1"}');
    dropInInbox(dir, '1.eml', mail('slip-none', sheet));
    await fetchMail(dir, { clock: new TestClock('2026-03-08T12:00:00Z'), secrets: secrets() });
    const answer = (await new OutboxQueue(join(dir, 'mail')).all()).find((q) => q.message.to.includes(ADDRESSES.argenta!))!.message.text;
    expect(answer).not.toMatch(/no valid orders/i);
    expect(answer).toContain('None of the orders in your message could be read (see below), so nothing was filed');
    expect(answer).toContain('What could not be read (line numbers count the lines of the attached argenta-orders.yaml, from its first line):');
    expect(answer).toContain('line 28: ');
  });
});
