import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/schedule/clock.js';
import { LOCK_DIR, LockBusyError, withCampaignLock } from '../../src/schedule/lock.js';

/** The campaign lock in the moment between taking it and saying who took it. */
const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-lock-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const options = { clock: new FakeClock('2025-03-23T18:15:00Z'), what: 'tick', timeZone: 'Europe/London' };

function campaignWithBareLock(name: string): string {
  const dir = join(scratch, name);
  // Taken (the atomic mkdir) by a live process that has not yet written who it is.
  mkdirSync(join(dir, LOCK_DIR), { recursive: true });
  return dir;
}

const refusal = async (dir: string) => {
  const error = await withCampaignLock(dir, options, async () => 'ran').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LockBusyError);
  return (error as LockBusyError).message;
};

describe('a campaign lock whose owner is still being written', () => {
  it('is refused naming its holder once the holder says who it is', async () => {
    const dir = campaignWithBareLock('starting');
    const owner = { pid: process.ppid, host: hostname(), since: '2025-03-23T18:15:00.000Z', what: 'tick' };
    setTimeout(() => writeFileSync(join(dir, LOCK_DIR, 'owner.json'), JSON.stringify(owner)), 50);
    expect(await refusal(dir)).toMatch(`another fatecraft tick (pid ${process.ppid}) is working on it since Sun 23 Mar 2025 18:15 GMT; nothing was done`);
  });

  it('is refused as a process starting when no owner appears', async () => {
    const dir = campaignWithBareLock('silent');
    expect(await refusal(dir)).toMatch('another fatecraft process is starting on it; nothing was done');
  });
});
