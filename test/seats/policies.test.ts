import type { NationId } from '../../src/core/ids.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readState, turnDirName, openCampaign } from '../../src/campaign/store.js';
import { resumeCampaign } from '../../src/gm/steering.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { readRuntime } from '../../src/schedule/runtime.js';
import { tick } from '../../src/schedule/tick.js';
import { campaignStatus, formatStatus } from '../../src/schedule/status.js';
import { cleanupScratch, demoCopy, recordingHooks, writeOrders, type Recorded } from '../schedule/support.js';

/**
 * The missing-player policy through the schedule (issue 35; docs/operations.md, "Missing players"): the
 * demo by ticks, every nation sending orders each turn but Grarkul, silent after turn 1. With the default
 * rules.nmrFlagAfter of 2, turns 2 and 3 are its misses; turn 4 opens with its seat due to the policy (the
 * warning goes out then), and turn 4 is the first a policy plays.
 */
afterAll(cleanupScratch);

const OTHERS = ['argenta', 'gondarahl', 'vulcanstille', 'westvalia'];
/** Each turn's deadline plus grace, and a few minutes: the tick that resolves it (London: BST from 30 March). */
const AFTER = ['', '2025-03-23T18:20:00Z', '2025-03-30T17:20:00Z', '2025-04-06T17:20:00Z', '2025-04-13T17:20:00Z', '2025-04-20T17:20:00Z'];
/** The guard stays out of it: four of five nations send orders every turn. */
const SCHEDULE = `  deadline: "0 18 * * 0"
  timeZone: Europe/London
  reminders: [48h]
  grace: 15m
  maxTickGap: 4w
  firstDeadline: 2025-03-23T18:00:00Z
`;

function campaignWith(label: string, seats: string): string {
  const dir = demoCopy(label, SCHEDULE);
  writeFileSync(join(dir, 'campaign.yaml'), `${readFileSync(join(dir, 'campaign.yaml'), 'utf8')}\nseats:\n${seats}`);
  return dir;
}

/** Ticks through turns `from`..`to`: before each deadline the other four nations' orders are on file. */
async function playTurns(dir: string, sent: Recorded, hooks: Parameters<typeof tick>[1]['hooks'], from: number, to: number, clock: FakeClock): Promise<void> {
  for (let turn = from; turn <= to; turn++) {
    if (turn > 1) writeOrders(dir, turn, OTHERS);
    clock.set(AFTER[turn]!);
    const out = await tick(dir, { clock, hooks });
    expect(out.status, out.error).toBe('ok');
    expect(out.resolved, `turn ${turn}: ${out.lines.join('; ')}`).toEqual([turn]);
  }
  void sent;
}

const kept = (dir: string, turn: number) => join(dir, 'turns', turnDirName(turn), 'orders');

