import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/schedule/clock.js';
import { planTick, type TickInput } from '../../src/schedule/plan.js';
import { newRuntime, readRuntime } from '../../src/schedule/runtime.js';
import { parseSchedule, type Schedule } from '../../src/schedule/settings.js';
import { tick } from '../../src/schedule/tick.js';
import { runInProcess } from '../support/command-line.js';
import { cleanupScratch, DEFAULT_TEST_SCHEDULE, demoCopy, NATIONS, recordingHooks, writeOrders } from './support.js';

/** Early resolution, opt-in: once every expected nation has orders on file, the turn resolves at the next tick. */
afterAll(cleanupScratch);

const schedule = (block: Record<string, unknown> = {}): Schedule => {
  const r = parseSchedule({ deadline: '0 18 * * 0', timeZone: 'Europe/London', ...block });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.schedule;
};
const DEADLINE = new Date('2025-03-23T18:00:00Z');
const NOW = new Date('2025-03-20T12:00:00Z');
const input = (patch: Partial<TickInput> = {}): TickInput => {
  const runtime = newRuntime(3, DEADLINE);
  runtime.lastTick = new Date(NOW.getTime() - 5 * 60_000).toISOString();
  return { runtime, schedule: schedule({ early: true }), now: NOW, submitted: ['a', 'b'], active: ['a', 'b'], mailOk: true, ...patch };
};

describe('early resolution', () => {
  it('resolves before the deadline only when opted in, every expected nation has orders, and the mail was read', () => {
    expect(planTick(input()).actions).toEqual([{ kind: 'resolve', turn: 3, nextDeadline: new Date('2025-03-30T17:00:00Z') }]);
    expect(planTick(input({ schedule: schedule() })).actions).toEqual([]);
    expect(planTick(input({ submitted: ['a'] })).actions).toEqual([]);
    expect(planTick(input({ mailOk: false })).actions).toEqual([]);
    expect(planTick(input({ active: [], submitted: [] })).actions).toEqual([]);
  });

  it('counts the next deadline from the fixed weekly time, or from the resolution when the campaign says so', () => {
    const fromResolution = planTick(input({ schedule: schedule({ early: true, nextDeadlineFrom: 'resolution' }) })).actions;
    expect(fromResolution).toEqual([{ kind: 'resolve', turn: 3, nextDeadline: DEADLINE }]);
    expect(parseSchedule({ nextDeadlineFrom: 'soon' }).ok).toBe(false);
  });

  it('a tick resolves the turn once the last orders are on file', async () => {
    const dir = demoCopy('early', `${DEFAULT_TEST_SCHEDULE}  early: true\n`);
    const clock = new FakeClock('2025-03-20T10:00:00Z');
    const { hooks } = recordingHooks();
    rmSync(join(dir, 'orders'), { recursive: true, force: true });
    writeOrders(dir, 1, NATIONS.slice(0, 4));
    expect((await tick(dir, { clock, hooks })).resolved).toEqual([]);
    writeOrders(dir, 1, ['westvalia']);
    clock.set(new Date('2025-03-20T10:05:00Z'));
    expect((await tick(dir, { clock, hooks })).resolved).toEqual([1]);
    expect((await readRuntime(dir))!).toMatchObject({ turn: 2, deadline: '2025-03-30T17:00:00.000Z' });
  });

  it('the tick of the command line resolves early too: an idle tick never takes such a campaign for idle', async () => {
    const dir = demoCopy('early-cli', `${DEFAULT_TEST_SCHEDULE}  early: true\n`);
    rmSync(join(dir, 'orders'), { recursive: true, force: true });
    writeOrders(dir, 1, NATIONS.slice(0, 4));
    const cli = (now: string) => runInProcess(['tick', dir], { env: { FATECRAFT_NOW: now } });
    const first = await cli('2025-03-20T10:00:00Z');
    expect(first.stdout).not.toMatch(/resolved turn 1/);
    writeOrders(dir, 1, ['westvalia']);
    const second = await cli('2025-03-20T10:05:00Z');
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/resolved turn 1/);
  });
});

