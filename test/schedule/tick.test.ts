import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTurn } from '../../src/jobs/run-turn.js';
import { resumeCampaign } from '../../src/gm/steering.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { runDaemon } from '../../src/schedule/daemon.js';
import type { TickContext } from '../../src/schedule/hooks.js';
import { LOCK_DIR } from '../../src/schedule/lock.js';
import { readRuntime, writeRuntime } from '../../src/schedule/runtime.js';
import { tick, tickMany } from '../../src/schedule/tick.js';
import { tickExitCode } from '../../src/cli/commands/tick.js';
import { cleanupScratch, demoCopy, NATIONS, recordingHooks, writeOrders } from './support.js';

afterAll(cleanupScratch);

const HOUR = 3_600_000;
const turnFolders = (dir: string) => readdirSync(join(dir, 'turns')).sort();

describe('three weeks of a campaign by the fake clock', () => {
  it('reminds at the right times, resolves each turn once at deadline + grace, sends each report once, refuses late orders', async () => {
    const dir = demoCopy('weeks');
    const clock = new FakeClock('2025-03-19T12:00:00Z');
    const late: { turn: number; at: string; accepted: boolean }[] = [];
    // The "mail": when a turn opens, four nations send orders; westvalia only after its 6h reminder.
    const { hooks, sent } = recordingHooks({
      async fetchMail(ctx: TickContext) {
        if (ctx.turn > 1) writeOrders(ctx.dir, ctx.turn, NATIONS.filter((n) => n !== 'westvalia' && !existsSync(join(ctx.dir, 'orders', String(ctx.turn).padStart(4, '0'), `${n}.yaml`))));
        if (sent.reminders.some((r) => r.turn === ctx.turn && r.label === '6h')) writeOrders(ctx.dir, ctx.turn, ['westvalia']);
        // A player's orders for turn 1 arriving in week two are refused.
        if (ctx.turn === 2 && late.length === 0) late.push({ turn: 1, at: ctx.now.toISOString(), accepted: ctx.acceptsOrders(1, ctx.now) });
      },
    });
    const resolvedAt: Record<number, string> = {};
    await runDaemon([dir], {
      clock,
      poll: 3 * HOUR,
      until: new Date('2025-04-09T12:00:00Z'),
      hooksFor: () => hooks,
      onTick: (outcomes, at) => {
        for (const t of outcomes[0]!.resolved) resolvedAt[t] = at.toISOString();
        expect(outcomes[0]!.status, outcomes[0]!.error).toBe('ok');
      },
    });

    expect(turnFolders(dir)).toEqual(['0000', '0001', '0002', '0003']);
    expect(resolvedAt).toEqual({ 1: '2025-03-23T18:15:00.000Z', 2: '2025-03-30T17:15:00.000Z', 3: '2025-04-06T17:15:00.000Z' });
    // Turn 1's orders were in the demo; turns 2 and 3: westvalia was reminded 48h and 6h before, exactly.
    expect(sent.reminders).toEqual([
      { turn: 2, label: '48h', nations: ['westvalia'], at: '2025-03-28T17:00:00.000Z' },
      { turn: 2, label: '6h', nations: ['westvalia'], at: '2025-03-30T11:00:00.000Z' },
      { turn: 3, label: '48h', nations: ['westvalia'], at: '2025-04-04T17:00:00.000Z' },
      { turn: 3, label: '6h', nations: ['westvalia'], at: '2025-04-06T11:00:00.000Z' },
    ]);
    expect(sent.reports.map((r) => [r.turn, r.at])).toEqual([
      [1, '2025-03-23T18:15:00.000Z'],
      [2, '2025-03-30T17:15:00.000Z'],
      [3, '2025-04-06T17:15:00.000Z'],
    ]);
    expect(late).toEqual([{ turn: 1, at: '2025-03-23T21:15:00.000Z', accepted: false }]);
    expect(sent.alerts).toEqual([]);
    const rt = (await readRuntime(dir))!;
    expect(rt.turn).toBe(4);
    expect(rt.deadline).toBe('2025-04-13T17:00:00.000Z');
    expect(rt.log.filter((l) => l.op === 'resolved').map((l) => l.turn)).toEqual([1, 2, 3]);
    // Every nation sent orders for turn 3, so nobody has missed a turn.
    const state = readFileSync(join(dir, 'turns', '0003', 'state.yaml'), 'utf8');
    expect(state).not.toMatch(/missedTurns: [1-9]/);
  });
});

