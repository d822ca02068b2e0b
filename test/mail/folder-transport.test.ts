import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MailError } from '../../src/mail/errors.js';
import { FolderInbox, FolderOutbox, outboxFileName } from '../../src/mail/folder-transport.js';
import { parseInbound } from '../../src/mail/parse.js';
import type { InboundMessage, OutboundMessage } from '../../src/mail/types.js';

let root: string;
let mailDir: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'fc-folder-'));
  mailDir = path.join(root, 'mail');
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function dropInbox(name: string, content: string | Buffer): Promise<void> {
  await fs.mkdir(path.join(mailDir, 'inbox'), { recursive: true });
  await fs.writeFile(path.join(mailDir, 'inbox', name), content);
}

const listDir = async (dir: string) => (await fs.readdir(path.join(mailDir, dir)).catch(() => [])).sort();

function reply(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    messageId: 'turn-3.argenta@fatecraft.game.test',
    date: '2026-11-24T12:00:00Z',
    from: 'Fatecraft GM <gm@game.test>',
    to: ['argenta@game.test'],
    subject: 'Turn 3 report for Argenta',
    text: 'Your armies advance.\nGrüße vom Spielleiter.\n',
    inReplyTo: '<orders-3@argenta.game.test>',
    references: ['<report-2@game.test>', '<orders-3@argenta.game.test>'],
    headers: { 'Auto-Submitted': 'auto-replied' },
    ...overrides,
  };
}

describe('FolderInbox', () => {
  it('lists nothing when the inbox directory does not exist yet', async () => {
    expect(await new FolderInbox({ mailDir }).list()).toEqual([]);
  });

  it('lists .eml files in name order with their bytes, ignoring other and hidden files', async () => {
    await dropInbox('b.eml', 'Subject: b\r\n\r\nB\r\n');
    await dropInbox('a.EML', 'Subject: a\r\n\r\nA\r\n');
    await dropInbox('notes.txt', 'not mail');
    await dropInbox('.c.eml.tmp', 'partial');
    await dropInbox('.hidden.eml', 'hidden');
    await fs.mkdir(path.join(mailDir, 'inbox', 'dir.eml'));

    const entries = (await new FolderInbox({ mailDir }).list()) as InboundMessage[];
    expect(entries.map((e) => e.id)).toEqual(['file:a.EML', 'file:b.eml']);
    expect(entries[1]?.raw.toString()).toBe('Subject: b\r\n\r\nB\r\n');
    expect(entries[1]?.size).toBe(17);
    // A folder says nothing of when a mail arrived: a fetch records when it first saw it (docs/mail.md).
    expect(entries[1]?.receivedAt).toBeUndefined();
  });

  it('never reads a FIFO or follows a symbolic link in the inbox, and does not wait on them', async () => {
    await dropInbox('mail.eml', 'Subject: m\r\n\r\nM\r\n');
    execFileSync('mkfifo', [path.join(mailDir, 'inbox', 'fifo.eml')]);
    const outside = path.join(root, 'outside.eml');
    await fs.writeFile(outside, 'Subject: secret\r\n\r\nSECRET\r\n');
    await fs.symlink(outside, path.join(mailDir, 'inbox', 'link.eml'));
    const entries = (await new FolderInbox({ mailDir }).list()) as InboundMessage[];
    expect(entries.map((e) => e.id)).toEqual(['file:mail.eml']);
  });

  it('lists messages over the size limit as tooLarge, without their bytes', async () => {
    await dropInbox('big.eml', `Subject: big\r\n\r\n${'x'.repeat(2000)}\r\n`);
    await dropInbox('small.eml', 'Subject: small\r\n\r\nok\r\n');
    const entries = await new FolderInbox({ mailDir, maxMessageBytes: 1000 }).list();
    expect(entries[0]).toMatchObject({ id: 'file:big.eml', tooLarge: true });
    expect(entries[0]).not.toHaveProperty('raw');
    expect(entries[1]).toMatchObject({ id: 'file:small.eml' });
    expect(entries[1]?.tooLarge).toBeFalsy();
  });

  it('moves processed and quarantined messages out of the inbox', async () => {
    await dropInbox('one.eml', 'Subject: 1\r\n\r\n1\r\n');
    await dropInbox('two.eml', 'Subject: 2\r\n\r\n2\r\n');
    const inbox = new FolderInbox({ mailDir });
    await inbox.markProcessed('file:one.eml', 'Processed');
    await inbox.markProcessed('file:two.eml', 'Quarantine');
    expect(await inbox.list()).toEqual([]);
    expect(await listDir('processed')).toEqual(['one.eml']);
    expect(await listDir('quarantine')).toEqual(['two.eml']);
  });

  it('never overwrites an earlier message of the same name', async () => {
    const inbox = new FolderInbox({ mailDir });
    for (const body of ['first', 'second', 'third']) {
      await dropInbox('orders.eml', body);
      await inbox.markProcessed('file:orders.eml', 'Processed');
    }
    expect(await listDir('processed')).toEqual(['orders.2.eml', 'orders.3.eml', 'orders.eml']);
    expect(await fs.readFile(path.join(mailDir, 'processed', 'orders.eml'), 'utf8')).toBe('first');
  });

  it('rejects with ENOTFOUND for a message that is gone or an id that is not a file of the inbox', async () => {
    await dropInbox('one.eml', 'x');
    const inbox = new FolderInbox({ mailDir });
    await inbox.markProcessed('file:one.eml', 'Processed');
    for (const id of ['file:one.eml', 'file:../processed/one.eml', 'imap:1:1', 'file:']) {
      await expect(inbox.markProcessed(id, 'Processed')).rejects.toMatchObject({ name: 'MailError', code: 'ENOTFOUND' });
    }
  });
});

