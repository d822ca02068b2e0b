import { existsSync, readdirSync, readFileSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TOKENS } from '../mailroom/support.js';
import { cleanupScratch, demoCopy, scratchDir, writeOrders } from './support.js';
import { runCommandLine } from '../support/command-line.js';
import { setReportSettings } from '../support/campaign-file.js';

/**
 * A GM who runs the season by hand: `turn`, `status`, `mail send`, `rerun`, with a tick now and then.
 * Nothing may fall silently between them: every resolved turn's reports are mailed once, corrections
 * after a rerun included, and every report prints the deadline `status` shows.
 */
afterAll(cleanupScratch);
afterEach(() => {
  delete process.env.FATECRAFT_SECRETS;
  delete process.env.FATECRAFT_NOW;
  process.exitCode = undefined;
});

async function cli(now: string, ...args: string[]): Promise<string> {
  process.env.FATECRAFT_NOW = now;
  return runCommandLine(...args);
}

function mailCampaign(label: string): string {
  const dir = demoCopy(label, undefined, { keepMail: true });
  rmSync(join(dir, 'mail', 'inbox'), { recursive: true, force: true });
  mkdirSync(join(dir, 'mail', 'inbox'));
  process.env.FATECRAFT_SECRETS = join(scratchDir('secrets'), 's.yaml');
  writeFileSync(process.env.FATECRAFT_SECRETS, Object.entries(TOKENS).map(([n, t]) => `${n}: ${t}`).join('\n'), { mode: 0o600 });
  return dir;
}

