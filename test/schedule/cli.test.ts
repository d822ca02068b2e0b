import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAILPOINTS } from '../../src/host/failpoints.js';
import { waitUntil } from '../support/awaiting.js';
import { runBuiltAsync, startBuilt } from '../support/built-cli.js';
import { runInProcess } from '../support/command-line.js';
import { hangLimit } from '../support/limits.js';
import { cleanupScratch, demoCopy, scratchDir, tree } from './support.js';
import type { CampaignStatus } from '../../src/schedule/status.js';

/**
 * The command line as cron runs it. What only separate processes show (two ticks racing for the lock,
 * SIGKILL at each step, SIGTERM to the daemon) runs the built CLI; the rest runs the same commands in this
 * process (test/support/command-line.ts).
 */
afterAll(cleanupScratch);

const env = (now: string, extra: Record<string, string> = {}) => ({ FATECRAFT_NOW: now, FATECRAFT_SECRETS: join(scratchDir('secrets'), 'x.yaml'), ...extra });
const run = (args: string[], now: string, extra: Record<string, string> = {}) => runInProcess(args, { env: env(now, extra) });
const runAsync = (args: string[], now: string, extra: Record<string, string> = {}) => runBuiltAsync(args, { env: env(now, extra) });

/** What must come out the same: the turns, runtime.yaml and every message tick "sent". */
const outcome = (dir: string) => tree(dir, (rel) => rel === 'campaign.yaml' || rel.startsWith('orders'));

