import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/schedule/clock.js';
import { folderHooks } from '../../src/schedule/hooks.js';
import { topLevelBlocks } from '../../src/schedule/idle-tick.js';
import { tick } from '../../src/schedule/tick.js';
import { runBuilt } from '../support/built-cli.js';
import { runInProcess } from '../support/command-line.js';
import { cleanupScratch, demoCopy, NATIONS, ROOT, scratchDir, writeOrders } from './support.js';

/**
 * An idle tick (nothing due) reads only what can make something due and loads no mail or report code:
 * checked by what the process opened and loaded (test/support/trace-io.mjs), not by how long it took.
 * Ticks whose trace is not looked at run in this process.
 */
afterAll(cleanupScratch);

const TRACER = join(ROOT, 'test', 'support', 'trace-io.mjs');

interface Traced {
  status: number | null;
  stdout: string;
  stderr: string;
  opened: string[];
  loaded: string[];
}

const env = (now: string) => ({ FATECRAFT_NOW: now, FATECRAFT_SECRETS: join(scratchDir('secrets'), 'x.yaml') });
const tickInProcess = (dir: string, now: string) => runInProcess(['tick', dir], { env: env(now) });

function tracedTick(dir: string, now: string): Traced {
  const trace = join(scratchDir('trace'), 'trace.txt');
  writeFileSync(trace, '');
  const r = runBuilt(['tick', dir], { nodeArgs: ['--import', TRACER], env: { ...env(now), FATECRAFT_TRACE: trace } });
  const lines = readFileSync(trace, 'utf8').split('\n');
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, opened: lines.filter((l) => l.startsWith('open ')).map((l) => l.slice(5)), loaded: lines.filter((l) => l.startsWith('load ')).map((l) => l.slice(5)) };
}

const HEAVY = /\/dist\/src\/(mail|mailroom|report|jobs)\//;
const heavy = (t: Traced) => t.loaded.filter((u) => HEAVY.test(u));
/** The mail code and libraries: a campaign without a `mail:` block never needs them, not even to resolve a turn. */
const MAIL = /\/dist\/src\/(mail|mailroom)\/|\/node_modules\/(imapflow|nodemailer|mailparser|mailauth)\//;
const readsState = (t: Traced) => t.opened.filter((p) => p.endsWith('state.yaml'));

describe('an idle tick', () => {
  it('reads neither the state nor loads the mail or report code, and records the tick as the full tick would', async () => {
    const dir = demoCopy('idle', undefined, { keepMail: true });
    // The first tick starts the schedule and reads the demo's inbox: work, the full tick.
    const first = tracedTick(dir, '2025-03-19T12:00:00Z');
    expect(first.status).toBe(0);
    expect(heavy(first).length).toBeGreaterThan(0);
    const twin = join(scratchDir('twin'), 'campaign');
    cpSync(dir, twin, { recursive: true });

    const idle = tracedTick(dir, '2025-03-19T12:10:00Z');
    expect(idle.status).toBe(0);
    expect(readsState(idle)).toEqual([]);
    expect(heavy(idle)).toEqual([]);
    expect(idle.loaded.filter((u) => u.includes('/node_modules/zod/'))).toEqual([]);
    // The same runtime.yaml as the full tick's, run in process on the twin.
    const full = await tick(twin, { clock: new FakeClock('2025-03-19T12:10:00Z'), hooks: folderHooks() });
    expect(full.status).toBe('ok');
    expect(readFileSync(join(dir, 'runtime.yaml'), 'utf8')).toBe(readFileSync(join(twin, 'runtime.yaml'), 'utf8'));
  });

  it('is a full tick when mail waits in the inbox', async () => {
    const dir = demoCopy('mail-waits', undefined, { keepMail: true });
    const inbox = join(dir, 'mail', 'inbox');
    const held = scratchDir('held');
    cpSync(inbox, held, { recursive: true });
    rmSync(inbox, { recursive: true });
    mkdirSync(inbox);
    expect((await tickInProcess(dir, '2025-03-19T12:00:00Z')).status).toBe(0);
    expect(heavy(tracedTick(dir, '2025-03-19T12:05:00Z'))).toEqual([]);
    cpSync(held, inbox, { recursive: true });
    const t = tracedTick(dir, '2025-03-19T12:10:00Z');
    expect(t.status).toBe(0);
    expect(t.loaded.some((u) => u.includes('/dist/src/mailroom/'))).toBe(true);
    expect(t.stdout).toContain('read 5 message(s)');
  });

  it('is a full tick once a reminder or the deadline is due, which in a campaign without mail loads no mail code', async () => {
    const dir = demoCopy('due');
    expect((await tickInProcess(dir, '2025-03-19T12:00:00Z')).status).toBe(0);
    expect(readsState(tracedTick(dir, '2025-03-20T12:00:00Z'))).toEqual([]);
    const reminded = tracedTick(dir, '2025-03-21T18:00:00Z');
    expect(reminded.stdout).toContain('48h reminder');
    expect(readsState(reminded).length).toBeGreaterThan(0);
    writeOrders(dir, 1, NATIONS);
    expect(tracedTick(dir, '2025-03-23T17:00:00Z').stdout).toContain('6h reminder');
    // Past the deadline but within the grace: nothing due yet.
    expect(heavy(tracedTick(dir, '2025-03-23T18:10:00Z'))).toEqual([]);
    const resolved = tracedTick(dir, '2025-03-23T18:15:00Z');
    expect(resolved.stdout).toContain('resolved turn 1');
    expect(resolved.loaded.some((u) => u.includes('/dist/src/report/'))).toBe(true);
    expect(resolved.loaded.filter((u) => MAIL.test(u))).toEqual([]);
  });
});

describe('topLevelBlocks', () => {
  it('takes the named blocks with their indented, blank and comment lines, and nothing else', () => {
    const text = 'name: x\nschedule:\n  grace: 1h\n\n  # a note\n  reminders: [6h]\nnations:\n  a: {}\nmail:\n  transport: folder\n';
    expect(topLevelBlocks(text, ['schedule', 'mail'])).toBe('schedule:\n  grace: 1h\n\n  # a note\n  reminders: [6h]\nmail:\n  transport: folder\n');
    expect(topLevelBlocks('schedule: {grace: 1h}\r\nx: 1\r\n', ['schedule'])).toBe('schedule: {grace: 1h}');
  });

  it('gives up on what only the full reader can judge: a key twice, several documents', () => {
    expect(topLevelBlocks('schedule:\n  grace: 1h\nschedule:\n  grace: 2h\n', ['schedule'])).toBeUndefined();
    expect(topLevelBlocks('schedule:\n  grace: 1h\n---\nx: 1\n', ['schedule'])).toBeUndefined();
  });
});
