import { describe, expect, it } from 'vitest';
import { planTick, type TickInput } from '../../src/schedule/plan.js';
import { newRuntime, type Runtime } from '../../src/schedule/runtime.js';
import { parseSchedule, type Schedule } from '../../src/schedule/settings.js';

/** The planner alone: a pure function of runtime, schedule, time and submissions. */
const schedule = (block: Record<string, unknown> = {}): Schedule => {
  const r = parseSchedule({ reminders: ['48h', '6h'], grace: '15m', maxTickGap: '6h', ...block });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.schedule;
};
const DEADLINE = new Date('2025-03-23T18:00:00Z');
const ALL = ['a', 'b', 'c', 'd'];
const at = (iso: string) => new Date(iso);
function input(now: string, patch: Partial<TickInput> = {}, rt: (r: Runtime) => void = () => {}): TickInput {
  const runtime = newRuntime(3, DEADLINE);
  runtime.lastTick = new Date(at(now).getTime() - 5 * 60_000).toISOString();
  rt(runtime);
  return { runtime, schedule: schedule(), now: at(now), submitted: ['a'], active: ALL, mailOk: true, ...patch };
}

describe('planTick', () => {
  it('does nothing before the first reminder, and says when to wake', () => {
    const plan = planTick(input('2025-03-20T12:00:00Z'));
    expect(plan.actions).toEqual([]);
    expect(plan.nextEvent!.toISOString()).toBe('2025-03-21T18:00:00.000Z');
  });

  it('reminds the nations without orders when a reminder falls due', () => {
    const plan = planTick(input('2025-03-21T18:00:00Z'));
    expect(plan.actions).toEqual([{ kind: 'remind', turn: 3, label: '48h', nations: ['b', 'c', 'd'], skipped: [] }]);
  });

  it('does not repeat a reminder already done', () => {
    const plan = planTick(input('2025-03-21T18:05:00Z', {}, (r) => (r.reminders['3'] = ['48h'])));
    expect(plan.actions).toEqual([]);
    expect(plan.nextEvent!.toISOString()).toBe('2025-03-23T12:00:00.000Z');
  });

  it('after a silence sends only the latest reminder due and marks the earlier one skipped', () => {
    const plan = planTick(input('2025-03-23T13:00:00Z'));
    expect(plan.actions).toEqual([{ kind: 'remind', turn: 3, label: '6h', nations: ['b', 'c', 'd'], skipped: ['48h'] }]);
  });

  it('waits out the grace period, then resolves with the next deadline', () => {
    const inGrace = planTick(input('2025-03-23T18:10:00Z', { submitted: ALL }, (r) => (r.reminders['3'] = ['48h', '6h'])));
    expect(inGrace.actions).toEqual([]);
    expect(inGrace.nextEvent!.toISOString()).toBe('2025-03-23T18:15:00.000Z');
    const due = planTick(input('2025-03-23T18:15:00Z', { submitted: ALL }));
    expect(due.actions).toEqual([{ kind: 'resolve', turn: 3, nextDeadline: at('2025-03-30T17:00:00Z') }]);
  });

  it('holds the turn when more than the guard\'s share sent nothing', () => {
    const plan = planTick(input('2025-03-23T18:20:00Z', { submitted: ['a'] }));
    expect(plan.actions).toHaveLength(1);
    expect(plan.actions[0]).toMatchObject({ kind: 'hold', hold: 'nmr', turn: 3 });
    // Exactly half missing is not more than half.
    expect(planTick(input('2025-03-23T18:20:00Z', { submitted: ['a', 'b'] })).actions[0]!.kind).toBe('resolve');
    // Dropped and absent nations are not in `active`, so they do not count.
    expect(planTick(input('2025-03-23T18:20:00Z', { submitted: ['a'], active: ['a', 'b'] })).actions[0]!.kind).toBe('resolve');
  });

  it('resolves a held turn once the GM has confirmed the hold', () => {
    const plan = planTick(input('2025-03-23T18:20:00Z', { submitted: [] }, (r) => r.holds.push({ turn: 3, kind: 'nmr', since: '2025-03-23T18:15:00Z', detail: 'x', confirmed: '2025-03-23T18:18:00Z' })));
    expect(plan.actions[0]!.kind).toBe('resolve');
  });

  it('after a long gap across the deadline waits for the GM, even on later ticks', () => {
    const gap = input('2025-03-24T09:00:00Z', { submitted: ALL }, (r) => (r.lastTick = '2025-03-23T11:00:00Z'));
    expect(planTick(gap).actions).toEqual([expect.objectContaining({ kind: 'hold', hold: 'long-gap' })]);
    const later = input('2025-03-24T09:05:00Z', { submitted: ALL }, (r) => r.holds.push({ turn: 3, kind: 'long-gap', since: '2025-03-24T09:00:00Z', detail: 'gap' }));
    expect(planTick(later).actions).toEqual([{ kind: 'hold', turn: 3, hold: 'long-gap', detail: 'gap' }]);
    // A long gap that ended before the deadline is harmless.
    const early = input('2025-03-23T17:00:00Z', { submitted: ALL }, (r) => {
      r.lastTick = '2025-03-22T09:00:00Z';
      r.reminders['3'] = ['48h', '6h'];
    });
    expect(planTick(early).actions).toEqual([]);
  });

  it('does not resolve on a tick whose mail fetch failed', () => {
    const plan = planTick(input('2025-03-23T18:20:00Z', { submitted: ALL, mailOk: false }));
    expect(plan.actions).toEqual([expect.objectContaining({ kind: 'wait' })]);
  });

  it('does nothing while paused', () => {
    const plan = planTick(input('2025-03-23T18:20:00Z', { submitted: ALL }, (r) => (r.paused = { since: '2025-03-20T00:00:00Z' })));
    expect(plan.actions).toEqual([expect.objectContaining({ kind: 'wait' })]);
    expect(plan.nextEvent).toBeUndefined();
  });
});
