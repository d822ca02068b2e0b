import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { createTransport } from 'nodemailer';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { SEATS_KEY } from '../../src/campaign/secrets.js';
import type { Offer } from '../../src/schedule/runtime.js';
import type { AcceptResult, BackResult, SeatDesk } from '../../src/schedule/seats/desk.js';
import { offerCode } from '../../src/schedule/seats/offers.js';
import { ADDRESSES, CAMPAIGN_ADDRESS, TestClock, cleanupAll, demoCopy, dropInInbox, secrets } from '../mailroom/support.js';

/**
 * How the mailroom reads seats by mail (decide.ts, seat-intake.ts), against a desk that records what it is
 * asked: who may volunteer and under which name, which "accept" takes a seat and which is refused, and
 * that an "accept trade with …" order is never taken for one.
 */
afterAll(cleanupAll);

const KEY = 'a-test-seats-key';
const OFFERS: Offer[] = [
  { id: 1, nation: 'grarkul', address: 'mara@volunteer.test', at: '2026-03-01T00:00:00Z', turn: 1, status: 'open' },
  { id: 2, nation: 'westvalia', address: ADDRESSES.argenta!, at: '2026-03-01T00:00:00Z', turn: 1, status: 'open' },
];

function recordingDesk() {
  const calls: string[] = [];
  const desk: SeatDesk = {
    openOffers: () => OFFERS,
    async volunteer(address, name) {
      calls.push(`volunteer ${address} ${name}`);
      return 'added';
    },
    async ready(nation) {
      calls.push(`ready ${nation}`);
    },
    async back(nation): Promise<BackResult> {
      calls.push(`back ${nation}`);
      return { filed: true, turn: 1, given: [] };
    },
    async accept(offer, key): Promise<AcceptResult> {
      calls.push(`accept ${offer}`);
      void key;
      return { ok: false, why: 'the test desk gives no seats' };
    },
  };
  return { desk, calls };
}

async function mail(dir: string, name: string, m: { from: string; subject: string; text: string }): Promise<void> {
  const stream = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const info = await stream.sendMail({ ...m, to: CAMPAIGN_ADDRESS, messageId: `<${name}@players.test>` });
  dropInInbox(dir, `${name}.eml`, info.message as Buffer);
}

async function answers(dir: string): Promise<Record<string, string>> {
  const outbox = join(dir, 'mail', 'outbox');
  const out: Record<string, string> = {};
  for (const f of readdirSync(outbox)) {
    const m = await simpleParser(readFileSync(join(outbox, f)));
    out[String(m.inReplyTo)] = m.text ?? '';
  }
  return out;
}

describe('seats by mail, as the mailroom reads them', () => {
  it('takes a volunteer from anyone, names them, and matches an accept to its own invitation only', async () => {
    const { dir } = demoCopy('seat-mail');
    const { desk, calls } = recordingDesk();
    const code = offerCode(KEY, 'silversheen', OFFERS[0]!);
    await mail(dir, 'v1', { from: 'Ilse Varg <ilse@volunteer.test>', subject: 'Hello', text: 'volunteer\n' });
    await mail(dir, 'v2', { from: 'someone@volunteer.test', subject: 'volunteer as Bjorn the Bold', text: '\n' });
    await mail(dir, 'a1', { from: 'mara@volunteer.test', subject: 'Re: Invitation', text: 'accept\n' });
    await mail(dir, 'a2', { from: 'mara@volunteer.test', subject: 'Re: Invitation', text: `accept ${offerCode(KEY, 'silversheen', OFFERS[1]!)}\n` });
    await mail(dir, 'a3', { from: 'mara@volunteer.test', subject: 'Re: Invitation', text: `Accept!\n\n> accept ${code}\n` });
    // An order to accept trade, from a player who also has an invitation: orders, not a seat.
    await mail(dir, 't1', { from: ADDRESSES.argenta!, subject: 'Orders', text: 'accept trade with gondarahl\n' });
    await mail(dir, 'b1', { from: ADDRESSES.gondarahl!, subject: 'back', text: '\n' });
    const summary = await fetchMail(dir, { clock: new TestClock(), secrets: secrets({ [SEATS_KEY]: KEY }), seats: desk });
    expect(summary.skipped).toEqual([]);
    expect(calls.sort()).toEqual(['accept 1', 'back gondarahl', 'volunteer ilse@volunteer.test Ilse Varg', 'volunteer someone@volunteer.test Bjorn the Bold']);
    const a = await answers(dir);
    expect(a['<a1@players.test>']).toContain('Your "accept" did not carry the code of the invitation mailed to this address');
    expect(a['<a2@players.test>']).toContain('Your "accept" did not carry the code of the invitation mailed to this address');
    expect(a['<a3@players.test>']).toContain('Your "accept" could not take the seat: the test desk gives no seats.');
    expect(a['<t1@players.test>']).toContain('without the order token');
    expect(a['<v1@players.test>']).toContain('Thank you, Ilse Varg: you are now on the standby list');
    expect(a['<b1@players.test>']).toContain('Welcome back!');
  });
});
