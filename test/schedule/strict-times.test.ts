import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseIsoTime } from '../../src/campaign/iso-time.js';
import { parseLocalTime } from '../../src/schedule/deadline.js';
import { parseSchedule } from '../../src/schedule/settings.js';
import { runInProcess } from '../support/command-line.js';
import { cleanupScratch, demoCopy, scratchDir } from './support.js';

/** Times in files are ISO 8601 with a zone, or refused: never guessed (defect 6 of issue 26). */
afterAll(cleanupScratch);

describe('parseIsoTime', () => {
  it.each([
    ['2025-03-09T18:00:00Z', '2025-03-09T18:00:00.000Z'],
    ['2025-03-09T18:00Z', '2025-03-09T18:00:00.000Z'],
    ['2025-03-09T18:00:00.123Z', '2025-03-09T18:00:00.123Z'],
    ['2025-03-09T18:00:00.57Z', '2025-03-09T18:00:00.570Z'],
    ['2025-03-09T18:00:00.0099999Z', '2025-03-09T18:00:00.009Z'],
    ['2025-03-09T19:00:00+01:00', '2025-03-09T18:00:00.000Z'],
    ['2025-03-09T13:30:00-0430', '2025-03-09T18:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
  ])('reads %s', (text, iso) => {
    expect(parseIsoTime(text)?.toISOString()).toBe(iso);
  });

  it.each(['2026-03-', '2026-03', '2026-03-01', '2026-03-01T18:00', '2026-03-01 18:00:00Z', '2025-02-29T00:00:00Z', '2025-02-30T12:00:00Z', '2025-13-01T00:00:00Z', '2025-03-09T24:00:00Z', '2025-03-09T18:60:00Z', '2025-03-09T18:00:00+25:00', 'Sun, 9 Mar 2025 18:00:00 GMT', 'next week', ' 2025-03-09T18:00:00Z', ''])(
    'refuses %j',
    (text) => {
      expect(parseIsoTime(text)).toBeUndefined();
    },
  );

  it('is what the GM commands use for a time with an offset', () => {
    expect(parseLocalTime('2025-02-30T18:00Z', 'Europe/London')).toBeUndefined();
    expect(parseLocalTime('2025-03-09 18:00Z', 'Europe/London')?.toISOString()).toBe('2025-03-09T18:00:00.000Z');
  });

  it("refuses a schedule's firstDeadline that Date.parse would guess", () => {
    const result = parseSchedule({ firstDeadline: '2026-03-' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]?.path).toBe('schedule.firstDeadline');
    expect(result.problems[0]?.message).toContain('e.g. 2025-03-09T18:00:00Z');
  });
});

describe('a damaged time in runtime.yaml stops the tick', () => {
  const env = (now: string) => ({ FATECRAFT_NOW: now, FATECRAFT_SECRETS: join(scratchDir('secrets'), 'x.yaml') });
  const tick = (dir: string, now: string) => runInProcess(['tick', dir], { env: env(now) });

  it.each(['2025-03-', '2025-03-01', '2025-02-30T18:00:00Z'])('deadline: %s is refused with the file, line, key and an example; no turn is resolved', async (bad) => {
    const dir = demoCopy('bad-deadline');
    expect((await tick(dir, '2025-03-10T12:00:00Z')).status).toBe(0);
    const path = join(dir, 'runtime.yaml');
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/^deadline: /m);
    const line = text.split('\n').findIndex((l) => l.startsWith('deadline:')) + 1;
    writeFileSync(path, text.replace(/^deadline: .*$/m, `deadline: ${bad}`));

    const r = await tick(dir, '2025-03-10T12:10:00Z');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`${path}: line ${line}: deadline: not a time with its time zone; write ISO 8601, e.g. 2025-03-09T18:00:00Z`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, 'turns', '0001'))).toBe(false);
    // The damaged file is left as it was, for the GM to mend.
    expect(readFileSync(path, 'utf8')).toContain(`deadline: ${bad}`);
    // The GM is alerted, once for the same problem however many ticks meet it.
    const alerts = () => readdirSync(join(dir, 'tick-outbox')).filter((n) => n.startsWith('alert-'));
    expect(alerts()).toHaveLength(1);
    const alert = readFileSync(join(dir, 'tick-outbox', alerts()[0]!), 'utf8');
    expect(alert).toContain('kind: gm-alert');
    expect(alert).toContain('tick stopped: runtime.yaml cannot be read');
    expect(alert).toContain(`line ${line}: deadline: not a time with its time zone`);
    expect((await tick(dir, '2025-03-10T12:20:00Z')).status).not.toBe(0);
    expect(alerts()).toHaveLength(1);
  });
});
