import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { releaseKeptOrders } from '../../src/campaign/kept-orders.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { cleanupScratch, demoCopy } from '../schedule/support.js';

/** A turn's orders are stored once: moved (by links) from orders/NNNN into the turn folder. */
afterAll(cleanupScratch);

const yamlIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.yaml')).sort() : []);

/** Every order file's bytes under the campaign, by (device, inode): a second copy of the same bytes is a duplicate. */
function orderCopies(dir: string): Map<string, number> {
  const copies = new Map<string, Set<string>>();
  const note = (path: string) => {
    const s = statSync(path);
    const bytes = readFileSync(path, 'utf8');
    if (!copies.has(bytes)) copies.set(bytes, new Set());
    copies.get(bytes)!.add(`${s.dev}:${s.ino}`);
  };
  for (const t of readdirSync(join(dir, 'orders'))) for (const n of yamlIn(join(dir, 'orders', t))) note(join(dir, 'orders', t, n));
  for (const t of readdirSync(join(dir, 'turns'))) for (const n of yamlIn(join(dir, 'turns', t, 'orders'))) note(join(dir, 'turns', t, 'orders', n));
  return new Map([...copies].map(([bytes, inodes]) => [bytes, inodes.size]));
}

describe('the orders of a resolved turn', () => {
  it('are kept once, in the turn folder: the very files read, linked, and orders/NNNN lets them go', async () => {
    const dir = demoCopy('kept-once');
    const filed = yamlIn(join(dir, 'orders', '0001'));
    expect(filed.length).toBeGreaterThan(0);
    const inodes = Object.fromEntries(filed.map((n) => [n, statSync(join(dir, 'orders', '0001', n)).ino]));
    await runTurn(dir);
    expect(yamlIn(join(dir, 'turns', '0001', 'orders'))).toEqual(filed);
    expect(yamlIn(join(dir, 'orders', '0001'))).toEqual([]);
    for (const n of filed) {
      const kept = statSync(join(dir, 'turns', '0001', 'orders', n));
      expect([kept.ino, kept.nlink]).toEqual([inodes[n], 1]);
    }
    expect([...orderCopies(dir).values()].every((n) => n === 1)).toBe(true);
  });

  it('left in both places by a crash after the turn was written, are let go by the next turn', async () => {
    const dir = demoCopy('kept-crash');
    await runTurn(dir);
    // What a crash between renaming the turn into place and letting orders/0001 go leaves.
    const name = yamlIn(join(dir, 'turns', '0001', 'orders'))[0]!;
    linkSync(join(dir, 'turns', '0001', 'orders', name), join(dir, 'orders', '0001', name));
    // A file put in orders/0001 since, with other bytes, is not the turn's and stays.
    writeFileSync(join(dir, 'orders', '0001', 'late.yaml'), 'nation: late\n');
    await runTurn(dir);
    expect(yamlIn(join(dir, 'orders', '0001'))).toEqual(['late.yaml']);
    expect(existsSync(join(dir, 'turns', '0002'))).toBe(true);
  });

  it('are let go when they are the same bytes, though not the same file (a copy where a link could not be made)', async () => {
    const dir = demoCopy('kept-copy');
    await runTurn(dir);
    const name = yamlIn(join(dir, 'turns', '0001', 'orders'))[0]!;
    writeFileSync(join(dir, 'orders', '0001', name), readFileSync(join(dir, 'turns', '0001', 'orders', name)));
    expect(await releaseKeptOrders(dir, 1)).toEqual([name]);
    expect(yamlIn(join(dir, 'orders', '0001'))).toEqual([]);
  });

  it('stay in orders/NNNN when they are other bytes under the same name, or not a file there', async () => {
    const dir = demoCopy('kept-other');
    await runTurn(dir);
    const [changed, folder] = yamlIn(join(dir, 'turns', '0001', 'orders'));
    const kept = readFileSync(join(dir, 'turns', '0001', 'orders', changed!));
    // The same length, one byte different: the sizes agree, so the bytes themselves are compared.
    const other = Buffer.from(kept);
    other[other.length - 2] = other[other.length - 2] === 0x61 ? 0x62 : 0x61;
    writeFileSync(join(dir, 'orders', '0001', changed!), other);
    mkdirSync(join(dir, 'orders', '0001', folder!));
    expect(await releaseKeptOrders(dir, 1)).toEqual([]);
    expect(readFileSync(join(dir, 'orders', '0001', changed!))).toEqual(other);
    expect(existsSync(join(dir, 'orders', '0001', folder!))).toBe(true);
  });
});
