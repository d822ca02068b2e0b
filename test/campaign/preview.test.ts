import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** `fatecraft turn --preview`: the GM sees the turn; the campaign and the players do not. */
const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-preview-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function copyDemo(name: string): string {
  const dir = join(scratch, name);
  cpSync(join(ROOT, 'campaigns', 'silversheen'), dir, { recursive: true });
  return dir;
}

describe('fatecraft turn --preview', () => {
  it('keeps a preview that matches the real turn, and changes nothing else', () => {
    const dir = copyDemo('preview');
    const out = execFileSync(process.execPath, [CLI, 'turn', dir, '--preview'], { encoding: 'utf8' });
    expect(out).toMatch(/Preview of turn 1 \(nothing was resolved\)/);
    expect(readdirSync(join(dir, 'turns'))).toEqual(['0000']);
    expect(existsSync(join(dir, 'previews', '0001', 'reports', 'gm.html'))).toBe(true);

    const real = copyDemo('real');
    execFileSync(process.execPath, [CLI, 'turn', real]);
    for (const file of ['state.yaml', 'events.yaml', 'reports/argenta.txt']) {
      expect(readFileSync(join(dir, 'previews', '0001', file), 'utf8')).toBe(readFileSync(join(real, 'turns', '0001', file), 'utf8'));
    }
  });

  it('tells the GM once and no player', () => {
    const dir = copyDemo('notice');
    rmSync(join(dir, 'mail', 'inbox'), { recursive: true, force: true });
    execFileSync(process.execPath, [CLI, 'turn', dir, '--preview']);
    execFileSync(process.execPath, [CLI, 'turn', dir, '--preview']);
    const sent = readdirSync(join(dir, 'mail', 'outbox')).map((n) => readFileSync(join(dir, 'mail', 'outbox', n), 'utf8'));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^To: gm@silversheen\.test/m);
    expect(sent[0]).toMatch(/Subject: .*Preview of turn 1/);
  });

  it('refuses a preview of a turn that is not pending', () => {
    const dir = copyDemo('expect');
    expect(() => execFileSync(process.execPath, [CLI, 'turn', dir, '--preview', '--expect', '2'], { stdio: 'pipe' })).toThrow(/pending turn is 1, not 2/);
    expect(existsSync(join(dir, 'previews'))).toBe(false);
  });
});
