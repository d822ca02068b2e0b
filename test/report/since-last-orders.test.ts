import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTurnEvents } from '../../src/campaign/store.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { reportRenderer } from '../../src/report/renderer.js';
import { writeReports } from '../../src/report/write.js';
import { DEMO, scratchCopy } from './support.js';

/**
 * Issue 34: a player back after missed turns reads, at the top of the report
 * of the turn they are back, what befell the nation since they last sent
 * orders — the battles, what was lost and taken, what was built, sieges laid
 * to it, and its events — made from the missed turns' own logs. The demo is
 * played four turns: turn 1 with the demo's orders, turns 2 and 3 with none
 * from anyone, turn 4 with Argenta's (empty) sheet alone.
 */
let dir: string;
let cleanup: () => void;
const report = (turn: string, nation: string) => readFileSync(join(dir, 'turns', turn, 'reports', `${nation}.txt`), 'utf8');

beforeAll(async () => {
  ({ dir, cleanup } = scratchCopy(DEMO, 'since'));
  for (let turn = 1; turn <= 3; turn++) await runTurn(dir, { renderers: [reportRenderer()] });
  mkdirSync(join(dir, 'orders', '0004'), { recursive: true });
  writeFileSync(join(dir, 'orders', '0004', 'argenta.yaml'), 'nation: argenta\nturn: 4\norders: []\n');
  await runTurn(dir, { renderers: [reportRenderer()] });
}, 240_000);
afterAll(() => cleanup?.());

describe('a player back after missed turns', () => {
  it('reads what befell the nation since it last sent orders, at the top of the report', async () => {
    const text = report('0004', 'argenta');
    const start = text.indexOf('Since you last sent orders (turns 2 and 3):');
    expect(start).toBeGreaterThan(0);
    expect(start).toBeLessThan(text.indexOf('== WHAT HAPPENED =='));
    const since = text.slice(start, text.indexOf('\n\n', start));
    // Every event that befell Argenta in turns 2 and 3 is named, with its turn.
    for (const turn of [2, 3]) {
      for (const e of await readTurnEvents(dir, turn)) {
        if (e.type === 'event_fired' && e.nation === 'argenta') expect(since).toContain(`${e.title} (turn ${turn})`);
      }
    }
    expect(since.split('\n').length).toBeGreaterThan(1);
    expect(readFileSync(join(dir, 'turns', '0004', 'reports', 'argenta.html'), 'utf8')).toContain('Since you last sent orders (turns 2 and 3)');
  });

  it('is not told to a nation that sent orders every turn, nor to one still silent', () => {
    expect(report('0002', 'argenta')).not.toContain('Since you last sent orders');
    expect(report('0004', 'gondarahl')).not.toContain('Since you last sent orders');
  });

  it('is the same when the turn is rendered again', async () => {
    const first = report('0004', 'argenta');
    await writeReports(dir, { turn: 4, nations: ['argenta'], gm: false });
    expect(report('0004', 'argenta')).toBe(first);
  });
});
