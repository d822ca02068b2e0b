import { describe, expect, it } from 'vitest';
import { followingDeadline, localIso, localTime, nextCronTime, parseLocalTime, resolvesAt } from '../../src/schedule/deadline.js';
import { formatDuration, parseDuration, timeLeftText } from '../../src/schedule/duration.js';
import { parseSchedule, type Schedule } from '../../src/schedule/settings.js';

const schedule = (block: Record<string, unknown> = {}): Schedule => {
  const r = parseSchedule(block);
  if (!r.ok) throw new Error(r.problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
  return r.schedule;
};

describe('durations', () => {
  it('reads what people write and refuses the rest', () => {
    expect(parseDuration('48h')).toBe(48 * 3_600_000);
    expect(parseDuration('1d12h')).toBe(36 * 3_600_000);
    expect(parseDuration('1w')).toBe(7 * 86_400_000);
    expect(parseDuration('15m')).toBe(15 * 60_000);
    expect(parseDuration('0')).toBe(0);
    for (const bad of ['', '48', 'h', '1h2d', '1h1h', '-5m', '1.5h']) expect(parseDuration(bad)).toBeUndefined();
    expect(formatDuration(parseDuration('2d1h30m')!)).toBe('2d1h30m');
    expect(timeLeftText(2 * 86_400_000 + 4 * 3_600_000 + 13 * 60_000 + 999)).toBe('2d 4h 13m');
    expect(timeLeftText(30_000)).toBe('under a minute');
    expect(timeLeftText(-1)).toBe('passed');
  });
});

describe('the schedule block', () => {
  it('defaults to weekly, Sundays 18:00 London, reminders 48h and 6h', () => {
    const s = schedule();
    expect(s.deadline).toBe('0 18 * * 0');
    expect(s.timeZone).toBe('Europe/London');
    expect(s.reminders.map((r) => r.label)).toEqual(['48h', '6h']);
    expect(s.nmrGuardShare).toBe(0.5);
    expect(s.grace).toBe(15 * 60_000);
  });

  it('names each problem by its key and shows an example', () => {
    const r = parseSchedule({ deadline: '0 25 * * 0', timeZone: 'Mars/Olympus', reminders: ['soon'], grace: '10 minutes', nmrGuardShare: 2, extra: 1 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const paths = r.problems.map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['schedule.reminders[0]', 'schedule.grace', 'schedule.nmrGuardShare']));
    expect(r.problems.at(-1)!.message).toContain('deadline: "0 18 * * 0"');
    const r2 = parseSchedule({ deadline: '0 25 * * 0', timeZone: 'Mars/Olympus' });
    expect(r2.ok).toBe(false);
    if (r2.ok) return;
    expect(r2.problems.map((p) => p.path)).toEqual(['schedule.timeZone']);
    const r3 = parseSchedule({ deadline: '0 25 * * 0' });
    expect(!r3.ok && r3.problems[0]!.path).toBe('schedule.deadline');
    const r4 = parseSchedule({ deadline: '0 18 * *' });
    expect(!r4.ok && r4.problems[0]!.message).toContain('has 4 fields');
  });
});

describe('deadline arithmetic in the campaign\'s time zone', () => {
  const london = schedule();

  it('keeps 18:00 local across the spring change (GMT → BST on 30 March 2025)', () => {
    const a = nextCronTime(london.deadline, london.timeZone, new Date('2025-03-20T00:00:00Z'));
    expect(a.toISOString()).toBe('2025-03-23T18:00:00.000Z'); // 18:00 GMT
    const b = followingDeadline(london, a, new Date('2025-03-23T18:15:00Z'));
    expect(b.toISOString()).toBe('2025-03-30T17:00:00.000Z'); // 18:00 BST, the day the clocks go forward
    expect(localTime(b, 'Europe/London')).toBe('Sun 30 Mar 2025 18:00 BST');
    expect(localIso(b, 'Europe/London')).toBe('2025-03-30T18:00:00+01:00');
    // The week is an hour short in real time.
    expect(b.getTime() - a.getTime()).toBe(7 * 86_400_000 - 3_600_000);
  });

  it('and across the autumn change (BST → GMT on 26 October 2025)', () => {
    const a = nextCronTime(london.deadline, london.timeZone, new Date('2025-10-19T12:00:00Z'));
    expect(a.toISOString()).toBe('2025-10-19T17:00:00.000Z');
    const b = followingDeadline(london, a, a);
    expect(b.toISOString()).toBe('2025-10-26T18:00:00.000Z');
    expect(b.getTime() - a.getTime()).toBe(7 * 86_400_000 + 3_600_000);
  });

  it('moves a wall time that does not exist on the spring night on by the skipped hour, and fires once on the doubled autumn hour', () => {
    const s = schedule({ deadline: '30 1 * * *' });
    const spring = [new Date('2025-03-29T00:00:00Z')];
    for (let i = 0; i < 3; i++) spring.push(nextCronTime(s.deadline, s.timeZone, spring.at(-1)!));
    expect(spring.slice(1).map((d) => localIso(d, s.timeZone))).toEqual(['2025-03-29T01:30:00+00:00', '2025-03-30T02:30:00+01:00', '2025-03-31T01:30:00+01:00']);
    const autumn = [new Date('2025-10-25T12:00:00Z')];
    for (let i = 0; i < 2; i++) autumn.push(nextCronTime(s.deadline, s.timeZone, autumn.at(-1)!));
    expect(autumn.slice(1).map((d) => d.toISOString())).toEqual(['2025-10-26T00:30:00.000Z', '2025-10-27T01:30:00.000Z']);
  });

  it('works in any zone: New York changes on a different Sunday', () => {
    const ny = schedule({ deadline: '0 20 * * 0', timeZone: 'America/New_York' });
    const a = nextCronTime(ny.deadline, ny.timeZone, new Date('2025-03-02T12:00:00Z'));
    expect(a.toISOString()).toBe('2025-03-03T01:00:00.000Z'); // 20:00 EST
    const b = followingDeadline(ny, a, a);
    expect(b.toISOString()).toBe('2025-03-10T00:00:00.000Z'); // 20:00 EDT (changed on 9 March)
  });

  it('never gives a turn held past its next slot a deadline in the past', () => {
    const a = new Date('2025-03-23T18:00:00Z');
    // Held by a guard for ten days: the next deadline is the first Sunday after it resolves.
    const b = followingDeadline(london, a, new Date('2025-04-02T09:00:00Z'));
    expect(b.toISOString()).toBe('2025-04-06T17:00:00.000Z');
    const longer = schedule({ minTurnLength: '5d' });
    expect(followingDeadline(longer, a, new Date('2025-03-27T09:00:00Z')).toISOString()).toBe('2025-04-06T17:00:00.000Z');
    expect(resolvesAt(london, a).toISOString()).toBe('2025-03-23T18:15:00.000Z');
  });

  it('reads a GM\'s local time in the campaign\'s zone, or an ISO time with its offset', () => {
    expect(parseLocalTime('2025-03-30 18:00', 'Europe/London')!.toISOString()).toBe('2025-03-30T17:00:00.000Z');
    expect(parseLocalTime('2025-03-09 18:00', 'Europe/London')!.toISOString()).toBe('2025-03-09T18:00:00.000Z');
    expect(parseLocalTime('2025-03-09T18:00:00+02:00', 'Europe/London')!.toISOString()).toBe('2025-03-09T16:00:00.000Z');
    expect(parseLocalTime('next sunday', 'Europe/London')).toBeUndefined();
  });
});
