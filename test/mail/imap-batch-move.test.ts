/**
 * Moving a batch of messages out of a real Dovecot inbox at once (issue 37): one SEARCH and one UID MOVE for
 * the batch, not one of each per message; those already gone, or named under another UIDVALIDITY, are passed
 * over without an error.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ImapInbox } from '../../src/mail/imap-inbox.js';
import { mailServersAvailable, startMailServers, type MailServers } from '../support/mail-servers.js';

const run = mailServersAvailable() || process.env.CI !== undefined;

describe.skipIf(!run)('IMAP inbox: moving a batch', () => {
  let servers: MailServers;
  const gm = 'batch-gm@game.test';

  beforeAll(async () => {
    servers = await startMailServers({ users: { [gm]: 'gm-pass' } });
  });
  afterAll(async () => {
    await servers?.stop();
  });

  it('moves the messages given with one UID MOVE, passes over those already moved or renumbered, and leaves the rest', async () => {
    for (let i = 1; i <= 6; i++) await servers.deliver(`From: player@game.test\r\nSubject: orders ${i}\r\nMessage-ID: <batch-${i}@game.test>\r\n\r\n${i}\r\n`, gm);
    const inbox = new ImapInbox({ ...servers.imap, auth: { user: gm, pass: 'gm-pass' } });
    try {
      const ids = (await inbox.list()).map((entry) => entry.id);
      expect(ids).toHaveLength(6);
      const { ImapFlow } = await import('imapflow');
      const moves = vi.spyOn(ImapFlow.prototype, 'messageMove');
      const searches = vi.spyOn(ImapFlow.prototype, 'search');

      await inbox.markAllProcessed(ids.slice(0, 4), 'Processed');
      expect(moves).toHaveBeenCalledTimes(1);
      expect(searches).toHaveBeenCalledTimes(1);
      expect((await inbox.list()).map((entry) => entry.id)).toEqual(ids.slice(4));

      // Again with the four moved, a UID of another UIDVALIDITY, and the fifth: only the fifth moves.
      const renumbered = ids[5]!.replace(/^imap:\d+:/, 'imap:1:');
      await inbox.markAllProcessed([...ids.slice(0, 5), renumbered], 'Quarantine');
      expect(moves).toHaveBeenCalledTimes(2);
      expect(moves.mock.calls[1]![0]).not.toContain(',');
      expect((await inbox.list()).map((entry) => entry.id)).toEqual([ids[5]]);

      // None of them still there: nothing to move, and no error.
      await inbox.markAllProcessed(ids.slice(0, 5), 'Processed');
      expect(moves).toHaveBeenCalledTimes(2);
      vi.restoreAllMocks();

      const subjects = async (folder: string) => (await servers.readMailbox(gm, 'gm-pass', folder)).map((m) => m.parsed.subject);
      expect(await subjects('Processed')).toEqual(['orders 1', 'orders 2', 'orders 3', 'orders 4']);
      expect(await subjects('Quarantine')).toEqual(['orders 5']);
    } finally {
      await inbox.close();
    }
  });
});
