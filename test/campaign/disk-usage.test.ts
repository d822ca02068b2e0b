import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { campaignDiskUsage, formatBytes } from '../../src/campaign/disk-usage.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { campaignStatus, formatStatus } from '../../src/schedule/status.js';
import { cleanupScratch, demoCopy } from '../schedule/support.js';

const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-disk-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  cleanupScratch();
});

describe('a campaign folder\'s size', () => {
  it('sums the files of each part, counting a link as a link', async () => {
    const dir = join(scratch, 'c');
    mkdirSync(join(dir, 'turns', '0001', 'reports'), { recursive: true });
    mkdirSync(join(dir, 'orders', '0002'), { recursive: true });
    mkdirSync(join(dir, 'mail', 'ledger'), { recursive: true });
    writeFileSync(join(dir, 'campaign.yaml'), 'x'.repeat(100));
    writeFileSync(join(dir, 'turns', '0001', 'state.yaml'), 'x'.repeat(1000));
    writeFileSync(join(dir, 'turns', '0001', 'reports', 'a.txt'), 'x'.repeat(234));
    writeFileSync(join(dir, 'orders', '0002', 'a.yaml'), 'x'.repeat(50));
    writeFileSync(join(dir, 'mail', 'ledger', 'm.yaml'), 'x'.repeat(7));
    symlinkSync(join(dir, 'turns', '0001', 'state.yaml'), join(dir, 'orders', '0002', 'link.yaml'));
    const link = join(dir, 'turns', '0001', 'state.yaml').length;
    expect(await campaignDiskUsage(dir)).toEqual({ total: 1391 + link, turns: 1234, orders: 50 + link, mail: 7, other: 100 });
  });

  it('counts a file with two names once', async () => {
    const dir = join(scratch, 'linked');
    mkdirSync(join(dir, 'turns', '0001', 'orders'), { recursive: true });
    mkdirSync(join(dir, 'orders', '0001'), { recursive: true });
    writeFileSync(join(dir, 'orders', '0001', 'a.yaml'), 'x'.repeat(300));
    linkSync(join(dir, 'orders', '0001', 'a.yaml'), join(dir, 'turns', '0001', 'orders', 'a.yaml'));
    expect(await campaignDiskUsage(dir)).toMatchObject({ total: 300 });
  });

  it('reads in decimal units', () => {
    expect([formatBytes(999), formatBytes(1000), formatBytes(580_977_666), formatBytes(30e9)]).toEqual(['999 bytes', '1.0 kB', '581.0 MB', '30.0 GB']);
  });

  it('is shown by fatecraft status', async () => {
    const dir = demoCopy('disk');
    const status = await campaignStatus(dir, { clock: new FakeClock('2025-03-19T12:00:00Z') });
    expect(status.disk.total).toBe(status.disk.turns + status.disk.orders + status.disk.mail + status.disk.other);
    expect(status.disk.turns).toBeGreaterThan(0);
    expect(formatStatus(status)).toContain(`Size on disk: ${formatBytes(status.disk.total)} (turns ${formatBytes(status.disk.turns)}, orders`);
  });
});
