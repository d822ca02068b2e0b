import { CronExpressionParser } from 'cron-parser';
import { parseIsoTime } from '../campaign/iso-time.js';
import type { Schedule } from './settings.js';

/**
 * Deadline arithmetic. A deadline is the next time the schedule's cron
 * expression fires in the campaign's time zone, so "0 18 * * 0" is 18:00
 * local on Sundays in winter and in summer alike. Across a DST change a wall
 * time that does not exist (01:30 on the spring-forward night) moves on by the
 * skipped hour; one that happens twice (the autumn night) fires once, at the
 * first of the two.
 */

/** A message when the expression cannot be used, undefined when it is fine. */
export function checkCron(expression: string, timeZone: string): string | undefined {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 && !expression.trim().startsWith('@')) return `"${expression}" has ${fields.length} fields; a deadline has 5 (minute hour day-of-month month day-of-week)`;
  try {
    CronExpressionParser.parse(expression, { tz: timeZone, currentDate: new Date(Date.UTC(2000, 0, 1)) }).next();
    return undefined;
  } catch (e) {
    return `"${expression}" is not a cron expression (${(e as Error).message})`;
  }
}

/** The first time strictly after `after` at which the deadline expression fires. */
export function nextCronTime(expression: string, timeZone: string, after: Date): Date {
  const it = CronExpressionParser.parse(expression, { tz: timeZone, currentDate: after });
  let next = it.next().toDate();
  // Guard against an implementation returning `after` itself.
  while (next.getTime() <= after.getTime()) next = it.next().toDate();
  return next;
}

/** The deadline of the first turn when the schedule gives none: the next cron time. */
export function firstDeadline(schedule: Schedule, now: Date): Date {
  return schedule.firstDeadline ?? nextCronTime(schedule.deadline, schedule.timeZone, now);
}

/**
 * The deadline of the turn opened when `resolvedAt` resolved the one due at
 * `previous`: the first cron time after both the old deadline and
 * `resolvedAt + minTurnLength`. A turn held back for days by a guard does not
 * get a deadline in the past.
 */
export function followingDeadline(schedule: Schedule, previous: Date, resolvedAt: Date): Date {
  const floor = Math.max(previous.getTime(), resolvedAt.getTime() + schedule.minTurnLength);
  return nextCronTime(schedule.deadline, schedule.timeZone, new Date(floor));
}

/**
 * The deadline of the turn opened when a turn due at `previous` resolved early, at `resolvedAt` (every
 * expected nation had sent orders): as after any resolution, unless the campaign counts the next turn from
 * the resolution (`nextDeadlineFrom: resolution`): the first cron time after `resolvedAt + minTurnLength`.
 */
export function deadlineAfterEarly(schedule: Schedule, previous: Date, resolvedAt: Date): Date {
  if (schedule.nextDeadlineFrom === 'schedule') return followingDeadline(schedule, previous, resolvedAt);
  return nextCronTime(schedule.deadline, schedule.timeZone, new Date(resolvedAt.getTime() + schedule.minTurnLength));
}

/** When a turn due at `deadline` may resolve: after the grace period. */
export function resolvesAt(schedule: Schedule, deadline: Date): Date {
  return new Date(deadline.getTime() + schedule.grace);
}

/** The parts of `at` on a wall clock (24-hour, en-GB), by type; `missing` for a part the format lacks. */
function wallClock(at: Date, options: Intl.DateTimeFormatOptions, missing: string): (type: Intl.DateTimeFormatPartTypes) => string {
  const parts = new Intl.DateTimeFormat('en-GB', { ...options, hourCycle: 'h23' }).formatToParts(at);
  return (type) => parts.find((p) => p.type === type)?.value ?? missing;
}

/** A time as the campaign's players read it: "Sun 9 Mar 2025 18:00 GMT". */
export function localTime(at: Date, timeZone: string): string {
  const get = wallClock(at, { timeZone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }, '');
  return `${get('weekday')} ${get('day')} ${get('month')} ${get('year')} ${get('hour')}:${get('minute')} ${get('timeZoneName')}`;
}

/** Local wall time as ISO-like text with its offset, for machine output: "2025-03-09T18:00:00+00:00". */
export function localIso(at: Date, timeZone: string): string {
  const get = wallClock(at, { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }, '00');
  const wall = Date.UTC(Number(get('year')), Number(get('month')) - 1, Number(get('day')), Number(get('hour')), Number(get('minute')), Number(get('second')));
  const offsetMin = Math.round((wall - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}:${get('second')}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * Reads a time a GM types: ISO with an offset ("2025-03-09T18:00:00Z"), or a
 * local wall time in the campaign's zone ("2025-03-09 18:00", "2025-03-09T18:00").
 */
export function parseLocalTime(text: string, timeZone: string): Date | undefined {
  const s = text.trim();
  if (/(Z|[+-]\d\d:?\d\d)$/i.test(s)) return parseIsoTime(s.replace(' ', 'T'));
  const m = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d)(?::(\d\d))?$/.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, se] = m.slice(1).map((x) => Number(x ?? 0)) as [number, number, number, number, number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi, se);
  // The offset at the wall time, found by two passes (exact except inside a DST gap).
  let guess = wall;
  for (let i = 0; i < 2; i++) guess = wall - offsetAt(new Date(guess), timeZone);
  return new Date(guess);
}

function offsetAt(at: Date, timeZone: string): number {
  const iso = localIso(at, timeZone);
  const m = /([+-])(\d\d):(\d\d)$/.exec(iso)!;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000;
}
