import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { turnRenderers } from '../../src/cli/renderers.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import { ADDRESSES, TestClock, TOKENS, cleanupAll, demoCopy, dropInInbox, secrets } from './support.js';

/**
 * The limit on letters holds against resubmission (issue 33): with press relayed at once, 40 order mails once
 * sent one reader 120 letters, as each resubmission relayed its letters anew and order mails were exempt from
 * the flood limit. A relayed letter counts against the sender's `perTurn` whatever later orders say, a
 * resubmission relays nothing already relayed, and the flood limit covers order mails too.
 */
afterAll(cleanupAll);

function pressCampaign(label: string): string {
  const { dir } = demoCopy(label, { yamlOrders: false });
  const file = join(dir, 'campaign.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('rules:\n  newSettlementCost: 50\n', 'rules:\n  newSettlementCost: 50\n  press: { maxLength: 1000, perTurn: 3, anonymous: true, relay: atOnce }\n'));
  return dir;
}

function ordersMail(id: string, minute: number, lines: string[]): string {
  return [
    'From: Duke Cristoval <duke@argenta.test>',
    'To: The Silversheen Sea <turns@silversheen.test>',
    'Subject: Orders',
    `Date: Sun, 8 Mar 2026 10:${String(minute).padStart(2, '0')}:00 +0000`,
    `Message-ID: <${id}@argenta.test>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Turn: 1',
    `Token: ${TOKENS.argenta}`,
    ...lines,
    '',
  ].join('\r\n');
}

const queued = async (dir: string) => new OutboxQueue(join(dir, 'mail')).all();
const lettersTo = async (dir: string, nation: string) => (await queued(dir)).filter((q) => q.kind === 'press' && q.message.to.includes(ADDRESSES[nation]!));

describe('the limit on letters, against resubmission', () => {
  it('40 resubmissions with new letters each deliver at most perTurn letters, by mail and in the report', async () => {
    const dir = pressCampaign('press-flood');
    const clock = new TestClock('2026-03-08T11:00:00Z');
    for (let i = 1; i <= 40; i++) {
      dropInInbox(dir, `m${String(i).padStart(2, '0')}.eml`, ordersMail(`flood-${i}`, i, ['hold Argentum Guard', `press to Gondarahl: Letter ${i}a`, `press to Gondarahl: Letter ${i}b`, `press unsigned to Gondarahl: Letter ${i}c`]));
    }
    const summary = await fetchMail(dir, { clock, secrets: secrets() });
    expect(summary.filed.length).toBeGreaterThan(0);

    const letters = await lettersTo(dir, 'gondarahl');
    expect(letters.length).toBeLessThanOrEqual(3);
    expect(letters.map((q) => q.message.text.match(/\| (Letter \d+\w)/)?.[1]).sort()).toEqual(['Letter 1a', 'Letter 1b', 'Letter 1c']);

    // Each later receipt says its letters were not relayed, and why.
    const receipts = (await queued(dir)).filter((q) => q.kind === 'receipt');
    const second = receipts.find((q) => q.message.text.includes('Letter 2a'))!;
    expect(second.message.text).toMatch(/Letter 2a.*\n?.*3 letters this season/);

    // The flood limit covers order mails: past it, a clear answer and nothing filed.
    expect(summary.filed.length).toBeLessThan(40);
    const refusals = (await queued(dir)).filter((q) => q.kind === 'reply' && q.message.to.includes(ADDRESSES.argenta!));
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals[0]!.message.text).toMatch(/not filed: .*order mails .*within 24 hours/);
    expect(refusals[0]!.message.text).toContain('The orders on file stand');

    // The report carries no letter of Argenta's beyond what was relayed.
    await runTurn(dir, { renderers: turnRenderers() });
    const report = readFileSync(join(dir, 'turns', '0001', 'reports', 'gondarahl.txt'), 'utf8');
    const read = [...report.matchAll(/\| (Letter \d+\w)/g)].map((m) => m[1]);
    expect(read.length).toBeLessThanOrEqual(3);
    for (const l of read) expect(['Letter 1a', 'Letter 1b', 'Letter 1c']).toContain(l);
  }, 120_000);

  it('a letter relayed counts whatever later orders say; one relayed before is not relayed again, nor counted twice', async () => {
    const dir = pressCampaign('press-count');
    const clock = new TestClock('2026-03-08T11:00:00Z');
    dropInInbox(dir, 'a.eml', ordersMail('count-1', 1, ['hold Argentum Guard', 'press to Gondarahl: First.', 'press to Gondarahl: Second.']));
    await fetchMail(dir, { clock, secrets: secrets() });
    // The later orders drop both letters and bring two new ones: one more fits the limit of three.
    clock.set('2026-03-08T12:00:00Z');
    dropInInbox(dir, 'b.eml', ordersMail('count-2', 2, ['hold Argentum Guard', 'press to Gondarahl: Third.', 'press to Gondarahl: Fourth.']));
    await fetchMail(dir, { clock, secrets: secrets() });
    // Then the first letter again, with nothing new: nothing is mailed, and it is on file for the report.
    clock.set('2026-03-08T13:00:00Z');
    dropInInbox(dir, 'c.eml', ordersMail('count-3', 3, ['hold Argentum Guard', 'press to Gondarahl: First.']));
    await fetchMail(dir, { clock, secrets: secrets() });

    const letters = (await lettersTo(dir, 'gondarahl')).map((q) => q.message.text.match(/\| (\w+\.)/)?.[1]).sort();
    expect(letters).toEqual(['First.', 'Second.', 'Third.']);
    const receipts = (await queued(dir)).filter((q) => q.kind === 'receipt').sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    expect(receipts[1]!.message.text).toContain('Fourth.');
    expect(receipts[1]!.message.text).toMatch(/not relayed.*3 letters this season|3 letters this season.*not relayed/s);
    expect(receipts[2]!.message.text).toContain('already mailed to Kingdom of Gondarahl this season, not again');
    const filed = readFileSync(join(dir, 'orders', '0001', 'argenta.yaml'), 'utf8');
    expect(filed).toContain('First.');
  }, 60_000);
});
