import { join } from 'node:path';
import { cruise as depcruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, it } from 'vitest';

/**
 * The layers of src/ (.dependency-cruiser.cjs, drawn in docs/architecture.md) hold by a check, not by habit:
 * dependency-cruiser reads every import of src/ and bench/ and names the rule a wrong-way import breaks.
 * It runs in this process, as `depcruise <paths> --config .dependency-cruiser.cjs --output-type err`
 * (`npm run check:layers`) runs it: the same options, the same tsconfig, the same report and exit code,
 * without a process of its own and its loading for each check.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

/** The paths are relative to `cwd`, as the command line's are. */
async function cruise(cwd: string, ...paths: string[]): Promise<{ status: number; out: string }> {
  const here = process.cwd();
  process.chdir(cwd);
  try {
    const options = await extractDepcruiseOptions(CONFIG);
    const tsConfig = extractTSConfig(join(ROOT, 'tsconfig.json'));
    const result = await depcruise(paths, { ...options, outputType: 'err' }, {}, { tsConfig });
    // With outputType 'err' the output is the report's text.
    return { status: result.exitCode, out: typeof result.output === 'string' ? result.output : JSON.stringify(result.output) };
  } finally {
    process.chdir(here);
  }
}

describe('the layers of src/', () => {
  it('no import runs against them', async () => {
    const { status, out } = await cruise(ROOT, 'src', 'bench');
    expect(out).toContain('no dependency violations found');
    expect(status).toBe(0);
  });

  it('a wrong-way import fails, naming the rule it breaks', async () => {
    // test/fixtures/layers-wrong-way: the core importing a report helper and node:fs, the schedule the mailroom.
    const { status, out } = await cruise(join(ROOT, 'test', 'fixtures', 'layers-wrong-way'), 'src');
    expect(status).not.toBe(0);
    expect(out).toContain('error layer-core: src/core/rule.ts → src/report/escape-like.ts');
    expect(out).toContain('error core-no-io: src/core/rule.ts → fs');
    expect(out).toContain('error layer-schedule: src/schedule/tick.ts → src/mailroom/hooks.ts');
    expect(out).toMatch(/3 dependency violations/);
  });
});
