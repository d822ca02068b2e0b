import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cleanupScratch, demoCopy, ensureBuilt, scratchDir, tree } from '../schedule/support.js';
import { RENDER_INPUTS_FILE } from '../../src/campaign/render-inputs.js';

/**
 * Commands meeting on one campaign, as real processes: whoever comes second
 * waits or says who holds the campaign, and a resolved turn is never damaged
 * (issue: a `tick` and a `turn` a few seconds apart destroyed turns/0001).
 */
beforeAll(ensureBuilt, 120_000);
afterAll(cleanupScratch);

const DEADLINE_PASSED = '2025-03-23T18:15:00Z';
const BEFORE_DEADLINE = '2025-03-23T13:00:00Z';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function start(args: string[], env: Record<string, string> = {}, now = DEADLINE_PASSED): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, FATECRAFT_NOW: now, FATECRAFT_SECRETS: join(scratchDir('secrets'), 'x.yaml'), ...env } });
  const done = new Promise<Run>((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done };
}

const fatecraft = (args: string[], env: Record<string, string> = {}, now = DEADLINE_PASSED) => start(args, env, now).done;

/** A command's words with the campaign folder put where it goes (after a subcommand's name). */
const withCampaign = (command: string[], dir: string) => {
  const at = command[0] === 'mail' || command[0] === 'nation' ? 2 : 1;
  return [...command.slice(0, at), dir, ...command.slice(at)];
};

const resolvedTurns = (dir: string) => readdirSync(join(dir, 'turns')).filter((n) => /^\d{4}$/.test(n));
/** A turn folder's every file and its bytes. */
const turnFolder = (dir: string, turn: string) => tree(join(dir, 'turns', turn));
const slowRename = { FATECRAFT_FAILPOINT: 'before-turn-rename:pause=2000' };

/** turns/0001 as one `fatecraft turn` alone writes it. */
let reference: Record<string, string>;
beforeAll(async () => {
  const dir = demoCopy('reference');
  const r = await fatecraft(['turn', dir]);
  expect(r.code, r.stderr).toBe(0);
  reference = turnFolder(dir, '0001');
  expect(Object.keys(reference)).toEqual(expect.arrayContaining(['state.yaml', 'events.yaml', 'manifest.yaml']));
}, 60_000);

async function lockOwned(dir: string): Promise<void> {
  for (let i = 0; i < 200 && !existsSync(join(dir, '.fatecraft.lock', 'owner.json')); i++) await sleep(25);
}

