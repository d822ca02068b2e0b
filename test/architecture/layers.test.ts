import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers of src/ (.dependency-cruiser.cjs, drawn in docs/architecture.md) hold by a check, not by habit:
 * dependency-cruiser reads every import of src/ and bench/ and names the rule a wrong-way import breaks.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');
// A hang, not slowness: dependency-cruiser takes a few seconds of CPU; on a loaded machine it may take many more.
const HANG = 300_000;

function cruise(cwd: string, ...paths: string[]) {
  const run = spawnSync(DEPCRUISE, [...paths, '--config', CONFIG, '--output-type', 'err'], { cwd, encoding: 'utf8', timeout: HANG });
  if (run.error) throw new Error(`dependency-cruiser did not finish within ${HANG / 1000} s (a loaded machine can be that slow; a hang is not): ${run.error.message}`);
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

describe('the layers of src/', () => {
  it('no import runs against them', () => {
    const { status, out } = cruise(ROOT, 'src', 'bench');
    expect(out).toContain('no dependency violations found');
    expect(status).toBe(0);
  }, HANG + 10_000);

  it('a wrong-way import fails, naming the rule it breaks', () => {
    // test/fixtures/layers-wrong-way: the core importing a report helper and node:fs, the schedule the mailroom.
    const { status, out } = cruise(join(ROOT, 'test', 'fixtures', 'layers-wrong-way'), 'src');
    expect(status).not.toBe(0);
    expect(out).toContain('error layer-core: src/core/rule.ts → src/report/escape-like.ts');
    expect(out).toContain('error core-no-io: src/core/rule.ts → fs');
    expect(out).toContain('error layer-schedule: src/schedule/tick.ts → src/mailroom/hooks.ts');
    expect(out).toMatch(/3 dependency violations/);
  }, HANG + 10_000);
});
