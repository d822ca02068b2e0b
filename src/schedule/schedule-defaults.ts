/** The schedule block's defaults (settings.ts validates the block; the idle tick reads them without zod). */
export const DEFAULT_SCHEDULE = {
  deadline: '0 18 * * 0',
  timeZone: 'Europe/London',
  reminders: ['48h', '6h'],
  grace: '15m',
  nmrGuardShare: 0.5,
  maxTickGap: '6h',
  minTurnLength: '0',
  early: false,
  nextDeadlineFrom: 'schedule',
} as const;
