/**
 * The IMAP inbox waits for a restarting Dovecot (a real one, test/support/mail-servers.ts) instead of giving up
 * after one reconnection. What made test/mailroom/faults.test.ts's "Dovecot restarted in the middle of a
 * fetch" fail on a loaded machine: the restart landed while the previous message's MOVE was still in flight,
 * its one retry found the server still down (connection refused), and the fetch stopped. Here the server is
 * down when the retry comes, every time: the pauses are the test's own, and the first one brings the server
 * back, so nothing depends on how fast anything runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImapInbox, RECONNECT_PAUSES_MS } from '../../src/mail/imap-inbox.js';
import { mailServersAvailable, startMailServers, type MailServers } from '../support/mail-servers.js';

const run = mailServersAvailable() || process.env.CI !== undefined;
const GM = 'gm@reconnect.test';
const PASS = 'gm-pass';

describe.skipIf(!run)('an IMAP inbox when Dovecot goes down', () => {
  let servers: MailServers;
  beforeAll(async () => {
    servers = await startMailServers({ users: { [GM]: PASS } });
  });
  afterAll(async () => {
    await servers?.stop();
  });

  /** An inbox whose pauses are recorded, and run `onPause` instead of waiting. */
  function inbox(onPause: (ms: number, n: number) => Promise<void> = async () => undefined) {
    const paused: number[] = [];
    const box = new ImapInbox({ ...servers.imap, auth: { user: GM, pass: PASS }, reconnectPausesMs: [100, 200, 400], sleep: (ms) => onPause(ms, paused.push(ms)) });
    return { box, paused };
  }

  it('waits for a server that was there: a list() begun while it restarts gets its messages once it is back', async () => {
    await servers.deliver(`From: p@players.test\r\nSubject: one\r\n\r\n1\r\n`, GM);
    const { box, paused } = inbox(async (_ms, n) => {
      if (n === 2) await servers.startDovecot(); // back after the second pause
    });
    try {
      expect(await box.list()).toHaveLength(1);
      await servers.stopDovecot();
      // The old connection is dead and a new one is refused: one retry (the old behaviour) is not enough.
      const entries = await box.list();
      expect(entries).toHaveLength(1);
      expect(paused).toEqual([100, 200]);
      await box.markProcessed(entries[0]!.id, 'Processed');
      expect(await box.list()).toEqual([]);
    } finally {
      await box.close();
    }
  });

  it('gives up after its last pause with a temporary error, when the server stays down', async () => {
    const { box, paused } = inbox();
    try {
      expect(await box.list()).toEqual([]);
      await servers.stopDovecot();
      await expect(box.list()).rejects.toMatchObject({ name: 'MailError', code: 'ETEMP', retryable: true });
      expect(paused).toEqual([100, 200, 400]);
    } finally {
      await box.close();
      await servers.startDovecot();
    }
  });

  it('does not wait for a server never reached in this run: one retry, no pause', async () => {
    await servers.stopDovecot();
    const { box, paused } = inbox();
    try {
      await expect(box.list()).rejects.toMatchObject({ name: 'MailError', code: 'ETEMP' });
      expect(paused).toEqual([]);
    } finally {
      await box.close();
      await servers.startDovecot();
    }
  });

  it('by default waits about half a minute in all, in growing pauses', () => {
    expect(RECONNECT_PAUSES_MS.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(20_000);
    expect([...RECONNECT_PAUSES_MS]).toEqual([...RECONNECT_PAUSES_MS].sort((a, b) => a - b));
  });
});
