/**
 * The one reader of times written in files (runtime.yaml, campaign.yaml's
 * schedule, the mail queue and ledger). Date.parse is lenient in ways that
 * cost turns: "2026-03-" reads as 1 March, "2026-02-30" as 2 March, a time
 * without a zone as the machine's local time. Here a time is ISO 8601 with a
 * date, hours and minutes, optional seconds and fraction, and a zone: Z or
 * an offset (+01:00). Anything else is refused.
 */
export const ISO_TIME_EXAMPLE = '2025-03-09T18:00:00Z (or with an offset: 2025-03-09T19:00:00+01:00)';

const ISO_TIME = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(\.\d{1,9})?)?(?:Z|([+-])(\d\d):?(\d\d))$/;

const daysIn = (year: number, month: number) => (month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);

/** The instant a strict ISO 8601 time names, or undefined when the text is not one. */
export function parseIsoTime(text: string): Date | undefined {
  const m = ISO_TIME.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return undefined;
  const offsetHours = Number(m[9] ?? 0);
  const offsetMinutes = Number(m[10] ?? 0);
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const offset = (m[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  // The fraction's first three digits, as written: no floating-point rounding.
  const ms = m[7] ? Number(`${m[7].slice(1)}00`.slice(0, 3)) : 0;
  // setUTCFullYear, not Date.UTC, which reads the years 0-99 as 1900-1999.
  const wall = new Date(0);
  wall.setUTCFullYear(year, month - 1, day);
  wall.setUTCHours(hour, minute, second, ms);
  const date = new Date(wall.getTime() - offset);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export const isIsoTime = (text: string) => parseIsoTime(text) !== undefined;

export const ISO_TIME_PROBLEM = `not a time with its time zone; write ISO 8601, e.g. ${ISO_TIME_EXAMPLE}`;
