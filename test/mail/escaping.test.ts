import { simpleParser } from 'mailparser';
import { createTransport } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { toMailOptions } from '../../src/mail/compose.js';
import type { OutboundMessage } from '../../src/mail/types.js';
import { renderMailStatus, type MailStatusReport } from '../../src/mailroom/status.js';

/**
 * Subjects are built from names and echo a sender's subject; bodies quote
 * senders too (a bounce's subject, a receipt's echo). Whatever they carry,
 * the mail that leaves has one subject line, no injected header and no
 * terminal code in its decoded subject or body.
 */
const UNSAFE = /(?![\n\t])[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\p{Noncharacter_Code_Point}]|(?![\u200c\u200d])\p{Cf}/u;

async function sent(message: OutboundMessage): Promise<{ raw: string; subject: string; text: string }> {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const info = await transport.sendMail(toMailOptions(message));
  const raw = (info.message as Buffer).toString('utf8');
  const parsed = await simpleParser(raw);
  return { raw, subject: parsed.subject ?? '', text: parsed.text ?? '' };
}

describe('hostile text in outgoing mail', () => {
  it('keeps the subject on one plain line and the body free of terminal codes', async () => {
    const mail = await sent({
      messageId: '<hostile@example.org>',
      date: new Date('2026-03-01T10:00:00Z'),
      from: 'gm@example.org',
      to: ['player@example.org'],
      subject: 'Re: Orders\r\nBcc: victim@example.org\u001b[31m \u202eevil',
      text: 'The message was: Orders\u001b]0;pwned\u0007\r\nsecond line\u2028== GM NOTICE ==\n\tindented\n',
    });
    const headers = mail.raw.slice(0, mail.raw.indexOf('\n\n'));
    expect(headers).not.toMatch(/^bcc:/im);
    expect(mail.subject).toBe('Re: Orders Bcc: victim@example.org\ufffd[31m \ufffdevil');
    expect(UNSAFE.exec(mail.text)?.[0]).toBeUndefined();
    expect(mail.text).not.toMatch(/^== GM NOTICE/m);
    expect(mail.text).toContain('The message was: Orders\ufffd]0;pwned\ufffd\nsecond line ↵ == GM NOTICE ==\n indented');
  });

  it('leaves ordinary subjects and bodies as they are', async () => {
    const mail = await sent({ messageId: '<plain@example.org>', date: new Date('2026-03-01T10:00:00Z'), from: 'gm@example.org', to: ['p@example.org'], subject: '[Silversheen] Turn 4 report for Argenta — Ørnulf’s', text: 'Line one\n\tindented\n' });
    expect(mail.subject).toBe('[Silversheen] Turn 4 report for Argenta — Ørnulf’s');
    expect(mail.text).toBe('Line one\n\tindented\n');
  });
});

describe('hostile text on the GM terminal', () => {
  it('mail status prints bounce diagnostics and server errors as plain lines', () => {
    const report: MailStatusReport = {
      configured: true,
      transport: 'smtp',
      inbound: { total: 0, byOutcome: {}, quarantined: [], unfinished: [], authFailures: [] },
      outbound: { pending: [], failed: [], sent: 0 },
      bounces: [{ key: 'b1', at: '2026-03-01T10:00:00Z', address: 'p@example.org', nations: ['argenta'], action: 'failed', diagnostic: '550 no\u001b[2J\r\n== GM NOTICE ==\u202e' }],
    };
    const printed = renderMailStatus(report);
    expect(printed.replace(/\n/g, '')).not.toMatch(UNSAFE);
    expect(printed).not.toMatch(/^== GM NOTICE/m);
    expect(printed).toContain('— 550 no\ufffd[2J ↵ == GM NOTICE ==\ufffd');
  });
});
