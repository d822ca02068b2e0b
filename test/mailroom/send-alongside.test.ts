/**
 * A fetch sends each message's answers as soon as its message is done, while the next messages are handled,
 * not all after the last one (issue 37: a thousand receipts had waited for a thousand mails). Nothing is sent
 * before the ledger says its message is done, and a run cut short by a send in the middle of the handling
 * ends, when run again, where an uninterrupted run ends, every answer sent once.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { Ledger } from '../../src/mailroom/ledger.js';
import type { FaultPoint } from '../../src/mailroom/runtime.js';
import { TestClock, cleanupAll, countingTransport, demoCopy, everyFile, files, secrets, setMailBlock, snapshot } from './support.js';

afterAll(cleanupAll);

const NOW = '2026-03-08T12:00:00Z';

/** The demo's five order mails in a folder campaign. */
function mailbox(label: string) {
  const scratch = demoCopy(label, { yamlOrders: false, demoMail: true });
  setMailBlock(scratch.dir, 'mail:\n  transport: folder\n  from: "The Silversheen Sea <turns@silversheen.test>"\n  gm: gm@silversheen.test\n');
  return scratch;
}

class Crash extends Error {}

describe('fetch: answers leave while the next messages are handled', () => {
  it('the first receipt goes to the server before the last message is done, and each only once its own message is done', async () => {
    const scratch = mailbox('alongside-order');
    const ledger = new Ledger(join(scratch.dir, 'mail'));
    const points: string[] = [];
    const notDoneAtSend: string[] = [];
    const summary = await fetchMail(scratch.dir, {
      clock: new TestClock(NOW),
      secrets: secrets(),
      transport: countingTransport(scratch.dir, 2),
      batch: 2, // answers leave per batch (test/mailroom/batch-commit.test.ts): five messages, three batches
      faults: async (point: FaultPoint, detail: string) => {
        points.push(point);
        if (point !== 'before-send') return;
        const asking = (await ledger.all()).filter((entry) => entry.queued?.includes(detail));
        if (asking.length === 0 || asking.some((entry) => entry.status !== 'done')) notDoneAtSend.push(detail);
      },
    });
    expect(summary.filed).toHaveLength(5);
    expect(summary.sent.sent).toHaveLength(5);
    expect(points.indexOf('before-send'), points.join(' ')).toBeGreaterThan(-1);
    expect(points.indexOf('before-send'), points.join(' ')).toBeLessThan(points.lastIndexOf('after-done'));
    expect(notDoneAtSend).toEqual([]);
    scratch.cleanup();
  });

  it('a run cut short by its 2nd send while mail is still in the inbox, then run again: the same end, every answer once', async () => {
    const base = mailbox('alongside-base');
    const baseTransport = countingTransport(base.dir, 2);
    await fetchMail(base.dir, { clock: new TestClock(NOW), secrets: secrets(), transport: baseTransport });
    const expected = await snapshot(base.dir);
    const expectedFiles = everyFile(base.dir);

    for (const point of ['before-send', 'after-send', 'after-mark'] as const) {
      const scratch = mailbox(`alongside-${point}`);
      const transport = countingTransport(scratch.dir, 2);
      let seen = 0;
      let inboxAtCrash: string[] = [];
      const faults = (p: FaultPoint) => {
        if (p !== point || ++seen !== 2) return;
        inboxAtCrash = files(join(scratch.dir, 'mail', 'inbox'));
        throw new Crash(`crash at ${p} #2`);
      };
      await expect(fetchMail(scratch.dir, { clock: new TestClock(NOW), secrets: secrets(), transport, faults })).rejects.toBeInstanceOf(Crash);
      expect(inboxAtCrash.length, `${point}: mail left to handle when the send was cut`).toBeGreaterThan(0);
      const again = countingTransport(scratch.dir, 2);
      await fetchMail(scratch.dir, { clock: new TestClock(NOW), secrets: secrets(), transport: again });
      expect(await snapshot(scratch.dir), point).toEqual(expected);
      expect(everyFile(scratch.dir), point).toEqual(expectedFiles);
      const sends = new Map(transport.sends);
      for (const [id, n] of again.sends) sends.set(id, (sends.get(id) ?? 0) + n);
      expect([...sends.keys()].sort()).toEqual([...baseTransport.sends.keys()].sort());
      // Only a message the server took before the cut and the queue did not note (after-send) goes twice.
      const twice = [...sends].filter(([, n]) => n > 1).map(([id]) => id);
      expect(twice.length, `${point}: ${twice.join(', ')}`).toBe(point === 'after-send' ? 1 : 0);
      scratch.cleanup();
    }
    base.cleanup();
  });
});
