import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupScratch, demoCopy, ROOT, scratchDir } from './support.js';
import { runInProcess } from '../support/command-line.js';

/**
 * Issue 34, item 7: the long-gap guard held every turn of a GM who ticks by
 * hand (maxTickGap, 6h by default, was not in the template), and the alert
 * and `status` printed raw ISO times. The template now has the setting beside
 * `grace`, with what it is for; the hold's alert says how to run by hand; and
 * times are printed as the rest of the program prints them, on the campaign's
 * clock.
 */
afterAll(cleanupScratch);

const secrets = join(scratchDir('secrets'), 'gap.secrets.yaml');
// The commands run in this process (their wiring through the built CLI: test/cli/command-line.test.ts).
const run = (args: string[], now: string) => runInProcess(args, { env: { FATECRAFT_NOW: now, FATECRAFT_SECRETS: secrets } });
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

describe('the long-gap guard', () => {
  it("is in the new campaign's template, beside grace, saying what it is for and what a GM who ticks by hand sets", async () => {
    const template = readFileSync(join(ROOT, 'templates', 'new-campaign', 'campaign.yaml'), 'utf8');
    const schedule = template.slice(template.indexOf('schedule:'), template.indexOf('\n\n', template.indexOf('schedule:')));
    expect(schedule).toMatch(/grace: 15m\n(?: {2}#.*\n)+ {2}maxTickGap: 6h\n/);
    expect(schedule).toContain('by hand');
  });

  it('holds a turn after a silence across its deadline with an alert that says how to run by hand, and status prints no raw time', async () => {
    const dir = demoCopy('gap-words');
    expect((await run(['tick', dir], '2025-03-22T10:00:00Z')).status).toBe(0);
    const held = await run(['tick', dir], '2025-03-24T09:00:00Z');
    expect(held.status).toBe(0);
    expect(held.stdout).toContain('no tick ran between Sat 22 Mar 2025 10:00 GMT and Mon 24 Mar 2025 09:00 GMT (1d 23h, longer than schedule.maxTickGap, 6h)');
    const status = (await run(['status', dir], '2025-03-24T09:05:00Z')).stdout;
    expect(status).toContain('A GM who ticks by hand rather than from cron: set schedule.maxTickGap in campaign.yaml longer than the time between your ticks');
    expect(status).toContain('(Mon 24 Mar 2025 09:00 GMT, ');
    expect(status.split('\n').filter((l) => ISO.test(l))).toEqual([]);
  });
});
