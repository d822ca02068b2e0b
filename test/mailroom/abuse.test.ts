import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { Ledger } from '../../src/mailroom/ledger.js';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import { ADDRESSES, FIXTURES, TestClock, cleanupAll, demoCopy, dropInInbox, files, secrets } from './support.js';

/** Hostile and runaway mail, through the folder transport: loops with responders, floods, a thousand at once. */
afterAll(cleanupAll);

describe('an auto-reply loop', () => {
  it('ends: a well-behaved responder gets one receipt, a responder without any header gets at most the day’s share of answers', async () => {
    const { dir } = demoCopy('loop', { yamlOrders: false, demoMail: true });
    const clock = new TestClock();
    const outbox = join(dir, 'mail', 'outbox');
    const answered = new Set<string>();
    let rounds = 0;
    let robotMails = 0;
    for (; rounds < 100; rounds++) {
      await fetchMail(dir, { clock, secrets: secrets() });
      let wrote = 0;
      for (const name of files(outbox)) {
        if (answered.has(name)) continue;
        answered.add(name);
        const mail = await simpleParser(readFileSync(join(outbox, name)));
        const to = mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : undefined;
        const id = `<robot-${robotMails}@robots.test>`;
        if (to === ADDRESSES.argenta) {
          // A vacation responder that marks its answer (Auto-Submitted), though it answers everything.
          dropInInbox(dir, `robot-${robotMails++}.eml`, `From: ${to}\r\nTo: turns@silversheen.test\r\nSubject: Away: ${mail.subject}\r\nMessage-ID: ${id}\r\nAuto-Submitted: auto-replied\r\n\r\nI am away.\r\n`);
          wrote++;
        } else if (to === ADDRESSES.gondarahl) {
          // A broken responder: answers everything, marks nothing.
          dropInInbox(dir, `robot-${robotMails++}.eml`, `From: ${to}\r\nTo: turns@silversheen.test\r\nSubject: Re: ${mail.subject}\r\nMessage-ID: ${id}\r\nIn-Reply-To: ${mail.messageId}\r\n\r\nThank you for your mail. I will read it when I am back.\r\n`);
          wrote++;
        }
      }
      if (wrote === 0) break;
      clock.advance(60_000);
    }
    expect(rounds).toBeLessThan(30);
    const queue = await new OutboxQueue(join(dir, 'mail')).all();
    const to = (address: string) => queue.filter((q) => q.message.to.includes(address) && (q.kind === 'receipt' || q.kind === 'reply')).length;
    expect(to(ADDRESSES.argenta!)).toBe(1); // its receipt; the responder's answer was ignored
    expect(to(ADDRESSES.gondarahl!)).toBe(20); // the per-address daily share (flood.repliesPerAddressPerDay)
    const ledger = await new Ledger(join(dir, 'mail')).all();
    expect(ledger.filter((e) => e.outcome?.startsWith('ignored (auto-reply)'))).toHaveLength(1);
    expect(ledger.filter((e) => e.outcome?.includes('(no answer sent)')).length).toBeGreaterThan(0);
    expect(files(join(dir, 'mail', 'inbox'))).toEqual([]);
  });
});

describe('a thousand messages at once', () => {
  it('are each handled by their kind, none stops the run, none is left behind', { timeout: 180_000 }, async () => {
    const { dir } = demoCopy('thousand', { yamlOrders: false });
    // One in twenty is a player's valid orders (the fixtures 01-24, in turn); the rest hostile or odd: wrong
    // and missing tokens, strangers, auto-replies, lists, loops, bounces, garbage, commands (the fixtures 25-52).
    const all = readdirSync(FIXTURES).filter((n) => n.endsWith('.eml')).sort();
    const valid = all.filter((n) => Number(n.slice(0, 2)) <= 24);
    const odd = all.filter((n) => Number(n.slice(0, 2)) >= 25 && Number(n.slice(0, 2)) <= 52 && !['30-late.eml', '38-too-large.eml'].includes(n)); // those two are valid without their setup
    const total = 1000;
    let raw = '';
    for (let i = 0; i < total; i++) {
      const name = i % 20 === 0 ? valid[(i / 20) % valid.length]! : odd[i % odd.length]!;
      // Each a distinct message with a fresh Message-ID, except every hundredth: a second delivery of the one before.
      if (i % 100 !== 99) raw = readFileSync(join(FIXTURES, name)).toString('latin1').replace(/^(Message-ID:\s*<)/im, `$1n${i}.`);
      dropInInbox(dir, `${String(i).padStart(4, '0')}-${name}`, Buffer.from(raw, 'latin1'));
    }
    const started = performance.now();
    const summary = await fetchMail(dir, { clock: new TestClock(), secrets: secrets() });
    const seconds = (performance.now() - started) / 1000;
    expect(summary.error).toBeUndefined();
    expect(summary.listed).toBe(total);
    expect(summary.handled + summary.alreadyHandled).toBe(total);
    expect(summary.alreadyHandled).toBe(10); // the second deliveries
    expect(files(join(dir, 'mail', 'inbox'))).toEqual([]);
    expect(files(join(dir, 'mail', 'processed')).length + files(join(dir, 'mail', 'quarantine')).length).toBe(total);

    const ledger = await new Ledger(join(dir, 'mail')).all();
    expect(ledger).toHaveLength(total - 10);
    expect(ledger.every((e) => e.status === 'done')).toBe(true);
    // Most bear the Duke's address: past the day's limit that mail is filed away unanswered (the GM told once).
    // His valid orders count apart, and only they: 30 are filed, each with its receipt, and the 20 after them
    // refused, each with an answer saying why (issue 33: resubmitting must not flood anyone); other answers to
    // him stop at the day's share.
    const flood = ledger.filter((e) => e.decision?.kind === 'ignore' && e.decision.reason === 'flood');
    expect(flood.length).toBeGreaterThan(400);
    expect(summary.filed.length).toBe(30);
    expect(ledger.filter((e) => e.decision?.kind === 'refuse' && e.decision.reason === 'too-many-orders')).toHaveLength(20);
    const queue = await new OutboxQueue(join(dir, 'mail')).all();
    expect(queue.filter((q) => q.kind === 'alert' && q.message.subject.includes('Flood of mail from duke@argenta.test'))).toHaveLength(1);
    expect(queue.filter((q) => q.kind === 'alert' && q.message.subject.includes('Too many order mails from duke@argenta.test'))).toHaveLength(1);
    expect(queue.filter((q) => q.message.to.includes(ADDRESSES.argenta!) && q.kind === 'receipt')).toHaveLength(30);
    const replies = queue.filter((q) => q.message.to.includes(ADDRESSES.argenta!) && q.kind === 'reply');
    expect(replies.filter((q) => q.message.text.startsWith('Your orders were not filed:'))).toHaveLength(20);
    expect(replies.length).toBeLessThanOrEqual(20 + 20);
    expect(queue.every((q) => q.status === 'sent')).toBe(true);
    console.log(`1000 messages at once: ${seconds.toFixed(1)} s (folder transport): ${summary.filed.length} filed, ${summary.refused} refused, ${summary.ignored} ignored (${flood.length} of them flood), ${summary.bounces} bounces, ${summary.commands} commands`);
  });
});
