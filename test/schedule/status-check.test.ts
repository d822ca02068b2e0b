import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { turnRenderers } from '../../src/cli/renderers.js';
import { resumeCampaign } from '../../src/gm/steering.js';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import { mailroomHooks } from '../../src/mailroom/tick-hooks.js';
import { checkLine, needsTheGm } from '../../src/schedule/attention.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { campaignStatus, formatStatus } from '../../src/schedule/status.js';
import { tick } from '../../src/schedule/tick.js';
import { FIXTURES, TOKENS, secrets } from '../mailroom/support.js';
import { CLI, NATIONS, cleanupScratch, demoCopy, ensureBuilt, scratchDir, writeOrders } from './support.js';

/** `fatecraft status --check`: silent while all is well, one line and exit 1 when something needs the GM. */
beforeAll(ensureBuilt, 120_000);
afterAll(cleanupScratch);

/** The demo with its mail block (folder transport), an empty inbox and no orders on file. */
function mailCampaign(label: string): string {
  const dir = demoCopy(label, undefined, { keepMail: true });
  rmSync(join(dir, 'mail', 'inbox'), { recursive: true, force: true });
  mkdirSync(join(dir, 'mail', 'inbox'));
  rmSync(join(dir, 'orders'), { recursive: true, force: true });
  return dir;
}

const hooks = mailroomHooks({ secrets: secrets() });
const check = async (dir: string, clock: FakeClock) => needsTheGm(await campaignStatus(dir, { clock, hooks })).map((n) => `${n.what}: ${n.line}`);
const tickAt = async (dir: string, clock: FakeClock, at: string) => {
  clock.set(new Date(at));
  return tick(dir, { clock, hooks, renderers: turnRenderers() });
};

