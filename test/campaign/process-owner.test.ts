import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clearDeadTemporaries, ownerIsDead, ownerTag, parseOwnerTag, processStart, thisProcess } from '../../src/campaign/process-owner.js';

/** A temporary folder is cleared only when its writer is known dead: never by its name or age alone. */
const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-owner-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A pid that surely runs no process: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('close', resolve));
  return child.pid!;
}

describe('who owns a temporary folder', () => {
  it('names this process with its start time and host, and reads the name back', () => {
    const me = thisProcess();
    expect(me.start).toBeGreaterThan(0);
    expect(parseOwnerTag(`.0003.partial-${ownerTag()}`, /^\.\d{4,}\.partial-/)).toEqual(me);
    expect(parseOwnerTag('.0003.partial-123', /^\.\d{4,}\.partial-/)).toEqual({ pid: 123 });
    expect(parseOwnerTag('0003', /^\.\d{4,}\.partial-/)).toBeUndefined();
  });

  it('tells a dead owner from a live one, and a reused pid from its first owner', async () => {
    const live = { pid: process.ppid, start: processStart(process.ppid), host: hostname() };
    expect(ownerIsDead(live)).toBe(false);
    expect(ownerIsDead({ ...live, start: live.start + 1 })).toBe(true); // the pid now belongs to another process
    expect(ownerIsDead({ pid: await deadPid(), start: 1, host: hostname() })).toBe(true);
    expect(ownerIsDead({ pid: await deadPid(), start: 1, host: `${hostname()}-elsewhere` })).toBe(false); // cannot tell
    expect(ownerIsDead({ pid: process.ppid })).toBe(false); // an older name: the pid is all there is, and it lives
  });

  it('clears only the folders of dead owners', async () => {
    const turns = join(scratch, 'turns');
    const dead = `.0001.partial-${await deadPid()}.99.${hostname()}`;
    const live = `.0001.partial-${process.ppid}.${processStart(process.ppid)}.${hostname()}`;
    const reused = `.0002.partial-${process.ppid}.${processStart(process.ppid) + 7}.${hostname()}`;
    const foreign = `.0001.partial-${await deadPid()}.99.another-host`;
    for (const name of [dead, live, reused, foreign, '0001']) mkdirSync(join(turns, name), { recursive: true });
    expect((await clearDeadTemporaries(turns, /^\.\d{4,}\.partial-/)).sort()).toEqual([dead, reused].sort());
    expect(readdirSync(turns).sort()).toEqual(['0001', live, foreign].sort());
  });
});