describe('the missing-player policy', () => {
  it('hold (the default): the silent nation holds, nobody is warned, nothing is filed in its name', async () => {
    const dir = campaignWith('hold', '  policy: hold\n');
    const clock = new FakeClock('2025-03-20T12:00:00Z');
    const { hooks, sent } = recordingHooks();
    await playTurns(dir, sent, hooks, 1, 4, clock);
    expect(sent.notices.filter((n) => n.kind === 'seat-warning')).toEqual([]);
    expect(existsSync(join(kept(dir, 4), 'grarkul.caretaker.yaml'))).toBe(false);
    const { campaign } = await openCampaign(dir);
    const state = await readState(dir, 4, campaign);
    expect(state.nations['grarkul' as NationId]).toMatchObject({ missedTurns: 3 });
    expect(state.nations['grarkul' as NationId]!.seat).toBeUndefined();
  });

  it('caretaker: the quiet player is warned when the turn opens at whose deadline it strikes; its orders are filed for the GM to read; then played', async () => {
    const dir = campaignWith('caretaker', '  policy: caretaker\n');
    const clock = new FakeClock('2025-03-20T12:00:00Z');
    const { hooks, sent } = recordingHooks();
    await playTurns(dir, sent, hooks, 1, 3, clock);
    // Turn 4 is open: one warning, to Grarkul only, naming the campaign, the turn, what will happen and how to stop it.
    const warnings = sent.notices.filter((n) => n.kind === 'seat-warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ turn: 4, nations: ['grarkul'] });
    expect(warnings[0]!.text).toBe(
      [
        'The Silversheen Sea: The Grarkul Tribes has sent no orders for 2 turns in a row.',
        '',
        'If no orders from you reach us by the deadline of turn 4, Sun 13 Apr 2025 18:00 BST, then from turn 4 on a caretaker will give your nation its orders: it defends your settlements, keeps your work going and raises troops, and starts no war.',
        '',
        'To stop it, send your orders for turn 4 (any orders will do: one line holding a unit is enough), or a mail with the word "back": your forces then hold this turn, and the nation stays yours.',
        'If you cannot play on, tell the GM: someone from the standby list can take your seat.',
      ].join('\n'),
    );
    // Filed before the deadline, where the GM reads (and may replace) it.
    const filed = join(dir, 'orders', '0004', 'grarkul.caretaker.yaml');
    const filedText = readFileSync(filed, 'utf8');
    expect(filedText).toMatch(/^# Orders of The Grarkul Tribes for turn 4, given by a caretaker \(steward\)/);
    const status = formatStatus(await campaignStatus(dir, { clock, hooks }));
    expect(status).toContain('grarkul: caretaker takes the seat at this deadline unless orders come; 2 turns without orders');
    await playTurns(dir, sent, hooks, 4, 5, clock);
    // The turn kept the file it used; the seat is the caretaker's, and no second warning went out.
    expect(readFileSync(join(kept(dir, 4), 'grarkul.caretaker.yaml'), 'utf8')).toBe(filedText);
    expect(existsSync(join(kept(dir, 5), 'grarkul.caretaker.yaml'))).toBe(true);
    expect(sent.notices.filter((n) => n.kind === 'seat-warning')).toHaveLength(1);
    const { campaign } = await openCampaign(dir);
    expect((await readState(dir, 5, campaign)).nations['grarkul' as NationId]).toMatchObject({ missedTurns: 4, seat: { policy: 'caretaker', since: 4 } });
    // Its player's record: turn 1 on time, turns 2–5 missed.
    const rt = (await readRuntime(dir))!;
    expect(rt.seats?.grarkul).toEqual([expect.objectContaining({ fromTurn: 1, onTime: 1, missed: 4, excused: 0 })]);
    expect(rt.seats?.argenta).toEqual([expect.objectContaining({ onTime: 5, missed: 0 })]);
  });

  it('caretaker: orders from the player (or a "back") before the deadline replace the caretaker\'s, and the seat stays the player\'s', async () => {
    const dir = campaignWith('caretaker-back', '  policy: caretaker\n');
    const clock = new FakeClock('2025-03-20T12:00:00Z');
    const { hooks, sent } = recordingHooks();
    await playTurns(dir, sent, hooks, 1, 3, clock);
    writeOrders(dir, 4, ['grarkul']); // what a "back" mail files: orders that hold everything
    await playTurns(dir, sent, hooks, 4, 4, clock);
    const { campaign } = await openCampaign(dir);
    const state = await readState(dir, 4, campaign);
    expect(state.nations['grarkul' as NationId]!.missedTurns).toBe(0);
    expect(state.nations['grarkul' as NationId]!.seat).toBeUndefined();
    // The caretaker's file was kept with the turn, unused: the player's own wins.
    expect(existsSync(join(kept(dir, 4), 'grarkul.yaml'))).toBe(true);
  });

  it('disorder: the nation only defends, builds nothing, and its Happiness drifts down each turn', async () => {
    const dir = campaignWith('disorder', '  policy: disorder\n');
    const clock = new FakeClock('2025-03-20T12:00:00Z');
    const { hooks, sent } = recordingHooks();
    await playTurns(dir, sent, hooks, 1, 5, clock);
    expect(sent.notices.find((n) => n.kind === 'seat-warning')!.text).toContain('your nation falls into civil disorder: its forces only defend, nothing is built, and its Happiness drifts down each turn');
    const { campaign } = await openCampaign(dir);
    const h = async (t: number) => (await readState(dir, t, campaign)).nations['grarkul' as NationId]!.happiness;
    const drift = async (t: number) => (await readFile(join(dir, 'turns', turnDirName(t), 'events.yaml'), 'utf8')).includes('civil disorder: no one rules');
    expect([await drift(3), await drift(4), await drift(5)]).toEqual([false, true, true]);
    expect(await h(5)).toBeLessThan(await h(3));
    for (const turn of [4, 5]) {
      const text = readFileSync(join(kept(dir, turn), 'grarkul.disorder.yaml'), 'utf8');
      expect(text).not.toMatch(/build|move|attack/);
    }
    expect((await readState(dir, 5, campaign)).nations['grarkul' as NationId]!.seat).toEqual({ policy: 'disorder', since: 4 });
  });

  it('pause, then caretaker: the turn waits for the seat up to pauseLimit past its deadline, then the next policy plays it', async () => {
    const dir = campaignWith('pause', '  policy: [pause, caretaker]\n  pauseLimit: 2d\n');
    const clock = new FakeClock('2025-03-20T12:00:00Z');
    const { hooks, sent } = recordingHooks();
    await playTurns(dir, sent, hooks, 1, 3, clock);
    expect(sent.notices.find((n) => n.kind === 'seat-warning')!.text).toContain('the game waits for a new player to take your nation; if no one has taken it after a while, a caretaker will give your nation its orders');
    writeOrders(dir, 4, OTHERS);
    // Turn 4's deadline passes: held, and the GM told once.
    clock.set(AFTER[4]!);
    let out = await tick(dir, { clock, hooks });
    expect(out.resolved).toEqual([]);
    expect(out.lines.join('\n')).toContain('turn 4 held: turn 4 waits for a player to take grarkul (seats policy: pause)');
    expect(sent.alerts.filter((a) => a.kind === 'seat-pause')).toHaveLength(1);
    clock.set('2025-04-15T12:00:00Z');
    out = await tick(dir, { clock, hooks });
    expect(out.resolved).toEqual([]);
    expect(sent.alerts.filter((a) => a.kind === 'seat-pause')).toHaveLength(1);
    // Two days past the deadline and grace: the caretaker plays the seat.
    clock.set('2025-04-15T17:20:00Z');
    out = await tick(dir, { clock, hooks });
    expect(out.resolved).toEqual([4]);
    expect(existsSync(join(kept(dir, 4), 'grarkul.caretaker.yaml'))).toBe(true);
  });

  it('pause: orders for the seat while the turn waits end the wait at the next tick, and so does the GM\'s resume', async () => {
    for (const how of ['orders', 'resume'] as const) {
      const dir = campaignWith(`pause-${how}`, '  policy: [pause, disorder]\n  pauseLimit: 1w\n');
      const clock = new FakeClock('2025-03-20T12:00:00Z');
      const { hooks, sent } = recordingHooks();
      await playTurns(dir, sent, hooks, 1, 3, clock);
      writeOrders(dir, 4, OTHERS);
      clock.set(AFTER[4]!);
      expect((await tick(dir, { clock, hooks })).resolved).toEqual([]);
      if (how === 'orders') writeOrders(dir, 4, ['grarkul']); // a new player took the seat and sent orders
      else await resumeCampaign(dir, { clock });
      clock.set('2025-04-14T09:00:00Z');
      expect((await tick(dir, { clock, hooks })).resolved, how).toEqual([4]);
      const { campaign } = await openCampaign(dir);
      const seat = (await readState(dir, 4, campaign)).nations['grarkul' as NationId]!.seat;
      if (how === 'orders') expect(seat).toBeUndefined();
      else expect(seat).toEqual({ policy: 'disorder', since: 4 });
    }
  });
});