describe('commands meeting on one campaign', () => {
  it('two turns started together: one resolves, the other says who holds the campaign and exits 75', async () => {
    const dir = demoCopy('two-turns');
    const runs = await Promise.all([fatecraft(['turn', dir], { ...slowRename, FATECRAFT_LOCK_WAIT: '0' }), fatecraft(['turn', dir], { ...slowRename, FATECRAFT_LOCK_WAIT: '0' })]);
    const worked = runs.filter((r) => r.code === 0);
    const refused = runs.filter((r) => r.code !== 0);
    expect(worked).toHaveLength(1);
    expect(worked[0]!.stdout).toMatch(/Resolved turn 1/);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.code).toBe(75);
    expect(refused[0]!.stderr).toMatch(/another fatecraft (turn|process)/);
    expect(refused[0]!.stderr).toMatch(/nothing was done/);
    expect(resolvedTurns(dir)).toEqual(['0000', '0001']);
    expect(turnFolder(dir, '0001')).toEqual(reference);
  }, 60_000);

  it('three turns at offsets, waiting: exactly one turn resolved, the others say it was resolved meanwhile', async () => {
    const dir = demoCopy('three-turns');
    const started = [0, 400, 800].map(async (offset) => {
      await sleep(offset);
      return fatecraft(['turn', dir], slowRename);
    });
    const runs = await Promise.all(started);
    expect(runs.filter((r) => r.code === 0)).toHaveLength(1);
    const late = runs.filter((r) => r.code !== 0);
    expect(late).toHaveLength(2);
    for (const r of late) {
      expect(r.stderr).toMatch(/Waiting up to 30 s for another fatecraft turn \(pid \d+\)/);
      expect(r.stderr).toMatch(/turn 1 has already been resolved \(the pending turn is 2\); nothing was done/);
      expect(r.code).toBe(1);
    }
    expect(resolvedTurns(dir)).toEqual(['0000', '0001']);
    expect(turnFolder(dir, '0001')).toEqual(reference);
  }, 60_000);

  it('a tick at the deadline and a turn by hand a second apart: one turn, whole, and the campaign goes on', async () => {
    const dir = demoCopy('tick-and-turn');
    const first = await fatecraft(['tick', dir], {}, BEFORE_DEADLINE);
    expect(first.code, first.stderr).toBe(0);
    const tick = fatecraft(['tick', dir], slowRename);
    await lockOwned(dir);
    const turn = await fatecraft(['turn', dir], { FATECRAFT_LOCK_WAIT: '0' });
    const ticked = await tick;
    expect(ticked.code, ticked.stderr).toBe(0);
    expect(ticked.stdout).toMatch(/resolved turn 1/);
    expect(turn.code).toBe(75);
    expect(turn.stderr).toMatch(/another fatecraft tick \(pid \d+\) is working on it since Sun 23 Mar 2025 18:15 GMT; nothing was done/);
    expect(resolvedTurns(dir)).toEqual(['0000', '0001']);
    // The tick's turn also keeps the next deadline its reports were rendered with (reports-input.yaml); a turn by hand has none.
    expect(Object.keys(turnFolder(dir, '0001')).filter((name) => name !== RENDER_INPUTS_FILE)).toEqual(Object.keys(reference));
    const status = await fatecraft(['status', dir]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).not.toMatch(/DAMAGED/);
  }, 60_000);

  it('every command that writes the campaign refuses while another holds it, naming it', async () => {
    const dir = demoCopy('busy');
    expect((await fatecraft(['turn', dir])).code).toBe(0);
    const holder = start(['tick', dir], { FATECRAFT_FAILPOINT: 'locked:pause=30000' });
    await lockOwned(dir);
    const commands = [['turn'], ['turn', '--preview'], ['report'], ['mail', 'fetch'], ['mail', 'send'], ['mail', 'reprocess'], ['rerun', '1'], ['rollback', '0'], ['extend', '--by', '1h'], ['pause'], ['resume'], ['nation', 'drop', 'westvalia'], ['repair']];
    const refused = await Promise.all(commands.map((c) => fatecraft(withCampaign(c, dir), { FATECRAFT_LOCK_WAIT: '0' })));
    refused.forEach((r, i) => {
      expect(r.code, `${commands[i]!.join(' ')}: ${r.stderr}`).toBe(75);
      expect(r.stderr, commands[i]!.join(' ')).toMatch(/another fatecraft tick \(pid \d+\) is working on it since .*; nothing was done/);
    });
    holder.child.kill('SIGKILL');
    await holder.done;
  }, 90_000);

  it('a copy of a campaign mid-write keeps the live writer’s temporary folder', async () => {
    // The writer is paused just before its rename; a second writer (here: a copy of the campaign handed to
    // another turn, sharing nothing but the folder names) must not clear a live process's folder.
    const dir = demoCopy('live-temporary');
    const slow = fatecraft(['turn', dir], { FATECRAFT_FAILPOINT: 'before-turn-rename:pause=10000' });
    let partial: string | undefined;
    for (let i = 0; i < 200 && !partial; i++) {
      partial = readdirSync(join(dir, 'turns')).find((n) => n.startsWith('.0001.partial-'));
      if (!partial) await sleep(25);
    }
    expect(partial).toMatch(/^\.0001\.partial-\d+\.\d+\..+$/);
    const copy = join(dir, '..', 'live-temporary-copy');
    cpSync(dir, copy, { recursive: true, filter: (src) => !src.includes('.fatecraft.lock') });
    const other = await fatecraft(['turn', copy]);
    expect(other.code, other.stderr).toBe(0);
    // The copy's own writer cleared nothing of the live process (its pid is alive): the folder is still there.
    expect(readdirSync(join(copy, 'turns'))).toContain(partial);
    expect((await slow).code).toBe(0);
    expect(turnFolder(dir, '0001')).toEqual(reference);
  }, 60_000);
});
