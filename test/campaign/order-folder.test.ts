import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuilt } from '../support/built-cli.js';
import { runInProcess } from '../support/command-line.js';
import { cleanupScratch, demoCopy, scratchDir, tree } from '../schedule/support.js';

/**
 * Odd entries in orders/NNNN/ (defect 5 of issue 26): a folder, a FIFO or a
 * symbolic link named like an order file is refused with what it is, through
 * the command line, which must neither crash, hang nor copy a file from
 * outside the campaign into the turn. A FIFO could block whoever opens it, so
 * those runs are processes of the built CLI, killed at a time limit (a hang
 * fails); the others run in this process.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const DEMO = join(ROOT, 'campaigns', 'silversheen');
const scratch = mkdtempSync(join(tmpdir(), 'fatecraft-order-folder-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  cleanupScratch();
});

let n = 0;
function campaign(): string {
  const dir = join(scratch, `c${++n}`);
  cpSync(DEMO, dir, { recursive: true });
  return dir;
}

const mkfifo = (path: string) => execFileSync('mkfifo', [path]);
const turn = async (dir: string, what?: string) => (what === 'a FIFO' ? runBuilt(['turn', dir]) : runInProcess(['turn', dir]));

/** A file outside the campaign, with valid orders and a line that must never reach the turn. */
function outsideFile(): string {
  const path = join(scratch, `outside-${++n}.yaml`);
  writeFileSync(path, 'nation: argenta\nturn: 1\n# SECRET-OUTSIDE-THE-CAMPAIGN\norders: []\n');
  return path;
}

const ODD: Record<string, { kind: RegExp; make: (path: string) => void }> = {
  'a folder': { kind: /it is a folder, not a regular file/, make: (path) => mkdirSync(path) },
  'a FIFO': { kind: /it is a named pipe \(FIFO\), not a regular file/, make: mkfifo },
  'a symbolic link to a file outside the campaign': { kind: /it is a symbolic link, not a regular file/, make: (path) => symlinkSync(outsideFile(), path) },
};

describe('odd entries in the orders folder', () => {
  it.each(Object.keys(ODD))("a nation's order file that is %s: the turn resolves and the nation's report says why its orders were not read", async (what) => {
    const dir = campaign();
    const path = join(dir, 'orders', '0001', 'argenta.yaml');
    rmSync(path);
    ODD[what]!.make(path);
    const r = await turn(dir, what);
    expect(r.signal, 'the turn hung and was killed').toBeNull();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const resolved = join(dir, 'turns', '0001');
    const report = readFileSync(join(resolved, 'reports', 'argenta.txt'), 'utf8');
    expect(report).toMatch(ODD[what]!.kind);
    expect(report).toContain('the order file was not read');
    expect(readFileSync(join(resolved, 'events.yaml'), 'utf8')).toMatch(ODD[what]!.kind);
    // Nothing of it is kept with the turn, and nothing from outside the campaign got in.
    expect(existsSync(join(resolved, 'orders', 'argenta.yaml'))).toBe(false);
    expect(existsSync(join(resolved, 'orders', 'gondarahl.yaml'))).toBe(true);
    expect(Object.values(tree(resolved)).some((text) => text.includes('SECRET-OUTSIDE-THE-CAMPAIGN'))).toBe(false);
  });

  it("a folder named like an order file of no nation is passed over", async () => {
    const dir = campaign();
    mkdirSync(join(dir, 'orders', '0001', 'x.yaml'));
    const r = await turn(dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(existsSync(join(dir, 'turns', '0001', 'orders', 'x.yaml'))).toBe(false);
  });

  it.each(Object.keys(ODD))("the GM's _gm.yaml as %s stops the turn with a located message and resolves nothing", async (what) => {
    const dir = campaign();
    const path = join(dir, 'orders', '0001', '_gm.yaml');
    // The demo ships a _gm.yaml for turn 1 (its injected events): this one takes its place.
    rmSync(path, { force: true });
    ODD[what]!.make(path);
    const r = await turn(dir, what);
    expect(r.signal, 'the turn hung and was killed').toBeNull();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${path}: not read: `);
    expect(r.stderr).toMatch(ODD[what]!.kind);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(existsSync(join(dir, 'turns', '0001'))).toBe(false);
  });

  it('a tick at the deadline with a FIFO for an order file resolves the turn without waiting on it', () => {
    const dir = demoCopy('fifo-tick');
    const path = join(dir, 'orders', '0001', 'argenta.yaml');
    rmSync(path);
    mkfifo(path);
    const r = runBuilt(['tick', dir], { env: { FATECRAFT_NOW: '2025-03-23T18:15:00Z', FATECRAFT_SECRETS: join(scratchDir('secrets'), 'x.yaml') } });
    expect(r.signal, 'the tick hung and was killed').toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('resolved turn 1');
    expect(readFileSync(join(dir, 'turns', '0001', 'reports', 'argenta.txt'), 'utf8')).toMatch(ODD['a FIFO']!.kind);
  });
});
