import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupScratch, DEFAULT_TEST_SCHEDULE, demoCopy, scratchDir, tree } from '../schedule/support.js';
import { runInProcess } from '../support/command-line.js';
import { setReportSettings } from '../support/campaign-file.js';

/**
 * Issue 34, item 6: a report rendered again with `fatecraft report --turn N`
 * said "deadline: to be announced by the GM" where the turn's first reports
 * had the date, and dropped the GM's log. Rendered again, a turn's reports
 * are its first ones, byte for byte. Through the built command line: a
 * scheduled demo with the GM's log on, a deadline extended with a reason,
 * the turn resolved by the tick, then rendered again — before and after
 * the next turn has moved the deadline and the log on.
 */
afterAll(cleanupScratch);

const secrets = join(scratchDir('secrets'), 'rerender.secrets.yaml');
// The commands run in this process (their wiring through the built CLI: test/cli/command-line.test.ts).
const run = (args: string[], now: string) => runInProcess(args, { env: { FATECRAFT_NOW: now, FATECRAFT_SECRETS: secrets } });
// Ticks days apart, as a GM who runs them by hand: the long-gap guard must not hold the turn.
const SCHEDULE = `${DEFAULT_TEST_SCHEDULE}  maxTickGap: 30d\n`;
const ok = (r: Awaited<ReturnType<typeof run>>) => expect(r.status, r.stdout + r.stderr).toBe(0);

describe('a turn rendered again', () => {
  it("gives the first reports byte for byte: the deadline they printed and the GM's log they carried", async () => {
    const dir = demoCopy('rerender', SCHEDULE);
    setReportSettings(dir, { gmLog: true, keepTurns: 'all' });
    ok(await run(['tick', dir], '2025-03-20T10:00:00Z'));
    ok(await run(['extend', dir, '--by', '24h', '--reason', 'the mail server was down'], '2025-03-21T10:00:00Z'));
    ok(await run(['tick', dir], '2025-03-24T18:20:00Z'));
    const reports = join(dir, 'turns', '0001', 'reports');
    const first = tree(reports);
    const argenta = first['argenta.txt']!;
    expect(argenta).not.toContain('to be announced by the GM');
    expect(argenta).toMatch(/deadline: \w{3} \d+ \w{3} 2025 18:00/);
    expect(argenta).toContain('the mail server was down');

    ok(await run(['report', dir, '--turn', '1'], '2025-03-25T09:00:00Z'));
    expect(tree(reports)).toEqual(first);

    // The next turn moves the deadline and the log on; turn 1 rendered again still reads as it did.
    ok(await run(['extend', dir, '--by', '48h', '--reason', 'a holiday'], '2025-03-26T09:00:00Z'));
    ok(await run(['report', dir, '--turn', '1', '--nation', 'argenta'], '2025-03-26T09:05:00Z'));
    expect(tree(reports)).toEqual(first);
    expect(readdirSync(reports).sort()).toEqual(Object.keys(first).sort());
  });

  it('prints a deadline given now in its place', async () => {
    const dir = demoCopy('rerender-deadline', SCHEDULE);
    ok(await run(['tick', dir], '2025-03-20T10:00:00Z'));
    ok(await run(['tick', dir], '2025-03-23T18:20:00Z'));
    ok(await run(['report', dir, '--turn', '1', '--deadline', 'Friday noon'], '2025-03-24T09:00:00Z'));
    expect(readFileSync(join(dir, 'turns', '0001', 'reports', 'argenta.txt'), 'utf8')).toContain('deadline: Friday noon');
  });
});
