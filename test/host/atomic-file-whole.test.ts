/**
 * The atomic write the mailroom's ledger, queue and filed orders use (host/atomic-file.ts): whole or not at all, no temporary file left, the mode asked
 * for, and a temporary name that the campaign's clean-up of killed writes recognises.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clearDeadWrites } from '../../src/campaign/dead-writes.js';
import { temporaryFor, writeFileAtomic } from '../../src/host/atomic-file.js';

const root = mkdtempSync(join(tmpdir(), 'fatecraft-atomic-whole-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('writeFileAtomic, whole or not at all', () => {
  it('writes a new file and replaces an old one whole, leaving nothing beside it', async () => {
    const dir = join(root, 'replace');
    mkdirSync(dir);
    const file = join(dir, 'entry.yaml');
    await writeFileAtomic(file, 'status: decided\n');
    await writeFileAtomic(file, Buffer.from('status: done\n'));
    expect(readFileSync(file, 'utf8')).toBe('status: done\n');
    expect(readdirSync(dir)).toEqual(['entry.yaml']);
  });

  it('twenty writes of one file at once end with one of them whole', async () => {
    const dir = join(root, 'race');
    mkdirSync(dir);
    const file = join(dir, 'entry.yaml');
    const texts = Array.from({ length: 20 }, (_, i) => `n: ${i}\n${'x'.repeat(10_000)}\n`);
    await Promise.all(texts.map((text) => writeFileAtomic(file, text)));
    expect(texts).toContain(readFileSync(file, 'utf8'));
    expect(readdirSync(dir)).toEqual(['entry.yaml']);
  });

  it('gives the file the mode asked for', async () => {
    const file = join(root, 'private.eml');
    await writeFileAtomic(file, 'secret', { mode: 0o600 });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('fails whole when the file cannot be put in place, and removes its temporary file', async () => {
    const dir = join(root, 'blocked');
    mkdirSync(join(dir, 'entry.yaml'), { recursive: true }); // a folder where the file should go: the rename fails
    await expect(writeFileAtomic(join(dir, 'entry.yaml'), 'text')).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(['entry.yaml']);
  });

  it('names its temporary file as write-file-atomic does, so a killed write is cleared from the campaign folder', async () => {
    const campaign = join(root, 'campaign');
    const orders = join(campaign, 'orders', '0002');
    mkdirSync(orders, { recursive: true });
    // What a write killed before its rename leaves: the temporary file, with the name writeFileAtomic gives it.
    const file = join(orders, 'argenta.yaml');
    await writeFileAtomic(file, 'orders: []\n');
    const left = temporaryFor(file);
    writeFileSync(left, 'orders: [half');
    expect(await clearDeadWrites(campaign)).toEqual([`orders/0002/${left.split('/').at(-1)}`]);
    expect(readdirSync(orders)).toEqual(['argenta.yaml']);
  });
});
