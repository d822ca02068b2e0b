import { afterAll, describe, expect, it } from 'vitest';
import { extendDeadline, pauseCampaign, resumeCampaign } from '../../src/gm/steering.js';
import { rollbackTo } from '../../src/gm/turns.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { resolveTurnByHand } from '../../src/schedule/hand-turn.js';
import { readRuntime } from '../../src/schedule/runtime.js';
import { campaignStatus } from '../../src/schedule/status.js';
import { tick } from '../../src/schedule/tick.js';
import { cleanupScratch, demoCopy, NATIONS, recordingHooks, writeOrders } from './support.js';

/** A notice a later event made untrue is dropped from the queue, never sent. */
afterAll(cleanupScratch);

const HOUR = 3_600_000;

async function resolvedTurnOne(label: string) {
  const dir = demoCopy(label);
  const clock = new FakeClock('2025-03-20T10:00:00Z');
  const { hooks, sent } = recordingHooks();
  const tickAt = async (at: string) => {
    clock.set(new Date(at));
    return tick(dir, { clock, hooks });
  };
  writeOrders(dir, 1, NATIONS);
  await tickAt('2025-03-20T10:00:00Z');
  await tickAt('2025-03-23T16:00:00Z');
  expect((await tickAt('2025-03-23T18:20:00Z')).resolved).toEqual([1]);
  return { dir, clock, sent, tickAt };
}

describe('stale notices', () => {
  it('"turn 1 is open again" is not sent once turn 1 has resolved again', async () => {
    const { dir, clock, sent, tickAt } = await resolvedTurnOne('stale-rollback');
    clock.set(new Date('2025-03-23T18:30:00Z'));
    await rollbackTo(dir, 0, { clock, deadline: new Date('2025-03-23T19:00:00Z') });
    // The next tick is past the reopened turn's deadline: it resolves turn 1 before it sends what is owed.
    const after = await tickAt('2025-03-23T19:20:00Z');
    expect(after.resolved).toEqual([1]);
    expect(after.lines).toContain('dropped notice 1 (rolled-back) unsent: turn 1 has been resolved since');
    expect(sent.notices).toEqual([]);
    const runtime = (await readRuntime(dir))!;
    expect(runtime.notices.map((n) => [n.kind, n.sent, n.dropped])).toEqual([['rolled-back', false, 'turn 1 has been resolved since']]);
    expect(runtime.log.at(-1)).toMatchObject({ op: 'notice-dropped', detail: 'notice 1 (rolled-back) not sent: turn 1 has been resolved since' });
    expect((await campaignStatus(dir, { clock, hooks: recordingHooks().hooks })).unsentNotices).toBe(0);
  });

  it('nor when the GM resolved the reopened turn by hand before any tick', async () => {
    const { dir, clock, sent, tickAt } = await resolvedTurnOne('stale-by-hand');
    clock.set(new Date('2025-03-23T18:30:00Z'));
    await rollbackTo(dir, 0, { clock });
    await resolveTurnByHand(dir, { clock, expectTurn: 1 });
    await tickAt('2025-03-23T18:40:00Z');
    expect(sent.notices).toEqual([]);
  });

  it('a moved deadline moved again goes out once, with the latest deadline; paused then resumed sends only the resume', async () => {
    const { dir, clock, sent, tickAt } = await resolvedTurnOne('stale-extend');
    clock.set(new Date('2025-03-24T10:00:00Z'));
    await extendDeadline(dir, { clock, by: 24 * HOUR });
    await extendDeadline(dir, { clock, by: 24 * HOUR });
    await pauseCampaign(dir, { clock });
    await resumeCampaign(dir, { clock });
    await tickAt('2025-03-24T10:05:00Z');
    expect(sent.notices.map((n) => [n.kind, n.text])).toEqual([['resumed', 'The game has resumed. Turn 2 is due Tue 1 Apr 2025 18:00 BST.']]);
  });
});