describe('status --check', { timeout: 60_000 }, () => {
  it('is quiet for a healthy campaign, and names a failed tick, a guard holding the turn, a damaged turn folder', async () => {
    const dir = mailCampaign('check-tick');
    const clock = new FakeClock('2025-03-20T10:00:00Z');
    expect((await tickAt(dir, clock, '2025-03-20T10:00:00Z')).status).toBe('ok');
    expect(await check(dir, clock)).toEqual([]);

    // No orders at the deadline: the NMR guard holds the turn.
    await tickAt(dir, clock, '2025-03-23T16:00:00Z');
    await tickAt(dir, clock, '2025-03-23T18:20:00Z');
    expect(await check(dir, clock)).toEqual([expect.stringMatching(/^alert: alert #1 nmr-guard turn 1: 5 of 5 nations sent no orders/)]);

    // Orders arrive, but the GM's adjustments file is broken: the tick stops and says so.
    writeOrders(dir, 1, NATIONS);
    writeFileSync(join(dir, 'orders', '0001', '_gm.yaml'), 'adjust: [\n');
    expect((await tickAt(dir, clock, '2025-03-23T18:30:00Z')).status).toBe('failed');
    expect((await check(dir, clock)).filter((l) => l.includes('tick-failed'))).toEqual([expect.stringMatching(/^alert: alert #2 tick-failed turn 1: tick stopped: /)]);

    rmSync(join(dir, 'orders', '0001', '_gm.yaml'));
    expect((await tickAt(dir, clock, '2025-03-23T18:35:00Z')).resolved).toEqual([1]);
    await resumeCampaign(dir, { clock });
    expect(await check(dir, clock)).toEqual([]);

    rmSync(join(dir, 'turns', '0001', 'events.yaml'));
    expect(await check(dir, clock)).toEqual([expect.stringMatching(/^damaged-turn: .*turns\/0001 is incomplete \(events.yaml missing\).*fatecraft repair/)]);
  });

  it('names a silence of the ticks longer than maxTickGap', async () => {
    const dir = mailCampaign('check-gap');
    const clock = new FakeClock('2025-03-20T10:00:00Z');
    await tickAt(dir, clock, '2025-03-20T10:00:00Z');
    clock.set(new Date('2025-03-20T15:59:00Z'));
    expect(await check(dir, clock)).toEqual([]);
    clock.set(new Date('2025-03-20T16:01:00Z'));
    expect(await check(dir, clock)).toEqual([expect.stringMatching(/^no-tick: no tick for 6h 1m \(longer than maxTickGap 6h\); last tick Thu 20 Mar 2025 10:00 GMT/)]);
  });

  it('a bounced report is an alert until the GM has dealt with it; so is mail that could not be sent', async () => {
    const dir = mailCampaign('check-mail');
    const clock = new FakeClock('2025-03-20T10:00:00Z');
    await tickAt(dir, clock, '2025-03-20T10:00:00Z');
    writeFileSync(join(dir, 'mail', 'inbox', 'bounce.eml'), readFileSync(join(FIXTURES, '47-dsn-bounce.eml')));
    const ticked = await tickAt(dir, clock, '2025-03-20T10:05:00Z');
    expect(ticked.lines).toContain('mail to duke@argenta.test (argenta) bounced');
    const status = await campaignStatus(dir, { clock, hooks });
    expect(status.alerts.map((a) => [a.kind, a.mailed])).toEqual([['bounce', true]]);
    expect(formatStatus(status)).toMatch(/#1 bounce turn 1 .*mail to duke@argenta.test \(argenta\) bounced/);
    expect(await check(dir, clock)).toEqual([expect.stringMatching(/^alert: alert #1 bounce turn 1: mail to duke@argenta.test \(argenta\) bounced/)]);
    // The mail loop told the GM of the bounce; the tick does not mail it a second time.
    expect(readFileSync(join(dir, 'mail', 'outbox', readdirSync(join(dir, 'mail', 'outbox')).find((n) => n.includes('alert'))!), 'utf8')).toContain('bounced');

    clock.set(new Date('2025-03-20T10:10:00Z'));
    await resumeCampaign(dir, { clock });
    expect(await check(dir, clock)).toEqual([]);

    // A message given up on after the resume counts; the same tick sees it.
    clock.set(new Date('2025-03-20T10:20:00Z'));
    const queue = new OutboxQueue(join(dir, 'mail'));
    const one = (await queue.all())[0]!;
    await queue.write({ ...one, status: 'failed', failedAt: clock.now().toISOString(), lastError: 'EPERM 550: no such user' });
    expect(await check(dir, clock)).toEqual([expect.stringMatching(/^mail-failed: 1 message\(s\) could not be sent, e.g. to .*: EPERM 550: no such user/)]);
  });

  it('from the command line: nothing printed and exit 0, or one line and exit 1', () => {
    const dir = mailCampaign('check-cli');
    const secretsFile = join(scratchDir('secrets'), 's.yaml');
    writeFileSync(secretsFile, Object.entries(TOKENS).map(([n, t]) => `${n}: ${t}`).join('\n'), { mode: 0o600 });
    const run = (args: string[], now: string) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, FATECRAFT_NOW: now, FATECRAFT_SECRETS: secretsFile } });
    expect(run(['tick', dir], '2025-03-20T10:00:00Z').status).toBe(0);
    const quiet = run(['status', dir, '--check'], '2025-03-20T10:05:00Z');
    expect([quiet.status, quiet.stdout, quiet.stderr]).toEqual([0, '', '']);
    const late = run(['status', dir, '--check'], '2025-03-21T10:05:00Z');
    expect(late.status).toBe(1);
    expect(late.stdout).toBe(`fatecraft: ${dir} needs the GM: no tick for 1d 5m (longer than maxTickGap 6h); last tick Thu 20 Mar 2025 10:00 GMT: is cron or the timer running? (fatecraft status ${dir})\n`);
    writeFileSync(join(dir, 'runtime.yaml'), 'version: [\n');
    const broken = run(['status', dir, '--check'], '2025-03-20T10:05:00Z');
    expect(broken.status).toBe(1);
    expect(broken.stdout.split('\n')).toEqual([expect.stringMatching(/needs the GM: .*runtime.yaml/), '']);
  });

  it("keeps other people's text (a bounce's diagnostic) to one line with nothing a terminal acts on", () => {
    const line = checkLine('c', [{ what: 'bounce', line: 'mail to a@b bounced: 550 \u001b[31mred\u001b[0m\nSubject: x' }]);
    expect(line).not.toMatch(/[\u001b\n]/);
    expect(line).toContain('bounced: 550');
  });
});
