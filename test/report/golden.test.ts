import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeReports } from '../../src/report/write.js';
import { FIXTURE, FIXTURE_TURNS, GOLDEN, play, readReports, type Played, playBeforeAll } from './support.js';

/**
 * Golden files: the fixture campaign's reports after each turn, byte for
 * byte. A change to a template or a view shows up here as a diff to review.
 * Regenerate with UPDATE_GOLDEN=1 npx vitest run test/report/golden.test.ts
 */
const UPDATE = process.env.UPDATE_GOLDEN === '1';
/** Everything but the SVGs, which are embedded in the HTML reports already. */
const GOLDEN_FILE = /\.(txt|html|yaml)$/;

let played: Played;
playBeforeAll(FIXTURE, FIXTURE_TURNS, 'golden', (p) => (played = p));

describe('golden reports of the fixture campaign', () => {
  for (let turn = 1; turn <= FIXTURE_TURNS; turn++) {
    it(`turn ${turn} matches test/fixtures/report/golden/turn-${turn}`, () => {
      const reports = played.turns.find((t) => t.turn === turn)?.reports ?? {};
      const dir = join(GOLDEN, `turn-${turn}`);
      const names = Object.keys(reports).filter((n) => GOLDEN_FILE.test(n)).sort();
      expect(names).toContain('gm.html');
      expect(names).toContain('argenta.txt');
      if (UPDATE) {
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
        for (const name of names) writeFileSync(join(dir, name), reports[name] ?? '');
      }
      expect(existsSync(dir), `no golden files at ${dir}: run with UPDATE_GOLDEN=1`).toBe(true);
      expect(names).toEqual(readdirSync(dir).sort());
      for (const name of names) expect(reports[name], `${name} differs from its golden file`).toBe(readFileSync(join(dir, name), 'utf8'));
    });
  }

  it('`fatecraft report` re-renders the same bytes into the turn folder', async () => {
    const before = readReports(played.dir, FIXTURE_TURNS);
    const result = await writeReports(played.dir, { turn: FIXTURE_TURNS });
    expect(result.files.length).toBe(Object.keys(before).length);
    expect(readReports(played.dir, FIXTURE_TURNS)).toEqual(before);
  });

  it('a second play of the campaign gives byte-identical reports', async () => {
    const again = await play(FIXTURE, FIXTURE_TURNS, 'golden-again', { fresh: true });
    try {
      for (const t of played.turns) expect(again.turns.find((x) => x.turn === t.turn)?.reports).toEqual(t.reports);
    } finally {
      again.cleanup();
    }
  });
});