describe('tick', () => {
  it('run twice at the same moment does the work once', async () => {
    const dir = demoCopy('twice');
    const clock = new FakeClock('2025-03-21T18:00:00Z');
    const { hooks, sent } = recordingHooks();
    await tick(dir, { clock, hooks });
    await tick(dir, { clock, hooks });
    expect(sent.reminders).toHaveLength(0); // turn 1: every nation's orders are on file
    clock.set('2025-03-23T18:15:00Z');
    // A tick every few hours before it keeps the long-gap guard quiet.
    const rt = (await readRuntime(dir))!;
    rt.lastTick = '2025-03-23T18:10:00Z';
    await writeRuntime(dir, rt);
    const a = await tick(dir, { clock, hooks });
    const b = await tick(dir, { clock, hooks });
    expect(a.resolved).toEqual([1]);
    expect(b.resolved).toEqual([]);
    expect(sent.reports).toHaveLength(1);
    expect(turnFolders(dir)).toEqual(['0000', '0001']);
  });

  it('acceptsOrders: the pending turn until deadline + grace; later only while the turn waits', async () => {
    const dir = demoCopy('accepts');
    const clock = new FakeClock('2025-03-22T12:00:00Z');
    const seen: boolean[] = [];
    const { hooks } = recordingHooks({
      async fetchMail(ctx) {
        seen.push(ctx.acceptsOrders(1, new Date('2025-03-23T18:14:59Z')), ctx.acceptsOrders(1, new Date('2025-03-23T18:15:01Z')), ctx.acceptsOrders(2, new Date('2025-03-22T12:00:00Z')));
      },
    });
    await tick(dir, { clock, hooks });
    expect(seen).toEqual([true, false, false]);
  });

  it('a nation whose player declared an absence gets no reminder and does not count for the guard', async () => {
    const dir = demoCopy('absence');
    const { rmSync } = await import('node:fs');
    for (const n of ['westvalia', 'grarkul', 'gondarahl']) rmSync(join(dir, 'orders', '0001', `${n}.yaml`));
    const clock = new FakeClock('2025-03-21T18:00:00Z');
    const { hooks, sent } = recordingHooks({
      async fetchMail(ctx) {
        if (ctx.runtime.absences.length === 0) await ctx.declareAbsence('westvalia' as never, 1, 2, 'on holiday');
      },
    });
    await tick(dir, { clock, hooks });
    expect(sent.reminders).toEqual([{ turn: 1, label: '48h', nations: ['gondarahl', 'grarkul'], at: '2025-03-21T18:00:00.000Z' }]);
    for (const t of ['2025-03-21T22:00:00Z', '2025-03-22T02:00:00Z', '2025-03-22T06:00:00Z', '2025-03-22T10:00:00Z', '2025-03-22T14:00:00Z', '2025-03-22T18:00:00Z', '2025-03-22T22:00:00Z', '2025-03-23T02:00:00Z', '2025-03-23T06:00:00Z', '2025-03-23T10:00:00Z', '2025-03-23T14:00:00Z']) {
      clock.set(t);
      await tick(dir, { clock, hooks });
    }
    clock.set('2025-03-23T18:15:00Z');
    // 2 of 4 expected nations missing is not more than half: it resolves.
    expect((await tick(dir, { clock, hooks })).resolved).toEqual([1]);
    expect((await readRuntime(dir))!.log.find((l) => l.op === 'absence')!.detail).toBe('westvalia is away for turns 1–2: on holiday');
  });

  it('holds a turn when most nations sent nothing, alerts the GM once, and resolves after resume', async () => {
    const dir = demoCopy('nmr');
    const clock = new FakeClock('2025-03-23T18:00:00Z');
    const { hooks, sent } = recordingHooks();
    await tick(dir, { clock, hooks });
    clock.set('2025-03-23T18:15:00Z');
    await tick(dir, { clock, hooks }); // resolves turn 1 (the demo's orders)
    // Turn 2: only argenta sends orders.
    writeOrders(dir, 2, ['argenta']);
    for (let t = Date.parse('2025-03-23T21:00:00Z'); t <= Date.parse('2025-03-31T12:00:00Z'); t += 3 * HOUR) {
      clock.set(new Date(t));
      const o = await tick(dir, { clock, hooks });
      expect(o.resolved).toEqual([]);
    }
    expect(turnFolders(dir)).toEqual(['0000', '0001']);
    expect(sent.alerts.map((a) => [a.kind, a.turn])).toEqual([['nmr-guard', 2]]);
    expect(sent.alerts[0]!.message).toContain('4 of 5 nations sent no orders');
    const rt = (await readRuntime(dir))!;
    expect(rt.holds).toEqual([expect.objectContaining({ turn: 2, kind: 'nmr' })]);
    expect(rt.alerts.filter((a) => a.open)).toHaveLength(1);

    const resumed = await resumeCampaign(dir, { clock });
    expect(resumed.confirmed.map((h) => h.kind)).toEqual(['nmr']);
    expect(resumed.dueNow).toBe(true);
    clock.advance(5 * 60_000);
    const o = await tick(dir, { clock, hooks });
    expect(o.resolved).toEqual([2]);
    const after = (await readRuntime(dir))!;
    expect(after.alerts.filter((a) => a.open)).toEqual([]);
    // Resolved six days late: the next deadline is the next Sunday, not one in the past.
    expect(after.deadline).toBe('2025-04-06T17:00:00.000Z');
    expect(sent.alerts).toHaveLength(1);
  });

  it('after a long gap over the deadline waits for the GM, then resolves', async () => {
    const dir = demoCopy('gap');
    const clock = new FakeClock('2025-03-22T10:00:00Z');
    const { hooks, sent } = recordingHooks();
    await tick(dir, { clock, hooks });
    clock.set('2025-03-24T09:00:00Z'); // the host was down for two days
    const held = await tick(dir, { clock, hooks });
    expect(held.resolved).toEqual([]);
    expect(held.lines.join('\n')).toContain('no tick ran between Sat 22 Mar 2025 10:00 GMT and Mon 24 Mar 2025 09:00 GMT (1d 23h, longer than schedule.maxTickGap, 6h)');
    clock.advance(5 * 60_000);
    expect((await tick(dir, { clock, hooks })).resolved).toEqual([]); // still waiting, though the gap is over
    expect(sent.alerts.map((a) => a.kind)).toEqual(['long-gap']);
    await resumeCampaign(dir, { clock });
    clock.advance(5 * 60_000);
    expect((await tick(dir, { clock, hooks })).resolved).toEqual([1]);
  });

  it('does not resolve on a tick whose mail fetch failed, and alerts once', async () => {
    const dir = demoCopy('fetchfail');
    const clock = new FakeClock('2025-03-23T18:00:00Z');
    let failing = true;
    const { hooks, sent } = recordingHooks({
      async fetchMail() {
        if (failing) throw new Error('IMAP: connection refused');
      },
    });
    await tick(dir, { clock, hooks });
    clock.set('2025-03-23T18:15:00Z');
    expect((await tick(dir, { clock, hooks })).resolved).toEqual([]);
    clock.advance(5 * 60_000);
    expect((await tick(dir, { clock, hooks })).resolved).toEqual([]);
    expect(sent.alerts.map((a) => a.kind)).toEqual(['mail-failure']);
    failing = false;
    clock.advance(5 * 60_000);
    expect((await tick(dir, { clock, hooks })).resolved).toEqual([1]);
  });

  it('retries reports that failed to send, raising one alert', async () => {
    const dir = demoCopy('reportfail');
    const clock = new FakeClock('2025-03-23T18:00:00Z');
    let fails = 2;
    const { hooks, sent } = recordingHooks();
    const send = hooks.sendReports.bind(hooks);
    hooks.sendReports = async (ctx, d) => {
      if (fails-- > 0) throw new Error('SMTP 451 try later');
      await send(ctx, d);
    };
    await tick(dir, { clock, hooks });
    clock.set('2025-03-23T18:15:00Z');
    expect((await tick(dir, { clock, hooks })).resolved).toEqual([1]);
    clock.advance(5 * 60_000);
    await tick(dir, { clock, hooks });
    expect(sent.reports).toEqual([]);
    clock.advance(5 * 60_000);
    await tick(dir, { clock, hooks });
    expect(sent.reports.map((r) => r.turn)).toEqual([1]);
    expect(sent.alerts.map((a) => a.kind)).toEqual(['mail-failure']);
    expect((await readRuntime(dir))!.reportsDue).toEqual([]);
  });

  it('books a turn the GM resolved by hand and sends its reports', async () => {
    const dir = demoCopy('byhand');
    const clock = new FakeClock('2025-03-20T10:00:00Z');
    const { hooks, sent } = recordingHooks();
    await tick(dir, { clock, hooks });
    await runTurn(dir, { expectTurn: 1 });
    clock.advance(HOUR);
    const o = await tick(dir, { clock, hooks });
    expect(o.lines.join('\n')).toContain('turn 1 was resolved outside tick');
    expect(sent.reports.map((r) => r.turn)).toEqual([1]);
    const rt = (await readRuntime(dir))!;
    expect(rt.turn).toBe(2);
    expect(rt.deadline).toBe('2025-03-30T17:00:00.000Z');
  });

  it('finishes a resolution a killed tick had decided, with the deadline it had chosen', async () => {
    const dir = demoCopy('halfway');
    const clock = new FakeClock('2025-03-23T18:00:00Z');
    const { hooks, sent } = recordingHooks();
    await tick(dir, { clock, hooks });
    const rt = (await readRuntime(dir))!;
    rt.resolving = { turn: 1, startedAt: '2025-03-23T18:15:00.000Z', nextDeadline: '2025-03-30T17:00:00.000Z' };
    await writeRuntime(dir, rt);
    mkdirSync(join(dir, 'turns', '.0001.partial-99999'));
    writeFileSync(join(dir, 'turns', '.0001.partial-99999', 'state.yaml'), 'half a fi');
    clock.set('2025-03-23T18:40:00Z');
    const o = await tick(dir, { clock, hooks });
    expect(o.resolved).toEqual([1]);
    expect(turnFolders(dir)).toEqual(['0000', '0001']);
    const after = (await readRuntime(dir))!;
    expect(after.resolving).toBeUndefined();
    expect(after.log.find((l) => l.op === 'resolved')!.at).toBe('2025-03-23T18:15:00.000Z');
    expect(sent.reports.map((r) => r.turn)).toEqual([1]);
  });

  it('stops with a message when runtime.yaml is ahead of the turn folders, and never guesses', async () => {
    const dir = demoCopy('ahead');
    const clock = new FakeClock('2025-03-20T10:00:00Z');
    const { hooks } = recordingHooks();
    await tick(dir, { clock, hooks });
    const rt = (await readRuntime(dir))!;
    rt.turn = 4;
    await writeRuntime(dir, rt);
    const o = await tick(dir, { clock, hooks });
    expect(o.status).toBe('failed');
    expect(o.error).toContain('runtime.yaml is at turn 4, but the latest resolved turn on disk is 0');
    expect(o.error).toContain('fatecraft rollback');
    writeFileSync(join(dir, 'runtime.yaml'), 'turn: [unclosed');
    const bad = await tick(dir, { clock, hooks });
    expect(bad.status).toBe('failed');
    expect(bad.error).toContain('runtime.yaml');
  });

  it('takes over a lock left by a dead process, and refuses one held by a live one', async () => {
    const dir = demoCopy('locks');
    const clock = new FakeClock('2025-03-20T10:00:00Z');
    const { hooks } = recordingHooks();
    const dead = spawnSync(process.execPath, ['-e', 'process.pid'], {}).pid;
    mkdirSync(join(dir, LOCK_DIR));
    writeFileSync(join(dir, LOCK_DIR, 'owner.json'), JSON.stringify({ pid: dead, host: (await import('node:os')).hostname(), since: '2025-03-20T09:55:00.000Z', what: 'tick' }));
    const o = await tick(dir, { clock, hooks });
    expect(o.status).toBe('ok');
    expect(o.lines[0]).toContain(`took over the lock of process ${dead}`);
    expect(existsSync(join(dir, LOCK_DIR))).toBe(false);

    mkdirSync(join(dir, LOCK_DIR));
    writeFileSync(join(dir, LOCK_DIR, 'owner.json'), JSON.stringify({ pid: process.ppid, host: (await import('node:os')).hostname(), since: '2025-03-20T09:58:00.000Z', what: 'tick' }));
    const busy = await tick(dir, { clock, hooks });
    expect(busy.status).toBe('busy');
    expect(busy.error).toBe(`${dir}: another fatecraft tick (pid ${process.ppid}) is working on it since Thu 20 Mar 2025 09:58 GMT; nothing was done. Try again when it has finished.`);
  });

  it('ticks several campaigns: one failing does not stop the others, and the exit code says which', async () => {
    const good1 = demoCopy('many-a');
    const broken = demoCopy('many-b', '  deadline: "every sunday"\n');
    const good2 = demoCopy('many-c');
    const clock = new FakeClock('2025-03-20T10:00:00Z');
    const outcomes = await tickMany([good1, broken, good2], { clock, hooksFor: () => recordingHooks().hooks });
    expect(outcomes.map((o) => o.status)).toEqual(['ok', 'failed', 'ok']);
    expect(outcomes[1]!.error).toContain('schedule.deadline');
    expect(tickExitCode(outcomes)).toBe(2);
    expect(existsSync(join(good2, 'runtime.yaml'))).toBe(true);
  });
});
