import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LockBusyError, withCampaignLock } from '../../src/schedule/lock.js';

/** The campaign lock within one process: re-entrant along one call chain, exclusive between two. */
const dir = mkdtempSync(join(tmpdir(), 'fatecraft-nesting-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the campaign lock in one process', () => {
  it('lets work done under the lock take it again (a tick resolving a turn)', async () => {
    const inner = await withCampaignLock(dir, { what: 'tick' }, () => withCampaignLock(dir, { what: 'turn' }, async () => 'inner ran'));
    expect(inner).toBe('inner ran');
  });

  it('keeps two concurrent calls apart: the second is refused, or waits when told to', async () => {
    let release!: () => void;
    const holding = withCampaignLock(dir, { what: 'turn' }, () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 50));
    const refused = await withCampaignLock(dir, { what: 'report' }, async () => 'ran').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LockBusyError);
    expect((refused as Error).message).toMatch(`another fatecraft turn (pid ${process.pid}) is working on it since`);
    const waits: unknown[] = [];
    const waiting = withCampaignLock(dir, { what: 'report', waitMs: 5000, onWait: (owner) => waits.push(owner?.what) }, async () => 'ran after');
    setTimeout(release, 300);
    expect(await waiting).toBe('ran after');
    expect(waits).toEqual(['turn']);
    await holding;
  });

  it('gives up after the wait it was given', async () => {
    let release!: () => void;
    const holding = withCampaignLock(dir, { what: 'tick' }, () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    const refused = await withCampaignLock(dir, { what: 'turn', waitMs: 600 }, async () => 'ran').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LockBusyError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    release();
    await holding;
  });
});
