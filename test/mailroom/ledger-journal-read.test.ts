/**
 * `mail status` reads the ledger without the lock and writes nothing, so it cannot put a batch's journal back
 * as a mail run does (recoverDone). After a power cut the entries' own files may still say "decided" while the
 * journal says "done": the ledger read for status shows what the next run will find.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeYaml } from '../../src/campaign/yaml-io.js';
import { Ledger, type LedgerEntry } from '../../src/mailroom/ledger.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function entry(key: string, status: LedgerEntry['status'], receivedAt: string): LedgerEntry {
  return { key, status, transportIds: [`file:${key}.eml`], inbound: { from: 'player@example.org', subject: 'orders' }, receivedAt, size: 100 };
}

describe('the ledger as mail status reads it', () => {
  it("takes a batch's journal left on disk over the entries' own files, and changes no file", async () => {
    const mail = mkdtempSync(join(tmpdir(), 'fc-ledger-journal-'));
    dirs.push(mail);
    const ledger = new Ledger(mail);
    await ledger.put(entry('a', 'decided', '2026-12-01T10:00:00Z'));
    await ledger.put(entry('b', 'decided', '2026-12-01T10:01:00Z'));
    await ledger.put(entry('c', 'decided', '2026-12-01T10:02:00Z'));
    // What a power cut after a batch's journal was flushed can leave: the journal says done, the files do not.
    const journal = join(mail, 'ledger-done.yaml');
    writeFileSync(journal, writeYaml([{ ...entry('a', 'done', '2026-12-01T10:00:00Z'), doneAt: '2026-12-01T10:05:00Z' }, { ...entry('b', 'done', '2026-12-01T10:01:00Z'), doneAt: '2026-12-01T10:05:00Z' }]));
    const before = readFileSync(ledger.fileFor('a'), 'utf8');

    const read = await ledger.all();
    expect(read.map((e) => [e.key, e.status])).toEqual([
      ['a', 'done'],
      ['b', 'done'],
      ['c', 'decided'],
    ]);
    expect(readFileSync(ledger.fileFor('a'), 'utf8')).toBe(before);
    expect(readFileSync(journal, 'utf8')).toContain('done');

    // A mail run puts the journal back; the ledger then reads the same.
    await ledger.recoverDone();
    expect((await ledger.all()).map((e) => [e.key, e.status])).toEqual(read.map((e) => [e.key, e.status]));
  });

  it('reads the entries as they are when the journal does not read', async () => {
    const mail = mkdtempSync(join(tmpdir(), 'fc-ledger-journal-'));
    dirs.push(mail);
    const ledger = new Ledger(mail);
    await ledger.put(entry('a', 'decided', '2026-12-01T10:00:00Z'));
    writeFileSync(join(mail, 'ledger-done.yaml'), 'key: [unclosed');
    expect((await ledger.all()).map((e) => [e.key, e.status])).toEqual([['a', 'decided']]);
  });
});
