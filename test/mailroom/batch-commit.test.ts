/**
 * `mail fetch` handles its messages in batches (issue 37): each message is decided on disk and carried out,
 * its files written whole without waiting for their fsync; then the batch's files are flushed together, each
 * message is recorded done, its answers go to the server and the batch leaves the inbox in one move. Whatever
 * the batch size, the end is the same, and a run cut before or after a batch's flush, done marks or move ends,
 * when run again, where one uninterrupted run ends, every answer sent once.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import jsyaml from 'js-yaml';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { FolderInbox } from '../../src/mail/folder-transport.js';
import { BatchFlush } from '../../src/mailroom/batch-flush.js';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { Ledger, type LedgerEntry } from '../../src/mailroom/ledger.js';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import type { FaultPoint } from '../../src/mailroom/runtime.js';
import { FIXTURES, TestClock, cleanupAll, countingTransport, demoCopy, dropInInbox, everyFile, files, secrets, setMailBlock, snapshot } from './support.js';

afterAll(cleanupAll);
afterEach(() => {
  vi.restoreAllMocks();
});

const NOW = '2026-03-08T12:00:00Z';

/**
 * The demo's five order mails, then argenta's second orders (they replace its first), a refusal, an
 * auto-reply (ignored), a command, and a second delivery of grarkul's mail: ten messages.
 */
function mailbox(label: string) {
  const scratch = demoCopy(label, { yamlOrders: false, demoMail: true });
  setMailBlock(scratch.dir, 'mail:\n  transport: folder\n  from: "The Silversheen Sea <turns@silversheen.test>"\n  gm: gm@silversheen.test\n');
  const inbox = join(scratch.dir, 'mail', 'inbox');
  dropInInbox(scratch.dir, 'x1-replaces-earlier.eml', readFileSync(join(FIXTURES, '20-replaces-earlier.eml')));
  dropInInbox(scratch.dir, 'x2-missing-token.eml', readFileSync(join(FIXTURES, '26-missing-token.eml')));
  dropInInbox(scratch.dir, 'x3-auto-replied.eml', readFileSync(join(FIXTURES, '39-auto-replied.eml')));
  dropInInbox(scratch.dir, 'x4-command-deadline.eml', readFileSync(join(FIXTURES, '50-command-deadline.eml')));
  dropInInbox(scratch.dir, 'x5-duplicate-of-grarkul.eml', readFileSync(join(inbox, '2026-03-07-grarkul.eml')));
  return scratch;
}
const MESSAGES = 10;

class Crash extends Error {}

async function uninterrupted(label: string, batch?: number) {
  const scratch = mailbox(label);
  const transport = countingTransport(scratch.dir, 2);
  const summary = await fetchMail(scratch.dir, { clock: new TestClock(NOW), secrets: secrets(), transport, ...(batch !== undefined ? { batch } : {}) });
  return { scratch, transport, summary, snapshot: await snapshot(scratch.dir), files: everyFile(scratch.dir) };
}