const outbox = (dir: string) => readdirSync(join(dir, 'mail', 'outbox')).sort();
const reports = (dir: string) => outbox(dir).filter((n) => n.startsWith('fatecraft.report.') || n.startsWith('fatecraft.gm-report.'));
const deadlineOf = (status: string) => /^Deadline: (.*?) \(/m.exec(status)![1]!;
const reportText = (dir: string, turn: number) => readFileSync(join(dir, 'turns', String(turn).padStart(4, '0'), 'reports', 'argenta.txt'), 'utf8');

describe('the hand-run season', () => {
  it('turn prints the deadline status shows; turn and status say which reports are not mailed; mail send sends them all, oldest first, then the corrections after a rerun', async () => {
    const dir = mailCampaign('by-hand');
    expect(await cli('2025-03-20T10:00:00Z', 'tick', dir)).toContain('schedule started: turn 1 is due Sun 23 Mar 2025 18:00 GMT');

    const first = await cli('2025-03-21T10:00:00Z', 'turn', dir);
    const status = await cli('2025-03-21T10:05:00Z', 'status', dir);
    const due2 = deadlineOf(status);
    expect(due2).toBe('Sun 30 Mar 2025 18:00 BST');
    expect(first).toContain(`Turn 2 is due ${due2} (the schedule's next deadline, printed in the reports).`);
    expect(reportText(dir, 1)).toContain(`deadline: ${due2}`);
    expect(first).toContain(`Reports not mailed yet: turn 1. Send them: fatecraft mail send ${dir}`);
    expect(status).toMatch(/^Turn 2, /m);
    expect(status).toContain(`REPORTS NOT MAILED: turn 1 — send them: fatecraft mail send ${dir}`);

    writeOrders(dir, 2, ['argenta', 'gondarahl', 'grarkul', 'vulcanstille', 'westvalia']);
    const second = await cli('2025-03-22T10:00:00Z', 'turn', dir);
    expect(second).toContain('Reports not mailed yet: turn 1, turn 2.');
    const due3 = deadlineOf(await cli('2025-03-22T10:05:00Z', 'status', dir));
    expect(reportText(dir, 2)).toContain(`deadline: ${due3}`);

    // The first tick started the campaign: the GM's report of turn 0 went out then.
    const beforeSend = reports(dir).length;
    const sent = await cli('2025-03-22T11:00:00Z', 'mail', 'send', dir, '--quiet');
    expect(sent.split('\n')).toEqual([
      'Reports of turn 1: queued for argenta, gondarahl, grarkul, vulcanstille, westvalia.',
      'Reports of turn 2: queued for argenta, gondarahl, grarkul, vulcanstille, westvalia.',
      'Sent 12 message(s).',
    ]);
    expect(reports(dir)).toHaveLength(beforeSend + 12);
    expect(await cli('2025-03-22T11:05:00Z', 'status', dir)).not.toContain('REPORTS NOT MAILED');

    // The GM fixes turn 2's orders and resolves it again: the corrected reports are owed, and go out marked so.
    const rerun = await cli('2025-03-22T12:00:00Z', 'rerun', dir, '2', '--force');
    expect(rerun).toContain(`Its reports print turn 3's deadline, ${due3}.`);
    expect(reportText(dir, 2)).toContain(`deadline: ${due3}`);
    expect(await cli('2025-03-22T12:05:00Z', 'status', dir)).toContain('REPORTS NOT MAILED: turn 2 (corrected, rerun 1)');
    const corrected = await cli('2025-03-22T12:10:00Z', 'mail', 'send', dir, '--quiet');
    expect(corrected.split('\n')).toEqual(['Reports of turn 2 (corrected, rerun 1): queued for argenta, gondarahl, grarkul, vulcanstille, westvalia.', 'Sent 6 message(s).']);
    const argenta = outbox(dir).filter((n) => n.startsWith('fatecraft.report.argenta.t0002.rerun-1'));
    expect(argenta).toHaveLength(1);
    expect(readFileSync(join(dir, 'mail', 'outbox', argenta[0]!), 'utf8')).toContain('Subject: [The Silversheen Sea] Turn 2 report for Duchy of Argenta\r\n (corrected)\r\n');
    expect(await cli('2025-03-22T12:15:00Z', 'mail', 'send', dir, '--quiet')).toBe("Every resolved turn's reports have been queued already.\nSent 0 message(s).");

    // A tick books what was done by hand and sends nothing a second time.
    const before = reports(dir);
    await cli('2025-03-22T12:20:00Z', 'tick', dir);
    expect(reports(dir)).toEqual(before);
  });

  it("a turn's reports left unmailed until they were packed (reports.keepTurns) are mailed from the archive, as they were written", async () => {
    const dir = mailCampaign('packed-unsent');
    setReportSettings(dir, { keepTurns: 1 });
    await cli('2025-03-20T10:00:00Z', 'tick', dir);
    await cli('2025-03-21T10:00:00Z', 'turn', dir);
    const written = reportText(dir, 1);
    writeOrders(dir, 2, ['argenta', 'gondarahl', 'grarkul', 'vulcanstille', 'westvalia']);
    await cli('2025-03-22T10:00:00Z', 'turn', dir);
    expect(existsSync(join(dir, 'turns', '0001', 'reports.tar.gz'))).toBe(true);
    expect(existsSync(join(dir, 'turns', '0001', 'reports'))).toBe(false);
    const sent = await cli('2025-03-22T11:00:00Z', 'mail', 'send', dir, '--quiet');
    expect(sent).toContain('Reports of turn 1: queued for argenta, gondarahl, grarkul, vulcanstille, westvalia.');
    const mail = outbox(dir).find((n) => n.startsWith('fatecraft.report.argenta.t0001'))!;
    const body = readFileSync(join(dir, 'mail', 'outbox', mail), 'utf8');
    expect(body).toContain('Turn 1: Summer of 1021');
    expect(written).toContain('Turn 1: Summer of 1021');
  });

  it('the reports of a turn the tick resolves print the deadline status then shows', async () => {
    const dir = mailCampaign('by-tick');
    await cli('2025-03-20T10:00:00Z', 'tick', dir);
    await cli('2025-03-23T16:00:00Z', 'tick', dir);
    expect(await cli('2025-03-23T18:20:00Z', 'tick', dir)).toContain('resolved turn 1');
    const due = deadlineOf(await cli('2025-03-23T18:25:00Z', 'status', dir));
    expect(reportText(dir, 1)).toContain(`deadline: ${due}`);
  });

  it('after a rollback, the turn resolved anew has its new reports mailed, as corrections', async () => {
    const dir = mailCampaign('rollback');
    await cli('2025-03-20T10:00:00Z', 'tick', dir);
    await cli('2025-03-23T16:00:00Z', 'tick', dir);
    expect(await cli('2025-03-23T18:20:00Z', 'tick', dir)).toContain('sent the reports of turn 1');
    await cli('2025-03-23T18:30:00Z', 'rollback', dir, '0');
    await cli('2025-03-23T18:35:00Z', 'turn', dir);
    expect(await cli('2025-03-23T18:40:00Z', 'mail', 'send', dir, '--quiet')).toBe('Reports of turn 1 (corrected, rerun 1): queued for argenta, gondarahl, grarkul, vulcanstille, westvalia.\nSent 6 message(s).');
    expect(reports(dir).filter((n) => n.startsWith('fatecraft.report.argenta.t0001'))).toHaveLength(2);
  });

  it('a turn refused by hand leaves no decision behind: the tick still waits for the deadline', async () => {
    const dir = mailCampaign('refused');
    await cli('2025-03-20T10:00:00Z', 'tick', dir);
    writeFileSync(join(dir, 'orders', '0001', '_gm.yaml'), 'adjust: [\n');
    await expect(cli('2025-03-21T10:00:00Z', 'turn', dir)).rejects.toThrow(/_gm.yaml/);
    expect(readFileSync(join(dir, 'runtime.yaml'), 'utf8')).not.toContain('resolving:');
    rmSync(join(dir, 'orders', '0001', '_gm.yaml'));
    expect(await cli('2025-03-21T10:05:00Z', 'tick', dir)).not.toContain('resolv');
  });
});
