import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { openCampaign, turnDirName } from '../../src/campaign/store.js';
import { writeReports } from '../../src/report/write.js';
import { localTime } from '../../src/schedule/deadline.js';
import { deadlineClock, deadlinesByNation } from '../../src/schedule/player-time.js';
import { readRuntime } from '../../src/schedule/runtime.js';
import { demoCopy } from '../mailroom/support.js';
import { folderPost, schedule, ticker } from '../seats/support.js';

/**
 * What the tests of a new nation's welcome share (a split nation's, a civil war's): the demo on the seats'
 * schedule, each turn's reports as written, the welcome mail's shape, and earlier turns rendered again.
 */
export const OSKA = 'oska@ash.test';

/** Each turn's deadline (the schedule of ../seats/support.ts): what the reports of the turn before print. */
const DEADLINES = ['', '2025-03-23T18:00:00Z', '2025-03-30T17:00:00Z', '2025-04-06T17:00:00Z', '2025-04-13T17:00:00Z'];

/** The demo on the seats' schedule (policy: hold), its secrets file, its mail and its ticking clock, ticked once. */
export async function welcomeCampaign(label: string, setSecrets: (label: string) => void) {
  const { dir } = demoCopy(label);
  writeFileSync(join(dir, 'campaign.yaml'), readFileSync(join(dir, 'campaign.yaml'), 'utf8') + schedule('  policy: hold\n'));
  setSecrets(label);
  const post = folderPost(dir);
  const { clock, at } = ticker(dir, '2025-03-20T12:00:00Z');
  await at('2025-03-20T12:00:00Z');
  return { dir, post, clock, at };
}

/** A turn's nations' reports and gazette, by file name (the GM's report carries the schedule's own lines). */
export function reportsOf(dir: string, turn: number): Record<string, string> {
  const folder = join(dir, 'turns', turnDirName(turn), 'reports');
  return Object.fromEntries(readdirSync(folder).filter((f) => !f.startsWith('gm.') && !f.startsWith('.')).sort().map((f) => [f, readFileSync(join(folder, f), 'utf8')]));
}

/** The Free Cities of Ash's welcome: report naming its town, order sheet with a token, the map in the HTML. */
export function expectAshWelcome(welcome: ParsedMail, town: string): void {
  expect(welcome.text).toContain('You now lead The Free Cities of Ash');
  expect(welcome.text).toContain(town);
  expect(welcome.attachments.map((a) => a.filename)).toEqual(expect.arrayContaining(['ashfree-orders.yaml', 'ashfree-report.yaml']));
  // The demo's reports carry their map inside the HTML (reports.formats has no svg).
  expect(String(welcome.html)).toContain('<svg');
  const sheet = welcome.attachments.find((a) => a.filename === 'ashfree-orders.yaml')!.content.toString('utf8');
  const token = /^token:\s*"?([^"\s]+)/m.exec(sheet)?.[1];
  expect(token).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5}$/);
}

/** Turns 0–2 written again with the deadlines they first printed: each the same bytes as `first`. */
export async function expectEarlierTurnsRenderAgain(dir: string, first: readonly Record<string, string>[]): Promise<void> {
  const runtime = await readRuntime(dir);
  const file = (await openCampaign(dir)).file;
  for (const turn of [0, 1, 2]) {
    const next = new Date(DEADLINES[turn + 1]!);
    await writeReports(dir, { turn, deadline: localTime(next, 'Europe/London'), deadlineByNation: deadlinesByNation(deadlineClock(next, 'Europe/London', file, runtime)) });
    expect(reportsOf(dir, turn), `turn ${turn}`).toEqual(first[turn]);
  }
}