describe('fetch in batches', async () => {
  const base = await uninterrupted('batch-default');

  it('files, answers and moves every message whatever the batch size: the same files with batches of 1, 3 and the default', async () => {
    expect(base.summary.listed).toBe(MESSAGES);
    expect(base.summary.filed.map((f) => f.nation)).toEqual(['argenta', 'gondarahl', 'grarkul', 'vulcanstille', 'westvalia', 'argenta']);
    expect(base.summary.alreadyHandled).toBe(1);
    expect(files(join(base.scratch.dir, 'mail', 'inbox'))).toEqual([]);
    expect(readFileSync(join(base.scratch.dir, 'orders', '0001', 'argenta.yaml'), 'utf8')).toContain('Argentum Guard');
    for (const batch of [1, 3]) {
      const run = await uninterrupted(`batch-${batch}`, batch);
      expect(run.files, `batch ${batch}`).toEqual(base.files);
      expect([...run.transport.sends.keys()].sort()).toEqual([...base.transport.sends.keys()].sort());
      expect([...run.transport.sends.values()].every((n) => n === 1)).toBe(true);
      run.scratch.cleanup();
    }
  });

  it('moves each batch out of the inbox in one call, and flushes a batch\'s files together before its first done mark and its first send', async () => {
    const scratch = mailbox('batch-events');
    // Spies that call through; their calls and the fault hook's share one order (invocationCallOrder).
    const markAll = vi.spyOn(FolderInbox.prototype, 'markAllProcessed');
    const one = vi.spyOn(FolderInbox.prototype, 'markProcessed');
    const add = vi.spyOn(BatchFlush.prototype, 'add');
    const flush = vi.spyOn(BatchFlush.prototype, 'flush');
    const faults = vi.fn((point: FaultPoint, detail: string) => void [point, detail]);
    const summary = await fetchMail(scratch.dir, { clock: new TestClock(NOW), secrets: secrets(), transport: countingTransport(scratch.dir, 2), batch: 3, faults });
    const moves = markAll.mock.calls.map(([ids]) => ids.length);
    const timeline: [number, string][] = [
      ...add.mock.calls.map(([file], i): [number, string] => [add.mock.invocationCallOrder[i]!, `add ${file.slice(scratch.dir.length + 1)}`]),
      ...flush.mock.invocationCallOrder.map((order): [number, string] => [order, 'flush']),
      ...faults.mock.calls.map(([point, detail], i): [number, string] => [faults.mock.invocationCallOrder[i]!, ['after-enqueue', 'after-done'].includes(point) ? `${point} ${detail}` : point]),
    ];
    const events = timeline.sort((a, b) => a[0] - b[0]).map(([, event]) => event);
    expect(summary.sent.sent.length).toBeGreaterThan(0);
    // Ten messages, three at a time: four batches, each moved by one call (Processed; the inbox has no quarantine here).
    expect(moves).toEqual([3, 3, 3, 1]);
    expect(one.mock.calls.filter(([, folder]) => folder === 'Processed')).toHaveLength(MESSAGES); // the folder inbox moves each file itself
    expect(events.filter((e) => e === 'after-move')).toHaveLength(4);
    // A message's files, written without their fsync, are flushed before its done mark, and every file before
    // anything is sent. (An ignored message, with no files, is recorded done at once.)
    const unflushed = new Map<string, number>(); // by the ledger key of the message that wrote them (after-enqueue and after-done name it)
    const flushed: number[] = [];
    let carrying = 0; // written by the message being carried out (its after-enqueue ends it)
    for (const [i, event] of events.entries()) {
      const seen = `at ${i}:\n${events.slice(0, i + 1).join('\n')}`;
      if (event.startsWith('add ')) carrying += 1;
      if (event.startsWith('after-enqueue ')) {
        unflushed.set(event.slice('after-enqueue '.length), carrying);
        carrying = 0;
      }
      if (event === 'flush') {
        flushed.push([...unflushed.values()].reduce((a, b) => a + b, 0));
        unflushed.clear();
      }
      if (event.startsWith('after-done ')) expect(unflushed.get(event.slice('after-done '.length)) ?? 0, seen).toBe(0);
      if (event === 'before-send') expect([...unflushed.values()].every((n) => n === 0), seen).toBe(true);
    }
    // One flush per batch, not one per message: each batch's files (eight messages wrote some) in one go.
    expect(flushed.filter((n) => n > 0).length).toBeLessThanOrEqual(4);
    expect(flushed.some((n) => n > 3), flushed.join(' ')).toBe(true);
    expect(events.filter((e) => e.startsWith('add orders/0001/')).length).toBe(12); // six filings, each its orders and its mail
    scratch.cleanup();
  });

  it('a run cut before or after a batch\'s flush, done marks or move, then run again: the same files, every answer once', async () => {
    // Batches of three: messages 1–3, 4–6, 7–9, 10. The ignored auto-reply (8th) is recorded done at once.
    const cuts: [FaultPoint, number][] = [
      ['after-enqueue', 3], // the first batch carried out, nothing flushed or done
      ['after-done', 1], // flushed, the first message done, the other two decided
      ['after-done', 3], // the first batch done, not moved, its answers not given
      ['after-move', 1], // the first batch moved, the second being handled
      ['before-send', 2],
      ['after-decide', 5], // in the second batch, the first batch's move behind it
      ['after-move', 2],
      ['after-done', 8], // the last batches
      ['after-move', 4],
    ];
    for (const [point, n] of cuts) {
      const scratch = mailbox(`batch-cut-${point}-${n}`);
      const transport = countingTransport(scratch.dir, 2);
      let seen = 0;
      const faults = (p: FaultPoint) => {
        if (p === point && ++seen === n) throw new Crash(`crash at ${p} #${n}`);
      };
      await expect(fetchMail(scratch.dir, { clock: new TestClock(NOW), secrets: secrets(), transport, batch: 3, faults }), `${point} #${n}`).rejects.toBeInstanceOf(Crash);
      const again = countingTransport(scratch.dir, 2);
      await fetchMail(scratch.dir, { clock: new TestClock(NOW), secrets: secrets(), transport: again, batch: 3 });
      expect(await snapshot(scratch.dir), `${point} #${n}`).toEqual(base.snapshot);
      expect(everyFile(scratch.dir), `${point} #${n}`).toEqual(base.files);
      const sends = new Map(transport.sends);
      for (const [id, count] of again.sends) sends.set(id, (sends.get(id) ?? 0) + count);
      expect([...sends.keys()].sort(), `${point} #${n}`).toEqual([...base.transport.sends.keys()].sort());
      expect([...sends.values()].every((count) => count === 1), `${point} #${n}`).toBe(true);
      scratch.cleanup();
    }
  });
});

