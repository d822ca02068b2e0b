import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../support/command-line.js';

/** `fatecraft turn --preview`: the GM sees the turn; the campaign and the players do not. */
const ROOT = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-preview-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the command; a failure fails the test, with what it printed. */
async function fatecraft(...args: string[]): Promise<string> {
  const run = await runInProcess(args);
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

function copyDemo(name: string): string {
  const dir = join(scratch, name);
  cpSync(join(ROOT, 'campaigns', 'silversheen'), dir, { recursive: true });
  return dir;
}

describe('fatecraft turn --preview', () => {
  it('keeps a preview that matches the real turn, and changes nothing else', async () => {
    const dir = copyDemo('preview');
    const out = await fatecraft('turn', dir, '--preview');
    expect(out).toMatch(/Preview of turn 1 \(nothing was resolved\)/);
    expect(readdirSync(join(dir, 'turns'))).toEqual(['0000']);
    expect(existsSync(join(dir, 'previews', '0001', 'reports', 'gm.html'))).toBe(true);

    const real = copyDemo('real');
    await fatecraft('turn', real);
    for (const file of ['state.yaml', 'events.yaml', 'reports/argenta.txt']) {
      expect(readFileSync(join(dir, 'previews', '0001', file), 'utf8')).toBe(readFileSync(join(real, 'turns', '0001', file), 'utf8'));
    }
  });

  it('tells the GM once and no player', async () => {
    const dir = copyDemo('notice');
    rmSync(join(dir, 'mail', 'inbox'), { recursive: true, force: true });
    await fatecraft('turn', dir, '--preview');
    await fatecraft('turn', dir, '--preview');
    const sent = readdirSync(join(dir, 'mail', 'outbox')).map((n) => readFileSync(join(dir, 'mail', 'outbox', n), 'utf8'));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^To: gm@silversheen\.test/m);
    expect(sent[0]).toMatch(/Subject: .*Preview of turn 1/);
  });

  it('refuses a preview of a turn that is not pending', async () => {
    const dir = copyDemo('expect');
    const refused = await runInProcess(['turn', dir, '--preview', '--expect', '2']);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/pending turn is 1, not 2/);
    expect(existsSync(join(dir, 'previews'))).toBe(false);
  });
});