describe('fatecraft tick (processes)', () => {
  it('two ticks started together on one campaign: exactly one works, the other says why', async () => {
    const dir = demoCopy('race');
    expect((await run(['tick', dir], '2025-03-23T18:00:00Z')).status).toBe(0);
    // Whichever takes the lock holds it until the other has given up, so the two surely overlap.
    const release = join(scratchDir('release'), 'go');
    const hold = env('2025-03-23T18:15:00Z', { FATECRAFT_FAILPOINT: `locked:until=${release}` });
    const [a, b] = [startBuilt(['tick', dir], { env: hold }), startBuilt(['tick', dir], { env: hold })];
    await Promise.race([a.done, b.done]);
    writeFileSync(release, '');
    const results = await Promise.all([a.done, b.done]);
    const worked = results.filter((r) => r.stdout.includes('resolved turn 1'));
    const refused = results.filter((r) => r.stderr.includes('another fatecraft tick'));
    expect(worked).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(worked[0]!.code).toBe(0);
    expect(refused[0]!.code).toBe(1);
    expect(refused[0]!.stderr).toMatch(/another fatecraft tick \(pid \d+\) is working on it since Sun 23 Mar 2025 18:15 GMT; nothing was done/);
    expect(readdirSync(join(dir, 'turns')).filter((n) => /^\d+$/.test(n))).toEqual(['0000', '0001']);
  });

  // A campaign in which westvalia has not sent orders: tick at T0 (the 6h reminder), then at the deadline + grace.
  const T0 = '2025-03-23T13:00:00Z';
  const T1 = '2025-03-23T18:15:00Z';
  async function prepared(label: string): Promise<string> {
    const dir = demoCopy(label);
    rmSync(join(dir, 'orders', '0001', 'westvalia.yaml'));
    const r = await run(['tick', dir], T0);
    expect(r.status, r.stderr).toBe(0);
    return dir;
  }

  it('killed (SIGKILL) at any step of a resolving tick and run again, ends as an uninterrupted run', async () => {
    const reference = await prepared('ref');
    expect((await run(['tick', reference], T1)).status).toBe(0);
    const expected = outcome(reference);
    expect(Object.keys(expected)).toEqual(expect.arrayContaining(['runtime.yaml', 'turns/0001/state.yaml', 'tick-outbox/remind-1-6h.yaml', 'tick-outbox/reports-1.yaml']));
    // Each failpoint of the tick on its own copy of the campaign as it was at T0, killed all at once; the
    // rest (the reminder was sent at T0; the GM operations' points) named together to one more process,
    // which is killed if any of them is reached (FATECRAFT_FAILPOINT=a,b,...). Then each run again.
    const base = await prepared('base');
    const onTheWay: readonly string[] = ['lock-owner-written', 'locked', 'after-fetch', 'before-resolve', 'before-turn-rename', 'after-resolve', 'after-open-next', 'after-reports', 'after-alerts'];
    const specs = [...onTheWay, FAILPOINTS.filter((p) => !onTheWay.includes(p)).join(',')];
    const killed = await Promise.all(
      specs.map(async (point, i) => {
        const dir = join(base, '..', `kill-${i}`);
        cpSync(base, dir, { recursive: true });
        const first = await runAsync(['tick', dir], T1, { FATECRAFT_FAILPOINT: point });
        return { point, dir, killed: first.signal === 'SIGKILL' };
      }),
    );
    const reached = killed.filter((r) => r.killed).map((r) => r.point);
    for (const r of killed) {
      const again = await run(['tick', r.dir], T1);
      expect(again.status, `${r.point}: ${again.stderr}`).toBe(0);
      expect(outcome(r.dir), `killed at ${r.point}`).toEqual(expected);
    }
    expect(reached).toEqual(onTheWay);
  });

  it('killed right after sending a reminder and run again, sends it once', async () => {
    const T = '2025-03-21T18:00:00Z';
    const ref = demoCopy('remind-ref');
    rmSync(join(ref, 'orders', '0001', 'westvalia.yaml'));
    expect((await run(['tick', ref], '2025-03-21T12:00:00Z')).status).toBe(0);
    const dir = join(ref, '..', 'remind-killed');
    cpSync(ref, dir, { recursive: true });
    expect((await run(['tick', ref], T)).status).toBe(0);
    const killed = await runAsync(['tick', dir], T, { FATECRAFT_FAILPOINT: 'after-remind' });
    expect(killed.signal).toBe('SIGKILL');
    expect((await run(['tick', dir], T)).status).toBe(0);
    expect(outcome(dir)).toEqual(outcome(ref));
    expect(readdirSync(join(dir, 'tick-outbox'))).toEqual(['remind-1-48h.yaml']);
  });

  it('several campaigns: the exit code has a bit per failed campaign', async () => {
    const a = demoCopy('multi-a');
    const b = demoCopy('multi-b', '  timeZone: Atlantis/Capital\n');
    const r = await run(['tick', a, b], '2025-03-20T10:00:00Z');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${b}: FAILED`);
    expect(r.stderr).toContain('unknown time zone "Atlantis/Capital"');
    expect(r.stdout).toContain(`${a}: schedule started: turn 1 is due Sun 23 Mar 2025 18:00 GMT`);
  });
});

describe('fatecraft daemon (processes)', () => {
  it('runs the schedule in-process: with FATECRAFT_NOW, weeks pass in a moment', async () => {
    const dir = demoCopy('daemon');
    const r = await run(['daemon', dir, '--poll', '4h', '--until', '2025-04-01T00:00:00Z'], '2025-03-20T10:00:00Z');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('resolved turn 1');
    // Turn 2 has no orders at all: the NMR guard holds it and the GM's alert goes out once.
    expect(r.stdout).toContain('turn 2 held: 5 of 5 nations sent no orders');
    expect(r.stdout).toMatch(/stopped after \d+ round\(s\)/);
    expect(readdirSync(join(dir, 'tick-outbox')).sort()).toEqual(['alert-1.yaml', 'remind-2-48h.yaml', 'remind-2-6h.yaml', 'reports-1.yaml']);
  });

  it('stops cleanly on SIGTERM, releasing the lock', async () => {
    const dir = demoCopy('daemon-term');
    const daemon = startBuilt(['daemon', dir, '--poll', '1h'], { env: { FATECRAFT_SECRETS: join(scratchDir('secrets'), 'x.yaml') } });
    // Its first round has ticked (and printed so) and it sleeps until the next poll.
    await waitUntil('the daemon\'s first round (its runtime.yaml and "schedule started")', () => existsSync(join(dir, 'runtime.yaml')) && daemon.output().stdout.includes('schedule started'), hangLimit());
    daemon.child.kill('SIGTERM');
    const { code, stdout } = await daemon.done;
    expect(code).toBe(0);
    expect(stdout).toContain('stopped after 1 round(s)');
    expect(existsSync(join(dir, '.fatecraft.lock'))).toBe(false);
  });
});

describe('fatecraft status and the GM commands (processes)', () => {
  it('shows the turn, deadline in the campaign\'s zone, time left, who has sent orders', async () => {
    const dir = demoCopy('status');
    rmSync(join(dir, 'orders', '0001', 'westvalia.yaml'));
    expect((await run(['tick', dir], '2025-03-21T18:00:00Z')).status).toBe(0);
    const text = await run(['status', dir], '2025-03-21T18:30:00Z');
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain('Turn 1, Summer 1021');
    expect(text.stdout).toContain('Deadline: Sun 23 Mar 2025 18:00 GMT (1d 23h 30m left)');
    expect(text.stdout).toContain('Orders: 4 of 5 expected nations; reminders done: 48h');
    expect(text.stdout).toMatch(/westvalia\s+waiting/);
    expect(text.stdout).toMatch(/argenta\s+submitted/);
    const json = JSON.parse((await run(['status', dir, '--json'], '2025-03-21T18:30:00Z')).stdout) as CampaignStatus;
    expect(json).toMatchObject({ turn: 1, season: 'Summer', year: 1021, timeZone: 'Europe/London', started: true, submitted: 4, expected: 5 });
    expect(json.deadline).toMatchObject({ utc: '2025-03-23T18:00:00.000Z', localIso: '2025-03-23T18:00:00+00:00', timeLeft: '1d 23h 30m', passed: false });
  });

  it('pause, extend, resume, rerun and rollback from the command line, each logged', async () => {
    const dir = demoCopy('gmcli');
    expect((await run(['tick', dir], '2025-03-20T10:00:00Z')).status).toBe(0);
    expect((await run(['pause', dir, '--reason', 'GM on holiday'], '2025-03-20T11:00:00Z')).stdout).toContain('Paused at turn 1');
    expect((await run(['tick', dir], '2025-03-20T11:05:00Z')).stdout).toContain('turn 1 waits: paused');
    const ext = await run(['extend', dir, '--to', '2025-03-30 18:00'], '2025-03-20T11:10:00Z');
    expect(ext.stdout).toContain('Turn 1 is now due Sun 30 Mar 2025 18:00 BST (was Sun 23 Mar 2025 18:00 GMT)');
    expect((await run(['resume', dir], '2025-03-20T11:15:00Z')).stdout).toContain('Unpaused.');
    for (const t of ['2025-03-25T10:00:00Z', '2025-03-28T10:00:00Z', '2025-03-30T14:00:00Z']) expect((await run(['tick', dir], t)).status).toBe(0);
    const resolve = await run(['tick', dir], '2025-03-30T17:15:00Z');
    expect(resolve.stdout).toContain('resolved turn 1');
    const rerun = await run(['rerun', dir, '1', '--force'], '2025-03-30T18:00:00Z');
    expect(rerun.status, rerun.stderr).toBe(0);
    expect(rerun.stdout).toContain('turns/0001.superseded-1');
    const bad = await run(['rerun', dir, '0'], '2025-03-30T18:00:00Z');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('turn 0 is the starting position');
    const back = await run(['rollback', dir, '0'], '2025-03-30T18:05:00Z');
    expect(back.status, back.stderr).toBe(0);
    expect(back.stdout).toContain('Turn 1 was moved aside');
    const rt = readFileSync(join(dir, 'runtime.yaml'), 'utf8');
    for (const op of ['pause', 'extend', 'resume', 'resolved', 'rerun', 'rollback']) expect(rt).toContain(`op: ${op}`);
  });
});