describe('a power cut after a batch\'s done marks', () => {
  it('leaves their journal; the next run writes the entries again from it, whatever their own files held', async () => {
    const base = await uninterrupted('journal-base');
    expect(Object.keys(base.files).filter((f) => f.startsWith('mail/ledger-done'))).toEqual([]); // gone once flushed in place

    const scratch = mailbox('journal-cut');
    const transport = countingTransport(scratch.dir, 2);
    let seen = 0;
    const faults = (p: FaultPoint) => {
      if (p === 'after-done' && ++seen === 1) throw new Crash('cut after the first batch\'s done marks');
    };
    await expect(fetchMail(scratch.dir, { clock: new TestClock(NOW), secrets: secrets(), transport, batch: 3, faults })).rejects.toBeInstanceOf(Crash);
    const mail = join(scratch.dir, 'mail');
    const journal = jsyaml.load(readFileSync(join(mail, 'ledger-done.yaml'), 'utf8')) as LedgerEntry[];
    expect(journal.map((e) => e.status)).toEqual(['done', 'done', 'done']);
    // What a power cut may leave of the entries' own files, written without waiting for their fsync: one cut
    // short, one as it was before (decided), one written.
    const ledger = new Ledger(mail);
    writeFileSync(ledger.fileFor(journal[0]!.key), '');
    const { doneAt: _doneAt, folder: _folder, ...decided } = journal[1]!;
    writeFileSync(ledger.fileFor(journal[1]!.key), jsyaml.dump({ ...decided, status: 'decided' }));

    const again = countingTransport(scratch.dir, 2);
    await fetchMail(scratch.dir, { clock: new TestClock(NOW), secrets: secrets(), transport: again, batch: 3 });
    expect(everyFile(scratch.dir)).toEqual(base.files);
    const sends = new Map(transport.sends);
    for (const [id, count] of again.sends) sends.set(id, (sends.get(id) ?? 0) + count);
    expect([...sends.keys()].sort()).toEqual([...base.transport.sends.keys()].sort());
    expect([...sends.values()].every((count) => count === 1)).toBe(true);
    scratch.cleanup();
    base.scratch.cleanup();
  });
});

describe('the outgoing queue after a power cut', () => {
  it('writes a queued message again when its file, not yet flushed, was left cut short; one that reads is left alone', async () => {
    const scratch = demoCopy('queue-cut-short');
    const queue = new OutboxQueue(join(scratch.dir, 'mail'));
    const message = { messageId: '<receipt.1@fatecraft.test>', date: NOW, from: 'turns@silversheen.test', to: ['duke@argenta.test'], subject: 'Orders received', text: 'Thank you.' };
    expect(await queue.enqueue(message, { kind: 'receipt' }, new Date(NOW), new BatchFlush())).toBe(true);
    const file = queue.fileFor(message.messageId);
    writeFileSync(file, ''); // what a power cut may leave of a file renamed into place before its data reached the disk
    expect(await queue.enqueue(message, { kind: 'receipt' }, new Date(NOW))).toBe(true);
    expect((await queue.get(message.messageId))?.message.subject).toBe('Orders received');
    expect(await queue.enqueue({ ...message, subject: 'changed' }, { kind: 'receipt' }, new Date(NOW))).toBe(false);
    expect((await queue.get(message.messageId))?.message.subject).toBe('Orders received');
    scratch.cleanup();
  });
});