describe('FolderOutbox', () => {
  it('writes <message-id>.eml that parses back to the message', async () => {
    const outbox = new FolderOutbox({ dir: path.join(mailDir, 'outbox') });
    const result = await outbox.send(
      reply({ attachments: [{ filename: 'report.yaml', content: 'turn: 3\n', contentType: 'application/x-yaml' }] }),
    );
    const file = path.join(mailDir, 'outbox', 'turn-3.argenta@fatecraft.game.test.eml');
    expect(result).toEqual({ accepted: ['argenta@game.test'], rejected: [], response: `written to ${file}` });
    expect(outbox.pathFor('<turn-3.argenta@fatecraft.game.test>')).toBe(file);

    const mail = await parseInbound(await fs.readFile(file));
    expect(mail).toMatchObject({
      from: { name: 'Fatecraft GM', address: 'gm@game.test' },
      to: [{ name: '', address: 'argenta@game.test' }],
      subject: 'Turn 3 report for Argenta',
      messageId: '<turn-3.argenta@fatecraft.game.test>',
      inReplyTo: '<orders-3@argenta.game.test>',
      references: ['<report-2@game.test>', '<orders-3@argenta.game.test>'],
      date: '2026-11-24T12:00:00.000Z',
      text: 'Your armies advance.\nGrüße vom Spielleiter.\n',
      headers: { autoSubmitted: 'auto-replied' },
    });
    expect(mail.attachments.map((a) => [a.filename, a.contentType, a.content.toString()])).toEqual([
      ['report.yaml', 'application/x-yaml', 'turn: 3\n'],
    ]);
    await outbox.close();
  });

  it('writes identical bytes on a rerun, multipart boundaries included, with CRLF line ends', async () => {
    const message = reply({
      html: '<p>Your armies advance.</p>',
      attachments: [{ filename: 'map.txt', content: Buffer.from('..#..\n') }],
    });
    const first = new FolderOutbox({ dir: path.join(root, 'run1') });
    const second = new FolderOutbox({ dir: path.join(root, 'run2') });
    await first.send(message);
    await second.send(message);
    const a = await fs.readFile(first.pathFor(message.messageId));
    const b = await fs.readFile(second.pathFor(message.messageId));
    expect(a.equals(b)).toBe(true);
    expect(a.toString()).toMatch(/^Content-Type: multipart\/mixed;/m);
    expect(a.toString().replace(/\r\n/g, '')).not.toContain('\n');
    // A different message gets different boundaries.
    await first.send({ ...message, messageId: 'other@fatecraft.game.test' });
    const boundary = (raw: Buffer) => /boundary="([^"]+)"/.exec(raw.toString())?.[1];
    expect(boundary(await fs.readFile(first.pathFor('other@fatecraft.game.test')))).not.toBe(boundary(a));
  });

  it('replaces the file on resend and leaves no temp files', async () => {
    const dir = path.join(mailDir, 'outbox');
    const outbox = new FolderOutbox({ dir });
    await outbox.send(reply({ text: 'draft\n' }));
    await outbox.send(reply({ text: 'final\n' }));
    expect(await fs.readdir(dir)).toEqual(['turn-3.argenta@fatecraft.game.test.eml']);
    expect((await parseInbound(await fs.readFile(outbox.pathFor(reply().messageId)))).text).toBe('final\n');
  });

  it('refuses a message without recipients, date or valid Message-ID with EPERM', async () => {
    const outbox = new FolderOutbox({ dir: path.join(mailDir, 'outbox') });
    for (const bad of [{ to: [] }, { date: 'tomorrow' }, { messageId: 'two words@x' }, { messageId: '<>' }]) {
      const rejection = outbox.send(reply(bad));
      await expect(rejection).rejects.toBeInstanceOf(MailError);
      await expect(rejection).rejects.toMatchObject({ code: 'EPERM' });
    }
    await expect(fs.readdir(path.join(mailDir, 'outbox'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('outboxFileName', () => {
  it('keeps plain ids readable', () => {
    expect(outboxFileName('<turn-3.argenta@game.test>')).toBe('turn-3.argenta@game.test.eml');
  });

  it('replaces unsafe characters and adds a hash so distinct ids never collide', () => {
    const slash = outboxFileName('a/b@x');
    const underscore = outboxFileName('a_b@x');
    expect(slash).toMatch(/^a_b@x-[0-9a-f]{12}\.eml$/);
    expect(underscore).toBe('a_b@x.eml');
    expect(outboxFileName('..@x')).toMatch(/^_\.@x-[0-9a-f]{12}\.eml$/);
    expect(outboxFileName(`${'x'.repeat(300)}@y`).length).toBeLessThanOrEqual(140);
  });
});
