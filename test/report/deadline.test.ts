import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reportRenderer } from '../../src/report/renderer.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { FIXTURE } from './support.js';

const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-deadline-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the deadline in reports', () => {
  it('prints the next deadline the schedule chose, in every nation’s report', async () => {
    const dir = join(scratch, 'c');
    cpSync(FIXTURE, dir, { recursive: true });
    await runTurn(dir, { renderers: [reportRenderer()], nextDeadline: 'Sun 7 Mar 2027, 18:00 GMT' });
    const text = readFileSync(join(dir, 'turns', '0001', 'reports', 'argenta.txt'), 'utf8');
    expect(text).toContain('deadline: Sun 7 Mar 2027, 18:00 GMT');
    expect(text).not.toContain('to be announced');
  });

  it('says the GM will announce it when there is no schedule', async () => {
    const dir = join(scratch, 'd');
    cpSync(FIXTURE, dir, { recursive: true });
    await runTurn(dir, { renderers: [reportRenderer()] });
    expect(readFileSync(join(dir, 'turns', '0001', 'reports', 'argenta.txt'), 'utf8')).toContain('to be announced by the GM');
  });
});
