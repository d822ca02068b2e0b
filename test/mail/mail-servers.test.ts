/** The test harness itself: isolation between instances and a clean stop. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { liveGroupProcesses, mailServersAvailable, startMailServers } from '../support/mail-servers.js';

const run = mailServersAvailable() || process.env.CI !== undefined;

describe.skipIf(!run)('mail server harness', () => {
  it('runs two instances side by side and leaves no process or directory behind', async () => {
    const [a, b] = await Promise.all([
      startMailServers({ users: { 'gm@game.test': 'a-pass' } }),
      startMailServers({ users: { 'gm@game.test': 'b-pass' } }),
    ]);
    const pids = [a.dovecotPid!, b.dovecotPid!];
    try {
      expect(new Set([a.imap.port, a.lmtp.port, a.smtp.port, b.imap.port, b.lmtp.port, b.smtp.port]).size).toBe(6);
      await a.deliver('Subject: for a\r\n\r\na\r\n', 'gm@game.test');
      expect((await a.readMailbox('gm@game.test', 'a-pass')).map((m) => m.parsed.subject)).toEqual(['for a']);
      expect(await b.readMailbox('gm@game.test', 'b-pass')).toEqual([]);
      expect(await a.readMailbox('gm@game.test', 'a-pass', 'NoSuchFolder')).toEqual([]);
      expect(pids.map((pid) => liveGroupProcesses(pid).length > 0)).toEqual([true, true]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    expect(pids.flatMap((pid) => liveGroupProcesses(pid))).toEqual([]);
    expect(fs.existsSync(a.dir) || fs.existsSync(b.dir)).toBe(false);
    await a.stop(); // idempotent
  });
});
