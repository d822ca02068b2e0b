import { z } from 'zod';
import { ISO_TIME_PROBLEM, parseIsoTime } from '../campaign/iso-time.js';
import { CampaignError, pathText, type FileProblem } from '../campaign/problems.js';
import type { CampaignFile } from '../campaign/schema.js';
import { validTimeZone } from '../campaign/time-zone.js';
import { checkCron } from './deadline.js';
import { DURATION_EXAMPLE, parseDuration } from './duration.js';
import { DEFAULT_SCHEDULE } from './schedule-defaults.js';

/**
 * The `schedule:` block of campaign.yaml. Every key is optional:
 *
 *   schedule:
 *     deadline: "0 18 * * 0"          # cron: minute hour day-of-month month day-of-week
 *     timeZone: Europe/London         # the deadline's clock, and how times are shown
 *     reminders: [48h, 6h]            # before the deadline, to nations without orders
 *     grace: 15m                      # orders still count this long after the deadline
 *     nmrGuardShare: 0.5              # hold the turn when more than this share sent nothing
 *     maxTickGap: 6h                  # after a longer silence, wait for the GM to confirm
 *     minTurnLength: 0                # the next deadline is at least this far after resolving
 *     firstDeadline: 2025-03-09T18:00:00Z   # the first turn's deadline (default: next cron time)
 *     early: false                    # resolve at the next tick once every expected nation has orders on file
 *     nextDeadlineFrom: schedule      # after an early resolution: the next cron time after the old deadline
 *                                     #   (schedule) or after the resolution (resolution)
 *     rollCall: 48h                   # before turn 1's deadline: the GM hears which seats are silent (off by default)
 */
export interface Schedule {
  deadline: string;
  timeZone: string;
  /** Before the deadline, largest first, as written (labels) and in ms. */
  reminders: { label: string; before: number }[];
  grace: number;
  nmrGuardShare: number;
  maxTickGap: number;
  minTurnLength: number;
  firstDeadline?: Date;
  /** Opt-in: the turn resolves at the first tick at which every nation expected to send orders has some on file. */
  early: boolean;
  /** After an early resolution, the next deadline is the first cron time after the old deadline, or after the resolution. */
  nextDeadlineFrom: 'schedule' | 'resolution';
  /** Roll-call (off by default): this long before turn 1's deadline the GM is told which players have not confirmed. */
  rollCall?: number;
}

export { DEFAULT_SCHEDULE };

const EXAMPLE = `for example:
  schedule:
    deadline: "0 18 * * 0"     # Sundays at 18:00
    timeZone: Europe/London
    reminders: [48h, 6h]
    grace: 15m`;

const duration = z.string().refine((s) => parseDuration(s) !== undefined, { message: `not a duration; ${DURATION_EXAMPLE}` });
const durationLike = z.union([duration, z.literal(0).transform(() => '0')]);

export const scheduleSchema = z.strictObject({
  deadline: z.string().default(DEFAULT_SCHEDULE.deadline),
  timeZone: z.string().default(DEFAULT_SCHEDULE.timeZone),
  reminders: z.array(duration).default([...DEFAULT_SCHEDULE.reminders]),
  grace: durationLike.default(DEFAULT_SCHEDULE.grace),
  nmrGuardShare: z.number().min(0).max(1).default(DEFAULT_SCHEDULE.nmrGuardShare),
  maxTickGap: duration.default(DEFAULT_SCHEDULE.maxTickGap),
  minTurnLength: durationLike.default(DEFAULT_SCHEDULE.minTurnLength),
  firstDeadline: z.union([z.string(), z.date()]).optional(),
  early: z.boolean().default(DEFAULT_SCHEDULE.early),
  nextDeadlineFrom: z.enum(['schedule', 'resolution']).default(DEFAULT_SCHEDULE.nextDeadlineFrom),
  rollCall: duration.optional(),
});

export type ScheduleResult = { ok: true; schedule: Schedule } | { ok: false; problems: FileProblem[] };

/** Validates a raw `schedule:` value; problems read `schedule.field: message` and show an example. */
export function parseSchedule(raw: unknown, file = 'campaign.yaml'): ScheduleResult {
  const problems: FileProblem[] = [];
  const problem = (path: string, message: string) => problems.push({ file, path: `schedule${path ? `.${path}` : ''}`, message });
  const parsed = scheduleSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problem(pathText(issue.path), issue.message);
    problems[problems.length - 1]!.message += `\n${EXAMPLE}`;
    return { ok: false, problems };
  }
  const s = parsed.data;
  if (!validTimeZone(s.timeZone)) problem('timeZone', `unknown time zone "${s.timeZone}"; use an IANA name such as Europe/London or America/New_York`);
  const cronProblem = validTimeZone(s.timeZone) ? checkCron(s.deadline, s.timeZone) : undefined;
  if (cronProblem) problem('deadline', `${cronProblem}; a deadline is a cron expression such as "0 18 * * 0" (Sundays at 18:00)`);
  let firstDeadline: Date | undefined;
  if (s.firstDeadline !== undefined) {
    firstDeadline = s.firstDeadline instanceof Date ? s.firstDeadline : parseIsoTime(s.firstDeadline);
    if (firstDeadline === undefined || Number.isNaN(firstDeadline.getTime())) problem('firstDeadline', ISO_TIME_PROBLEM);
  }
  const reminders = [...new Set(s.reminders)].map((label) => ({ label, before: parseDuration(label)! })).sort((a, b) => b.before - a.before);
  if (reminders.some((r) => r.before === 0)) problem('reminders', 'a reminder 0 before the deadline comes too late to help');
  if (problems.length) {
    problems[problems.length - 1]!.message += `\n${EXAMPLE}`;
    return { ok: false, problems };
  }
  return {
    ok: true,
    schedule: {
      deadline: s.deadline,
      timeZone: s.timeZone,
      reminders,
      grace: parseDuration(s.grace)!,
      nmrGuardShare: s.nmrGuardShare,
      maxTickGap: parseDuration(s.maxTickGap)!,
      minTurnLength: parseDuration(s.minTurnLength)!,
      ...(firstDeadline ? { firstDeadline } : {}),
      early: s.early,
      nextDeadlineFrom: s.nextDeadlineFrom,
      ...(s.rollCall !== undefined ? { rollCall: parseDuration(s.rollCall)! } : {}),
    },
  };
}

/** The campaign's schedule, or a CampaignError naming every problem in its block. */
export function scheduleOf(file: CampaignFile, label = 'campaign.yaml'): Schedule {
  const result = parseSchedule(file.schedule, label);
  if (!result.ok) throw new CampaignError(result.problems);
  return result.schedule;
}

export { validTimeZone };
