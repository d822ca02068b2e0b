import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO, ROOT, type Played, playBeforeAll } from './support.js';

/**
 * Golden files for the bundled demo: turn 1 of the Silversheen Sea as every
 * nation and the GM read it. Editing the demo campaign or a template shows up
 * here as a diff to review; regenerate with
 *   UPDATE_GOLDEN=1 npx vitest run test/report/demo-golden.test.ts
 */
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const GOLDEN = join(ROOT, 'test', 'fixtures', 'demo-golden', 'turn-1');
const GOLDEN_FILE = /\.(txt|html|yaml)$/;

let played: Played;
playBeforeAll(DEMO, 1, 'demo-golden', (p) => (played = p));

describe('golden reports of the demo campaign', () => {
  it('turn 1 matches test/fixtures/demo-golden/turn-1', () => {
    const reports = played.turns[0]?.reports ?? {};
    const names = Object.keys(reports).filter((n) => GOLDEN_FILE.test(n)).sort();
    for (const nation of ['argenta', 'gondarahl', 'grarkul', 'vulcanstille', 'westvalia']) {
      expect(names).toEqual(expect.arrayContaining([`${nation}.txt`, `${nation}.html`, `${nation}.yaml`, `${nation}-orders.yaml`]));
    }
    if (UPDATE) {
      rmSync(GOLDEN, { recursive: true, force: true });
      mkdirSync(GOLDEN, { recursive: true });
      for (const name of names) writeFileSync(join(GOLDEN, name), reports[name] ?? '');
    }
    expect(existsSync(GOLDEN), `no golden files at ${GOLDEN}: run with UPDATE_GOLDEN=1`).toBe(true);
    expect(names).toEqual(readdirSync(GOLDEN).sort());
    for (const name of names) expect(reports[name], `${name} differs from its golden file`).toBe(readFileSync(join(GOLDEN, name), 'utf8'));
  });

  it('leaves no template holes in any report', () => {
    for (const [name, text] of Object.entries(played.turns[0]?.reports ?? {})) {
      expect(text, name).not.toMatch(/\[object Object\]|\{\{|\}\}|\bundefined\b|\bNaN\b/);
    }
  });
});
