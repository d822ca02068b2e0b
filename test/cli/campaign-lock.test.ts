import { cpSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { lockWaitFromEnv, sayWaiting } from '../../src/cli/command-lock.js';
import { waitUntil } from '../support/awaiting.js';
import { startBuilt, type Exited } from '../support/built-cli.js';
import { runInProcess } from '../support/command-line.js';
import { hangLimit } from '../support/limits.js';
import { cleanupScratch, demoCopy, scratchDir, tree } from '../schedule/support.js';
import { RENDER_INPUTS_FILE } from '../../src/campaign/render-inputs.js';

/**
 * Commands meeting on one campaign, as real processes: whoever comes second
 * waits or says who holds the campaign, and a resolved turn is never damaged
 * (issue: a `tick` and a `turn` a few seconds apart destroyed turns/0001).
 * A process that must hold the campaign while the others meet it waits at a
 * failpoint until the test releases it (FATECRAFT_FAILPOINT=<point>:until=<file>),
 * so the meeting happens however slow the machine.
 */
afterAll(cleanupScratch);

const DEADLINE_PASSED = '2025-03-23T18:15:00Z';
const BEFORE_DEADLINE = '2025-03-23T13:00:00Z';

const env = (extra: Record<string, string> = {}, now = DEADLINE_PASSED) => ({ FATECRAFT_NOW: now, FATECRAFT_SECRETS: join(scratchDir('secrets'), 'x.yaml'), ...extra });
const start = (args: string[], extra: Record<string, string> = {}, now = DEADLINE_PASSED) => startBuilt(args, { env: env(extra, now) });
const fatecraft = (args: string[], extra: Record<string, string> = {}, now = DEADLINE_PASSED): Promise<Exited> => start(args, extra, now).done;

/** A command's words with the campaign folder put where it goes (after a subcommand's name). */
const withCampaign = (command: string[], dir: string) => {
  const at = command[0] === 'mail' || command[0] === 'nation' ? 2 : 1;
  return [...command.slice(0, at), dir, ...command.slice(at)];
};

const resolvedTurns = (dir: string) => readdirSync(join(dir, 'turns')).filter((n) => /^\d{4}$/.test(n));
/** A turn folder's every file and its bytes. */
const turnFolder = (dir: string, turn: string) => tree(join(dir, 'turns', turn));

/** A failpoint that holds a process at `point` until release() is called. */
function holdAt(point: string): { env: Record<string, string>; release: () => void } {
  const file = join(scratchDir('release'), 'go');
  return { env: { FATECRAFT_FAILPOINT: `${point}:until=${file}` }, release: () => writeFileSync(file, '') };
}

/** turns/0001 as one `fatecraft turn` alone writes it. */
let reference: Record<string, string>;
beforeAll(async () => {
  const dir = demoCopy('reference');
  const r = await runInProcess(['turn', dir], { env: env() });
  expect(r.status, r.stderr).toBe(0);
  reference = turnFolder(dir, '0001');
  expect(Object.keys(reference)).toEqual(expect.arrayContaining(['state.yaml', 'events.yaml', 'manifest.yaml']));
});

const lockOwned = (dir: string) => waitUntil(`the lock of ${dir} to be taken`, () => existsSync(join(dir, '.fatecraft.lock', 'owner.json')), hangLimit());

describe('commands meeting on one campaign', () => {
  it('two turns started together: one resolves, the other says who holds the campaign and exits 75', async () => {
    const dir = demoCopy('two-turns');
    // Whichever takes the campaign holds it before its rename until the other has given up.
    const hold = holdAt('before-turn-rename');
    const started = [start(['turn', dir], { ...hold.env, FATECRAFT_LOCK_WAIT: '0' }), start(['turn', dir], { ...hold.env, FATECRAFT_LOCK_WAIT: '0' })];
    await Promise.race(started.map((s) => s.done));
    hold.release();
    const runs = await Promise.all(started.map((s) => s.done));
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
  });

  it('three turns at offsets, waiting: exactly one turn resolved, the others say it was resolved meanwhile', async () => {
    const dir = demoCopy('three-turns');
    // The first to take the campaign holds it until both others wait for it; they wait as long as a busy
    // machine may need (FATECRAFT_LOCK_WAIT; by default 30 s).
    const hold = holdAt('before-turn-rename');
    const started: ReturnType<typeof start>[] = [];
    for (const gap of [0, 400, 400]) {
      await sleep(gap);
      started.push(start(['turn', dir], { ...hold.env, FATECRAFT_LOCK_WAIT: String(Math.round(hangLimit() / 1000)) }));
    }
    const waiting = () => started.filter((s) => s.output().stderr.includes('Waiting up to')).length;
    await waitUntil('two of the three turns to wait for the campaign', () => waiting() === 2, hangLimit());
    hold.release();
    const runs = await Promise.all(started.map((s) => s.done));
    expect(runs.filter((r) => r.code === 0)).toHaveLength(1);
    const late = runs.filter((r) => r.code !== 0);
    expect(late).toHaveLength(2);
    for (const r of late) {
      expect(r.stderr).toMatch(/Waiting up to \d+ s for another fatecraft turn \(pid \d+\)/);
      expect(r.stderr).toMatch(/turn 1 has already been resolved \(the pending turn is 2\); nothing was done/);
      expect(r.code).toBe(1);
    }
    expect(resolvedTurns(dir)).toEqual(['0000', '0001']);
    expect(turnFolder(dir, '0001')).toEqual(reference);
    // Without FATECRAFT_LOCK_WAIT a command waits 30 s, and says so in the same words.
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      sayWaiting(lockWaitFromEnv({}), undefined)({ pid: 4242, host: 'here', since: DEADLINE_PASSED, what: 'turn' });
      expect(said.mock.calls[0]?.[0]).toMatch(/Waiting up to 30 s for another fatecraft turn \(pid 4242\)/);
    } finally {
      said.mockRestore();
    }
  });

  it('a tick at the deadline and a turn by hand a second apart: one turn, whole, and the campaign goes on', async () => {
    const dir = demoCopy('tick-and-turn');
    const first = await runInProcess(['tick', dir], { env: env({}, BEFORE_DEADLINE) });
    expect(first.status, first.stderr).toBe(0);
    const hold = holdAt('before-turn-rename');
    const tick = start(['tick', dir], hold.env);
    await lockOwned(dir);
    const turn = await fatecraft(['turn', dir], { FATECRAFT_LOCK_WAIT: '0' });
    hold.release();
    const ticked = await tick.done;
    expect(ticked.code, ticked.stderr).toBe(0);
    expect(ticked.stdout).toMatch(/resolved turn 1/);
    expect(turn.code).toBe(75);
    expect(turn.stderr).toMatch(/another fatecraft tick \(pid \d+\) is working on it since Sun 23 Mar 2025 18:15 GMT; nothing was done/);
    expect(resolvedTurns(dir)).toEqual(['0000', '0001']);
    // The tick's turn also keeps the next deadline its reports were rendered with (reports-input.yaml); a turn by hand has none.
    expect(Object.keys(turnFolder(dir, '0001')).filter((name) => name !== RENDER_INPUTS_FILE)).toEqual(Object.keys(reference));
    const status = await runInProcess(['status', dir], { env: env() });
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).not.toMatch(/DAMAGED/);
  });

  it('every command that writes the campaign refuses while another holds it, naming it', async () => {
    const dir = demoCopy('busy');
    expect((await runInProcess(['turn', dir], { env: env() })).status).toBe(0);
    const hold = holdAt('locked');
    const holder = start(['tick', dir], hold.env);
    await lockOwned(dir);
    const commands = [['turn'], ['turn', '--preview'], ['report'], ['mail', 'fetch'], ['mail', 'send'], ['mail', 'reprocess'], ['rerun', '1'], ['rollback', '0'], ['extend', '--by', '1h'], ['pause'], ['resume'], ['nation', 'drop', 'westvalia'], ['repair']];
    // The holder is another process; each refusal is the command's own doing, run in this process.
    const refused = [];
    for (const c of commands) refused.push(await runInProcess(withCampaign(c, dir), { env: env({ FATECRAFT_LOCK_WAIT: '0' }) }));
    refused.forEach((r, i) => {
      expect(r.status, `${commands[i]!.join(' ')}: ${r.stderr}`).toBe(75);
      expect(r.stderr, commands[i]!.join(' ')).toMatch(/another fatecraft tick \(pid \d+\) is working on it since .*; nothing was done/);
    });
    holder.child.kill('SIGKILL');
    await holder.done;
    hold.release();
  });

  it('a copy of a campaign mid-write keeps the live writer’s temporary folder', async () => {
    // The writer is paused just before its rename; a second writer (here: a copy of the campaign handed to
    // another turn, sharing nothing but the folder names) must not clear a live process's folder.
    const dir = demoCopy('live-temporary');
    const hold = holdAt('before-turn-rename');
    const slow = start(['turn', dir], hold.env);
    const partialIn = () => readdirSync(join(dir, 'turns')).find((n) => n.startsWith('.0001.partial-'));
    await waitUntil('the turn\'s temporary folder', () => partialIn() !== undefined, hangLimit());
    const partial = partialIn();
    expect(partial).toMatch(/^\.0001\.partial-\d+\.\d+\..+$/);
    const copy = join(dir, '..', 'live-temporary-copy');
    cpSync(dir, copy, { recursive: true, filter: (src) => !src.includes('.fatecraft.lock') });
    const other = await fatecraft(['turn', copy]);
    expect(other.code, other.stderr).toBe(0);
    // The copy's own writer cleared nothing of the live process (its pid is alive): the folder is still there.
    expect(readdirSync(join(copy, 'turns'))).toContain(partial);
    hold.release();
    expect((await slow.done).code).toBe(0);
    expect(turnFolder(dir, '0001')).toEqual(reference);
  });
});
