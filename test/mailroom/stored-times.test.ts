import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CampaignError } from '../../src/campaign/problems.js';
import { Ledger, type LedgerEntry } from '../../src/mailroom/ledger.js';
import { OutboxQueue } from '../../src/mailroom/outbox.js';

/** A damaged time in the mail room's own files is refused, located, rather than read as NaN or another day. */
const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-stored-times-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function refusal(read: () => Promise<unknown>): Promise<string> {
  const error = await read().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CampaignError);
  return (error as CampaignError).message;
}

describe('times in the mail folder', () => {
  it('a ledger entry with a damaged time is refused with its file, line and key', async () => {
    const ledger = new Ledger(join(scratch, 'mail-ledger'));
    const entry: LedgerEntry = { key: 'mid:a@b', status: 'done', transportIds: ['file:a.eml'], inbound: { from: 'a@b' }, receivedAt: '2026-03-08T12:00:00.000Z', size: 10, doneAt: '2026-03-08T12:00:01.000Z' };
    await ledger.put(entry);
    expect(await ledger.get('mid:a@b')).toEqual(entry);
    const file = ledger.fileFor('mid:a@b');
    const text = readFileSync(file, 'utf8');
    const line = text.split('\n').findIndex((l) => l.startsWith('receivedAt:')) + 1;
    writeFileSync(file, text.replace(/^receivedAt: .*$/m, 'receivedAt: 2026-03-'));
    expect(await refusal(() => ledger.get('mid:a@b'))).toBe(`${file}: line ${line}: receivedAt: not a time with its time zone; write ISO 8601, e.g. 2025-03-09T18:00:00Z (or with an offset: 2025-03-09T19:00:00+01:00)`);
  });

  it('a queued message with a damaged time is refused with its file, line and key', async () => {
    const queue = new OutboxQueue(join(scratch, 'mail-queue'));
    const message = { messageId: '<m1@game.test>', date: '2026-03-08T12:00:00Z', from: 'gm@game.test', to: ['a@game.test'], subject: 's', text: 't' };
    expect(await queue.enqueue(message, { kind: 'alert' }, new Date('2026-03-08T12:00:00Z'))).toBe(true);
    expect((await queue.get('<m1@game.test>'))?.createdAt).toBe('2026-03-08T12:00:00.000Z');
    const file = queue.fileFor('<m1@game.test>');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^createdAt: .*$/m, 'createdAt: 2026-02-30T12:00:00Z'));
    expect(await refusal(() => queue.get('<m1@game.test>'))).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: line \\d+: createdAt: not a time with its time zone`));
  });
});
