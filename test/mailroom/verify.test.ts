import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { verifyMessage } from '../../src/mailroom/verify.js';
import { TOKENS, TestClock, cleanupAll, demoCopy, dropInInbox, secrets, setMailBlock } from './support.js';

/**
 * Our own DKIM/DMARC check (mail.verifyAuthentication): a message signed by
 * argenta.test's key passes, a tampered one fails, and the result goes to the
 * mail ledger for the GM. DNS is a fixed table: nothing leaves the machine.
 */
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const keyRecord = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
const dns: Record<string, string[][]> = {
  'sel._domainkey.argenta.test:TXT': [[keyRecord]],
  '_dmarc.argenta.test:TXT': [['v=DMARC1; p=reject']],
};
const resolver = async (name: string, rrtype: string) => {
  const found = dns[`${name}:${rrtype}`];
  if (found) return found;
  throw Object.assign(new Error(`no ${rrtype} for ${name}`), { code: 'ENOTFOUND' });
};

async function signed(text: string): Promise<Buffer> {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'crlf', dkim: { domainName: 'argenta.test', keySelector: 'sel', privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString() } });
  const info = await transport.sendMail({ from: 'duke@argenta.test', to: 'turns@silversheen.test', subject: 'Orders argenta turn 1', text, messageId: '<dkim-test@argenta.test>', date: new Date('2026-03-07T10:00:00Z') });
  return info.message as Buffer;
}

afterAll(() => cleanupAll());

describe('verifying DKIM and DMARC ourselves', () => {
  it('passes a message signed by the sender domain’s key, aligned with its From', async () => {
    const auth = await verifyMessage(await signed('Token: x\nhold ar-argentum-guard\n'), { resolver });
    expect(auth).toMatchObject({ servId: 'fatecraft', trusted: true, dkim: 'pass', dmarc: 'pass', domain: 'argenta.test' });
  });

  it('fails a message changed after it was signed', async () => {
    const raw = (await signed('Token: x\nhold ar-argentum-guard\n')).toString('utf8').replace('hold ar-argentum-guard', 'hold ar-dukes-pride');
    const auth = await verifyMessage(Buffer.from(raw), { resolver });
    // A body that no longer matches its signature is "neutral" for DKIM (RFC 6376): not a pass, so DMARC fails.
    expect(auth.dkim).not.toBe('pass');
    expect(auth.dmarc).toBe('fail');
  });

  it('records the result in the mail ledger when the campaign asks for it', async () => {
    const { dir } = demoCopy('verify');
    setMailBlock(dir, 'mail:\n  transport: folder\n  from: "The Silversheen Sea <turns@silversheen.test>"\n  gm: gm@silversheen.test\n  verifyAuthentication: true');
    dropInInbox(dir, 'argenta.eml', await signed(`Token: ${TOKENS.argenta}\nTurn: 1\nhold ar-argentum-guard\n`));
    const summary = await fetchMail(dir, { clock: new TestClock('2026-03-07T12:00:00Z'), secrets: secrets(), resolver });
    expect(summary.filed.map((f) => f.nation)).toEqual(['argenta']);
    const ledger = join(dir, 'mail', 'ledger');
    const entries = readdirSync(ledger).map((n) => parse(readFileSync(join(ledger, n), 'utf8')) as { auth?: unknown });
    expect(entries).toHaveLength(1);
    expect(entries[0]?.auth).toMatchObject({ servId: 'fatecraft', trusted: true, dkim: 'pass', dmarc: 'pass', domain: 'argenta.test' });
  });
});
