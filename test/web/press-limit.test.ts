import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import type { Desk } from '../../src/web/desk.js';
import { decodeEntities } from '../report/support.js';
import { ADDRESSES, Client, csrfOf, deskOver, startedDemo, TOKENS, type DeskCampaignCopy } from './support.js';

/**
 * The season's limit on letters (issue 33, src/mailroom/file-orders.ts) holds on the desk as by mail: with
 * press relayed at once, filing the form again and again with new letters relays no more than `perTurn` of
 * them, and the page's receipt says which were not relayed and why.
 */
let copy: DeskCampaignCopy;
let desk: Desk;
const base = '/c/silversheen';

beforeAll(async () => {
  copy = await startedDemo('press-limit');
  const file = join(copy.dir, 'campaign.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('rules:\n  newSettlementCost: 50\n', 'rules:\n  newSettlementCost: 50\n  press: { maxLength: 1000, perTurn: 3, anonymous: true, relay: atOnce }\n'));
  desk = deskOver([copy]);
});
afterAll(() => copy?.cleanup());

describe('letters filed on the desk', () => {
  it('five filings with two new letters each relay three letters; the receipt and the page say the rest were left out', async () => {
    const client = new Client(desk);
    expect((await client.signInWithToken('silversheen', TOKENS.argenta!)).status).toBe(303);
    const pages: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const csrf = csrfOf((await client.get(`${base}/orders`)).text);
      copy.clock.advance(60_000);
      const text = `hold Harbour Marines\npress to Gondarahl: Letter ${i}a\npress to Gondarahl: Letter ${i}b\n`;
      const filed = await client.post(`${base}/orders`, { csrf, action: 'file', turn: '1', text });
      expect(filed.status).toBe(303);
      pages.push(decodeEntities((await client.get(filed.location!)).text));
    }
    const queued = await new OutboxQueue(join(copy.dir, 'mail')).all();
    const letters = queued.filter((q) => q.kind === 'press' && q.message.to.includes(ADDRESSES.gondarahl!));
    expect(letters.map((q) => q.message.text.match(/\| (Letter \d\w)/)?.[1]).sort()).toEqual(['Letter 1a', 'Letter 1b', 'Letter 2a']);
    // The mailed receipt of the second filing says why its second letter was left out; the page after each
    // filing over the limit says letters were left out, and shows the orders on file without them.
    const receipts = queued.filter((q) => q.kind === 'receipt').sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    expect(receipts[1]!.message.text).toMatch(/Letter 2b[\s\S]*3 letters this season/);
    expect(pages[0]).not.toContain('without your newest letters');
    expect(pages[2]).toContain('without your newest letters');
    expect(pages[2]).not.toContain('Letter 3a');
    expect(readFileSync(join(copy.dir, 'orders', '0001', 'argenta.yaml'), 'utf8')).not.toContain('Letter 5a');
  }, 60_000);
});
