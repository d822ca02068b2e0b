import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { redactSecret } from '../../src/mail/redact.js';
import { TOKENS } from '../mailroom/support.js';

/**
 * A token taken out of a raw mail (issue 33: filed order mails must not carry players' tokens), over every
 * mail of the mailroom's corpus that carries one: whatever the mail program did (quoted-printable, base64,
 * HTML only, an attached sheet, a reply quoting the report, another charset), the result reads as the mail
 * did — its text, HTML and attachments — with the token replaced, and shows the token nowhere.
 */
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'mailroom');
const MARK = '[order token sha256:0123456789ab]';

const shown = async (raw: Buffer) => {
  const m = await simpleParser(raw);
  return { subject: m.subject ?? '', text: m.text ?? '', html: typeof m.html === 'string' ? m.html : '', attachments: m.attachments.map((a) => a.content.toString('utf8')) };
};

describe('redacting a token from a raw mail', () => {
  const cases: [string, string][] = [];
  for (const name of readdirSync(FIXTURES).filter((n) => n.endsWith('.eml')).sort()) {
    const raw = readFileSync(join(FIXTURES, name)).toString('latin1');
    for (const token of Object.values(TOKENS)) if (raw.includes(token) || /base64|attachment|octet|utf7|koi8|windows|iso-8859/.test(name)) cases.push([name, token]);
  }

  it('finds corpus mails that carry a token in every encoding', () => {
    expect(cases.length).toBeGreaterThan(20);
  });

  for (const [name, token] of cases) {
    it(`${name}: ${token}`, async () => {
      const raw = readFileSync(join(FIXTURES, name));
      const before = await shown(raw);
      const carries = [before.subject, before.text, before.html, ...before.attachments].some((t) => t.includes(token));
      const r = await redactSecret(raw, token, MARK);
      expect(r.complete).toBe(true);
      expect(r.bytes.includes(token)).toBe(false);
      expect(r.found).toBe(carries || raw.includes(token));
      const after = await shown(r.bytes);
      const swap = (t: string) => t.split(token).join(MARK);
      expect(after).toEqual({ subject: swap(before.subject), text: swap(before.text), html: swap(before.html), attachments: before.attachments.map(swap) });
    });
  }

  it('leaves a mail without the token byte for byte', async () => {
    const raw = readFileSync(join(FIXTURES, '01-plain-text.eml'));
    const r = await redactSecret(raw, 'no-such-token-here', MARK);
    expect(r).toEqual({ bytes: raw, found: false, complete: true });
  });

  it('says when it cannot: a token split by markup in an HTML-only mail', async () => {
    const raw = Buffer.from(['From: a@b.test', 'To: c@d.test', 'Subject: x', 'MIME-Version: 1.0', 'Content-Type: text/html; charset=utf-8', '', '<p>Token: silver-<b></b>sails-1021</p>', ''].join('\r\n'));
    const r = await redactSecret(raw, 'silver-sails-1021', MARK);
    expect(r.complete).toBe(false);
  });
});
