import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_DIR } from '../../src/schedule/lock.js';
import { CLI, cleanupScratch, demoCopy, ensureBuilt, scratchDir } from '../schedule/support.js';

/**
 * The campaign lock is taken whole (issue 33): a command killed while taking it must never leave a lock
 * that nobody can tell from a live one. The old lock was made first and its owner written a moment later;
 * a kill in between blocked the campaign for ten minutes. Now the owner is written first, in the taker's own
 * folder, which is then renamed into place: killed before the rename, there is no lock (and the next command
 * clears the folder); killed after, the lock names a dead owner and the next command takes it over at once.
 */
beforeAll(ensureBuilt, 120_000);
afterAll(cleanupScratch);

const NOW = '2025-03-23T18:15:00Z';
const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, FATECRAFT_NOW: NOW, FATECRAFT_SECRETS: join(scratchDir('secrets'), 'x.yaml'), FATECRAFT_LOCK_WAIT: '0', ...env }, encoding: 'utf8' });
const lockFolders = (dir: string) => readdirSync(dir).filter((n) => n.startsWith(LOCK_DIR));

describe('a command killed while taking the campaign lock', () => {
  it('killed with its owner written but not yet in place: no lock is left, and the next command runs at once', () => {
    const dir = demoCopy('lock-window-before');
    const killed = run(['turn', dir], { FATECRAFT_FAILPOINT: 'lock-owner-written' });
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect(existsSync(join(dir, LOCK_DIR))).toBe(false);
    const left = lockFolders(dir);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/^\.fatecraft\.lock\.new-\d+\.\d+\./);
    expect(JSON.parse(readFileSync(join(dir, left[0]!, 'owner.json'), 'utf8'))).toMatchObject({ pid: killed.pid, what: 'turn' });

    const next = run(['turn', dir]);
    expect(next.status, next.stderr).toBe(0);
    expect(next.stdout).toMatch(/Resolved turn 1/);
    expect(lockFolders(dir)).toEqual([]);
  }, 60_000);

  it('killed holding it: the lock names the dead owner, and the next command takes it over at once', () => {
    const dir = demoCopy('lock-window-after');
    const killed = run(['tick', dir], { FATECRAFT_FAILPOINT: 'locked' });
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect(JSON.parse(readFileSync(join(dir, LOCK_DIR, 'owner.json'), 'utf8'))).toMatchObject({ pid: killed.pid, what: 'tick' });

    const next = run(['tick', dir]);
    expect(next.status, next.stderr).toBe(0);
    expect(`${next.stdout}${next.stderr}`).toContain(`took over the lock of process ${killed.pid} (tick`);
    expect(lockFolders(dir)).toEqual([]);
  }, 60_000);
});
