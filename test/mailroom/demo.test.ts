import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { turnRenderers } from '../../src/cli/renderers.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import { sendReports } from '../../src/mailroom/reports.js';
import { mailroomHooks } from '../../src/mailroom/tick-hooks.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { tick } from '../../src/schedule/tick.js';
import { TestClock, cleanupAll, demoCopy, files, secrets } from './support.js';

/** The demo campaign played by mail: what `npm run demo` does, checked. */
afterAll(cleanupAll);

/** An order told as it was written (its line, its words) differs between a mail and a YAML file; what befell it does not. */
function withoutAsWritten(e: Record<string, unknown>): Record<string, unknown> {
  const { line: _line, order: _order, ...rest } = e;
  return rest;
}

describe('the demo, by mail', () => {
  it('turn 1 from the five players’ mails resolves exactly as from the YAML orders (the same state, the same battles)', async () => {
    const byMail = demoCopy('demo-mail', { yamlOrders: false, demoMail: true });
    const byYaml = demoCopy('demo-yaml');
    const fetched = await fetchMail(byMail.dir, { clock: new TestClock(), secrets: secrets() });
    expect(fetched.filed.map((f) => f.nation)).toEqual(['argenta', 'gondarahl', 'grarkul', 'vulcanstille', 'westvalia']);
    await runTurn(byMail.dir, { renderers: turnRenderers() });
    await runTurn(byYaml.dir, { renderers: turnRenderers() });
    const state = (dir: string) => readFileSync(join(dir, 'turns', '0001', 'state.yaml'), 'utf8');
    expect(state(byMail.dir)).toBe(state(byYaml.dir));
    // The same events, but for the YAML file's misspelt unit: by mail the receipt refused it before the turn.
    const events = (dir: string) => (load(readFileSync(join(dir, 'turns', '0001', 'events.yaml'), 'utf8')) as { events: { type: string; seq: number }[] }).events.filter((e) => e.type !== 'order_rejected').map(({ seq: _seq, ...e }) => (e.type === 'order_unmet' || e.type === 'order_warned' ? withoutAsWritten(e) : e));
    expect(events(byMail.dir)).toEqual(events(byYaml.dir));
    expect(events(byMail.dir).filter((e) => e.type === 'battle').length).toBeGreaterThanOrEqual(3);

    const reports = await sendReports(byMail.dir, 1, { clock: new TestClock(), secrets: secrets() });
    expect(reports.sent.sent).toHaveLength(6);
    expect(files(join(byMail.dir, 'mail', 'outbox'))).toHaveLength(11);
  });
});

describe('the mailroom as the tick’s hooks', () => {
  it('a tick fetches the mail and answers it; the tick after the deadline resolves the turn and mails the reports', async () => {
    const { dir } = demoCopy('tick', { yamlOrders: false, demoMail: true });
    const clock = new FakeClock('2026-03-08T13:00:00Z'); // a Sunday; the default deadline is Sundays 18:00 London
    const hooks = mailroomHooks({ secrets: secrets() });
    const first = await tick(dir, { clock, hooks, renderers: turnRenderers() });
    expect(first.status, first.error).toBe('ok');
    expect(first.lines.join('\n')).toContain('read 5 message(s)');
    const queue = new OutboxQueue(join(dir, 'mail'));
    const receipts = (await queue.all()).filter((q) => q.kind === 'receipt');
    expect(receipts).toHaveLength(5);
    expect(receipts.every((r) => r.status === 'sent')).toBe(true);

    clock.set('2026-03-08T18:30:00Z');
    const second = await tick(dir, { clock, hooks, renderers: turnRenderers() });
    expect(second.status, second.error).toBe('ok');
    expect(second.resolved, [...first.lines, ...second.lines].join('\n')).toEqual([1]);
    // The first tick started the campaign (no runtime.yaml yet): every player's welcome went out before the receipts.
    const starts = (await queue.all()).filter((q) => q.about?.startsWith('starting report'));
    expect(starts.map((r) => [r.about, r.status])).toEqual(['argenta', 'gondarahl', 'grarkul', 'vulcanstille', 'westvalia'].map((n) => [`starting report for ${n}`, 'sent']));
    expect(first.lines.join('\n')).toMatch(/started the campaign[\s\S]*read 5 message\(s\)/);
    const reports = (await queue.all()).filter((q) => q.kind === 'report' && !q.about?.startsWith('starting report'));
    expect(reports.map((r) => r.about).sort()).toEqual(['argenta', 'gondarahl', 'grarkul', 'vulcanstille', 'westvalia'].map((n) => `report of turn 1 for ${n}`));
    expect(reports.every((r) => r.status === 'sent')).toBe(true);
    // The report tells the players the next deadline, as the schedule has it.
    expect(reports[0]!.message.text).toMatch(/Orders for turn 2 are due Sun 15 Mar 2026 18:00/);
    expect((await queue.all()).filter((q) => q.kind === 'gm-report').map((q) => q.about)).toEqual(['GM report of the starting position', 'GM report of turn 1']);
  });
});
