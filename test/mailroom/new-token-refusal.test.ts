import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import { runInProcess } from '../support/command-line.js';
import { cleanupScratch, demoCopy, scratchDir } from '../schedule/support.js';

/**
 * Issue 34, item 5: after `fatecraft token --new`, a mail with the old token
 * was told to "use the token at the top of your latest turn report" — which
 * carries the old token. The refusal now points at the mail that brought the
 * new one, by its subject and the time it was sent, as the player's clock
 * reads it. Through the command line (in this process), on the demo with its folder mail.
 */
afterAll(cleanupScratch);

const secrets = join(scratchDir('secrets'), 'token.secrets.yaml');
// The commands run in this process (their wiring through the built CLI: test/cli/command-line.test.ts).
const run = (args: string[], now: string) => runInProcess(args, { env: { FATECRAFT_NOW: now, FATECRAFT_SECRETS: secrets } });
const tokens = () => load(readFileSync(secrets, 'utf8')) as Record<string, string>;

describe('a mail with a token the GM has replaced', () => {
  it('is pointed at the mail that brought the new token, by its subject and when it was sent', async () => {
    const dir = demoCopy('new-token', undefined, { keepMail: true });
    expect((await run(['tick', dir], '2025-03-17T09:00:00Z')).status).toBe(0);
    const old = tokens().argenta!;
    const renewed = await run(['token', dir, 'argenta', '--new'], '2025-03-18T09:30:00Z');
    expect(renewed.status, renewed.stderr).toBe(0);
    const address = /email: \[?"?([^\s",\]]+@[^\s",\]]+)/.exec(readFileSync(join(dir, 'campaign.yaml'), 'utf8').split('argenta:')[1]!)![1]!;
    writeFileSync(
      join(dir, 'mail', 'inbox', 'old-token.eml'),
      `From: ${address}\r\nTo: turns@silversheen.example\r\nSubject: orders\r\nDate: Wed, 19 Mar 2025 10:00:00 +0000\r\nMessage-ID: <old-token@argenta.test>\r\n\r\nToken: ${old}\r\nhold Argentum Guard\r\n`,
    );
    expect((await run(['mail', 'fetch', dir], '2025-03-19T10:05:00Z')).status).toBe(0);
    const answers = (await new OutboxQueue(join(dir, 'mail')).all()).filter((q) => q.kind === 'reply' && q.message.to.includes(address) && q.message.inReplyTo === '<old-token@argenta.test>');
    expect(answers).toHaveLength(1);
    const text = answers[0]!.message.text;
    expect(text).toContain('an order token that the GM has since replaced');
    expect(text).not.toContain('at the top of your latest turn report');
    expect(text).toContain('The new token came in a mail of its own, "[The Silversheen Sea] A new order token for Duchy of Argenta", sent Tue 18 Mar 2025 09:30 GMT: use that one');
  });
});
