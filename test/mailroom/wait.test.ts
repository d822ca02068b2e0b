import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { turnRenderers } from '../../src/cli/renderers.js';
import { OutboxQueue } from '../../src/mailroom/outbox.js';
import { mailroomHooks } from '../../src/mailroom/tick-hooks.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { planTick } from '../../src/schedule/plan.js';
import { newRuntime } from '../../src/schedule/runtime.js';
import { parseSchedule } from '../../src/schedule/settings.js';
import { campaignStatus, formatStatus } from '../../src/schedule/status.js';
import { tick } from '../../src/schedule/tick.js';
import { ADDRESSES, cleanupAll, demoCopy, dropInInbox, secrets } from './support.js';

/** "wait" by mail: with early resolution on, the turn waits for its deadline while a player asks it to. */
afterAll(cleanupAll);

const mail = (name: string, from: string, body: string) =>
  `From: ${from}\r\nTo: turns@silversheen.test\r\nSubject: the turn\r\nMessage-ID: <${name}@player.test>\r\nDate: Thu, 05 Mar 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${body}\r\n`;

describe('asking the turn to wait for its deadline', () => {
  it('keeps the planner from resolving early, and only for an expected nation', () => {
    const parsed = parseSchedule({ early: true });
    if (!parsed.ok) throw new Error('schedule');
    const runtime = newRuntime(3, new Date('2025-03-23T18:00:00Z'));
    runtime.lastTick = '2025-03-20T11:55:00Z';
    const input = { runtime, schedule: parsed.schedule, now: new Date('2025-03-20T12:00:00Z'), submitted: ['a', 'b'], active: ['a', 'b'], mailOk: true };
    expect(planTick(input).actions.map((a) => a.kind)).toEqual(['resolve']);
    expect(planTick({ ...input, waiting: ['b'] }).actions).toEqual([]);
    // A nation no longer expected (dropped, away) cannot hold the turn.
    expect(planTick({ ...input, waiting: ['c'] }).actions.map((a) => a.kind)).toEqual(['resolve']);
  });

  it('by mail: kept, confirmed, shown by status; "don\'t wait" lets the turn resolve early at the next tick', async () => {
    const { dir } = demoCopy('wait'); // every nation has orders on file for turn 1
    appendFileSync(join(dir, 'campaign.yaml'), '\nschedule:\n  early: true\n');
    dropInInbox(dir, 'w.eml', mail('w', ADDRESSES.westvalia!, 'Please wait for the deadline.'));
    const clock = new FakeClock('2026-03-05T12:00:00Z');
    const hooks = mailroomHooks({ secrets: secrets() });
    const first = await tick(dir, { clock, hooks, renderers: turnRenderers() });
    expect(first.status, first.error).toBe('ok');
    expect(first.resolved).toEqual([]);
    const runtime = load(readFileSync(join(dir, 'runtime.yaml'), 'utf8')) as { waits: { nation: string; turn: number }[] };
    expect(runtime.waits).toMatchObject([{ nation: 'westvalia', turn: 1 }]);
    const queue = new OutboxQueue(join(dir, 'mail'));
    const answer = (await queue.all()).find((e) => e.kind === 'reply' && e.message.to.includes(ADDRESSES.westvalia!));
    expect(answer?.message.text).toContain('Noted: turn 1 waits for its deadline, Sun 8 Mar 2026 18:00 GMT, even if every nation has sent its orders before.');
    const status = formatStatus(await campaignStatus(dir, { clock }));
    expect(status).toMatch(/westvalia +submitted +asked to wait for the deadline/);
    expect(status).toContain('Early resolution: on, but the turn waits for its deadline: westvalia asked it to');

    clock.set('2026-03-05T12:05:00Z');
    expect((await tick(dir, { clock, hooks, renderers: turnRenderers() })).resolved).toEqual([]);

    dropInInbox(dir, 'w2.eml', mail('w2', ADDRESSES.westvalia!, "Don't wait"));
    clock.set('2026-03-05T12:10:00Z');
    const third = await tick(dir, { clock, hooks, renderers: turnRenderers() });
    expect(third.resolved, third.lines.join('\n')).toEqual([1]);
    const taken = (await queue.all()).filter((e) => e.kind === 'reply' && e.message.to.includes(ADDRESSES.westvalia!)).at(-1);
    expect(taken?.message.text).toContain('Noted: you no longer ask turn 1 to wait');
  });
});
