import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { failpoint } from '../../src/host/failpoints.js';
import { hangLimit } from '../support/limits.js';
import { ROOT } from '../support/built-cli.js';

/**
 * FATECRAFT_FAILPOINT naming several points (`a,b,c`): the action happens at whichever of them comes first,
 * so one process shows that none of them is on a command's way (test/schedule/cli.test.ts), where a process
 * per point cost a second of CPU each.
 */
const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-failpoints-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => void delete process.env.FATECRAFT_FAILPOINT);

/** Whether `p` is still pending once everything already due in this process has run. */
const pending = (p: Promise<unknown>) => Promise.race([p.then(() => false), new Promise<boolean>((resolve) => setImmediate(() => resolve(true)))]);

describe('FATECRAFT_FAILPOINT', () => {
  it('holds at any point of a list, and at no other (in this process, with until=)', async () => {
    const release = join(scratch, 'go');
    process.env.FATECRAFT_FAILPOINT = `gm-op-recorded,locked:until=${release}`;
    const held = failpoint('locked');
    expect(await pending(held)).toBe(true);
    expect(await pending(failpoint('gm-op-recorded').then(() => 'first of the list held too'))).toBe(true);
    await expect(failpoint('lock-owner-written')).resolves.toBeUndefined();
    await expect(failpoint('after-fetch')).resolves.toBeUndefined();
    writeFileSync(release, '');
    await expect(held).resolves.toBeUndefined();
  });

  it('one name still names one point, not a point whose name it begins', async () => {
    process.env.FATECRAFT_FAILPOINT = `gm-op:until=${join(scratch, 'never')}`;
    await expect(failpoint('gm-op-recorded')).resolves.toBeUndefined();
    await expect(failpoint('gm-op-finished')).resolves.toBeUndefined();
  });

  // A real process of the built module: SIGKILL at a later point of the list; no kill when none is reached.
  const FAILPOINTS_JS = pathToFileURL(join(ROOT, 'dist', 'src', 'host', 'failpoints.js')).href;
  const steps = (points: string[]) => `import { failpoint } from ${JSON.stringify(FAILPOINTS_JS)};\n${points.map((p) => `console.log('at ${p}'); await failpoint('${p}');`).join('\n')}\nconsole.log('ended');`;
  const runSteps = (spec: string, points: string[]) => spawnSync(process.execPath, ['--input-type=module', '-e', steps(points)], { encoding: 'utf8', env: { ...process.env, FATECRAFT_FAILPOINT: spec }, timeout: hangLimit() });

  it('a process is killed (SIGKILL) at the first point of the list it reaches', () => {
    const run = runSteps('gm-op-finished,after-fetch,after-resolve', ['locked', 'after-fetch', 'after-resolve']);
    expect(run.signal, run.stderr).toBe('SIGKILL');
    expect(run.stdout).toBe('at locked\nat after-fetch\n');
  });

  it('a process that reaches none of the points ends as if none were named', () => {
    const run = runSteps('gm-op-recorded,gm-token-set,seat-welcome-queued', ['locked', 'after-fetch', 'after-resolve']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('at locked\nat after-fetch\nat after-resolve\nended\n');
  });
});
