import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { TestClock, cleanupAll, demoCopy, dropInInbox, files, secrets } from './support.js';

/** Issue 26, defect 4 as it was found: a unit named with terminal escapes and line breaks, in a YAML attachment. */
afterAll(cleanupAll);

const UNSAFE = /(?![\n\t])[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\p{Noncharacter_Code_Point}]|(?![\u200c\u200d])\p{Cf}/u;

const MAIL = `From: Duke Cristoval <duke@argenta.test>\r
To: The Silversheen Sea <turns@silversheen.test>\r
Subject: =?utf-8?q?my_orders=1B[31m?=\r
Date: Fri, 6 Mar 2026 18:00:00 +0000\r
Message-ID: <hostile@argenta.test>\r
MIME-Version: 1.0\r
Content-Type: multipart/mixed; boundary="mix"\r
\r
--mix\r
Content-Type: text/plain; charset=utf-8\r
\r
Orders attached.\r
\r
--mix\r
Content-Type: application/x-yaml; name="argenta.yaml"\r
Content-Disposition: attachment; filename="argenta.yaml"\r
\r
nation: argenta\r
turn: 1\r
token: silver-sails-1021\r
orders:\r
  - hold: Argentum Guard\r
  - build: Argentum\r
    unit: marines\r
    name: "Evil\\e[2J\\e[31m\\n== GM NOTICE ==\\nArgenta wins"\r
\r
--mix--\r
`;

describe('a hostile unit name in a YAML attachment', () => {
  it('is refused on its line in the receipt, the other order filed, and the answer carries no terminal code', async () => {
    const { dir } = demoCopy('hostile-names', { yamlOrders: false });
    dropInInbox(dir, 'hostile.eml', MAIL);
    await fetchMail(dir, { clock: new TestClock(), secrets: secrets() });
    const outbox = join(dir, 'mail', 'outbox');
    const sent = files(outbox);
    expect(sent).toHaveLength(1);
    const receipt = await simpleParser(readFileSync(join(outbox, sent[0]!)));
    expect(receipt.subject).toBe('Re: my orders\ufffd[31m');
    const text = receipt.text ?? '';
    expect(text).toMatch(/line 6: .*\n +✗ "name" holds U\+001B \(escape, which starts terminal codes\) at character 5: "Evil\ufffd\[2J\ufffd\[31m ↵ == GM NOTICE == ↵ Argenta wins"/);
    expect(text).toMatch(/Accepted \(1\):\n  line 5: /);
    expect(UNSAFE.exec(text)?.[0]).toBeUndefined();
    expect(text).not.toMatch(/^== GM NOTICE/m);
    const filed = readFileSync(join(dir, 'orders', '0001', 'argenta.yaml'), 'utf8');
    // The refused order is not filed; the accepted one keeps its mail line and the words it was written in.
    expect(filed).toMatch(/\norders:\n  - hold: ar-argentum-guard\n    line: 5\n    written: "hold: Argentum Guard"\n$/);
  });
});
