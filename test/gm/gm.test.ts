import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isPacked } from '../../src/campaign/packed-reports.js';
import { RENDER_INPUTS_FILE } from '../../src/campaign/render-inputs.js';
import { turnRenderers } from '../../src/cli/renderers.js';
import type { TurnRenderer } from '../../src/campaign/turn-renderer.js';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { openCampaign, readState } from '../../src/campaign/store.js';
import { asNationId } from '../../src/core/ids.js';
import { addNation, dropNation, reassignNation } from '../../src/gm/nations.js';
import { commitFiles, recoverJournal } from '../../src/campaign/journal.js';
import { readTokens, secretsPath, setToken, tokenStatus } from '../../src/campaign/secrets.js';
import { extendDeadline, pauseCampaign, resumeCampaign } from '../../src/gm/steering.js';
import { rerunTurn, rollbackTo } from '../../src/gm/turns.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { readRuntime, writeRuntime } from '../../src/schedule/runtime.js';
import { tick } from '../../src/schedule/tick.js';
import { cleanupScratch, demoCopy, NATIONS, recordingHooks, scratchDir, tree, writeOrders } from '../schedule/support.js';
import { setReportSettings } from '../support/campaign-file.js';

afterAll(cleanupScratch);

const HOUR = 3_600_000;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  env = { ...process.env, FATECRAFT_SECRETS: join(scratchDir('secrets'), 'silversheen.secrets.yaml') };
  process.env.FATECRAFT_SECRETS = env.FATECRAFT_SECRETS;
});

/** A campaign ticked through `turns` turns (every nation sending empty orders after turn 1). */
async function played(label: string, turns: number, reports: Record<string, unknown> = {}, renderers: TurnRenderer[] = []) {
  const dir = demoCopy(label);
  setReportSettings(dir, reports);
  const clock = new FakeClock('2025-03-23T17:00:00Z');
  const { hooks, sent } = recordingHooks();
  const extra = renderers.length ? { renderers } : {};
  await tick(dir, { clock, hooks, ...extra });
  for (let t = 1; t <= turns; t++) {
    if (t > 1) writeOrders(dir, t, NATIONS);
    const rt = (await readRuntime(dir))!;
    const due = Date.parse(rt.deadline) + 15 * 60_000;
    // Tick every 4 hours up to the deadline, so the long-gap guard stays quiet.
    while (clock.now().getTime() + 4 * HOUR < due) {
      clock.advance(4 * HOUR);
      await tick(dir, { clock, hooks, ...extra });
    }
    clock.set(new Date(due));
    const o = await tick(dir, { clock, hooks, ...extra });
    expect(o.resolved, o.error).toEqual([t]);
  }
  return { dir, clock, hooks, sent };
}

const turnNames = (dir: string) => readdirSync(join(dir, 'turns')).sort();

describe('rerun', () => {
  it('re-resolves the latest turn from fixed orders and keeps the superseded one', async () => {
    const { dir, clock, hooks, sent } = await played('rerun', 2);
    const before = tree(join(dir, 'turns', '0002'));
    // The GM fixes argenta's orders for turn 2: the Duke's Guard rests instead of holding.
    writeFileSync(join(dir, 'orders', '0002', 'argenta.yaml'), 'nation: argenta\nturn: 2\norders:\n  - rest: Argentum Guard\n');
    const r = await rerunTurn(dir, 2, { clock });
    expect(r.superseded).toBe(join(dir, 'turns', '0002.superseded-1'));
    expect(tree(join(dir, 'turns', '0002.superseded-1'))).toEqual(before);
    expect(readFileSync(join(dir, 'turns', '0002', 'orders', 'argenta.yaml'), 'utf8')).toContain('rest: Argentum Guard');
    expect(turnNames(dir)).toEqual(['0000', '0001', '0002', '0002.superseded-1']);
    // The new reports go out with the next tick, once.
    clock.advance(5 * 60_000);
    await tick(dir, { clock, hooks });
    await tick(dir, { clock, hooks });
    expect(sent.reports.map((x) => [x.turn, x.rerun])).toEqual([[1, 0], [2, 0], [2, 1]]);
    // Again, nothing changed since (--force): a second superseded copy; the pending turn and its deadline are untouched.
    await rerunTurn(dir, 2, { clock, force: true });
    expect(turnNames(dir)).toContain('0002.superseded-2');
    const rt = (await readRuntime(dir))!;
    expect(rt.turn).toBe(3);
    expect(rt.log.filter((l) => l.op === 'rerun')).toHaveLength(2);
  });

  it('from unchanged orders writes the same turn byte for byte, each order file still stored once', async () => {
    const { dir, clock } = await played('rerun-same', 2);
    const before = tree(join(dir, 'turns', '0002'));
    expect(Object.keys(before).some((k) => k.startsWith('orders/'))).toBe(true);
    await rerunTurn(dir, 2, { clock, force: true });
    expect(tree(join(dir, 'turns', '0002'))).toEqual(before);
    expect(tree(join(dir, 'turns', '0002.superseded-1'))).toEqual(before);
    // The new turn and the one it superseded share their order files; orders/0002 has none left.
    for (const name of readdirSync(join(dir, 'turns', '0002', 'orders'))) {
      expect(statSync(join(dir, 'turns', '0002', 'orders', name)).ino).toBe(statSync(join(dir, 'turns', '0002.superseded-1', 'orders', name)).ino);
    }
    expect(readdirSync(join(dir, 'orders', '0002')).filter((n) => n.endsWith('.yaml'))).toEqual([]);
  });

  it('refuses a turn that is not the latest, and says what to do', async () => {
    const { dir, clock } = await played('rerun-old', 2);
    await expect(rerunTurn(dir, 1, { clock })).rejects.toThrow(/turn 1 is not the latest resolved turn \(2 is\).*fatecraft rollback .* 1, then: fatecraft rerun .* 1/);
    await expect(rerunTurn(dir, 3, { clock })).rejects.toThrow(/turn 3 is not resolved yet/);
    expect(turnNames(dir)).toEqual(['0000', '0001', '0002']);
  });

  it('an interrupted rerun stops the tick with the command to finish it, which then completes', async () => {
    const { dir, clock, hooks } = await played('rerun-cut', 1);
    // What a rerun killed between moving the turn aside and writing the new one leaves behind.
    const rt = (await readRuntime(dir))!;
    rt.operation = { kind: 'rerun', turn: 1, startedAt: clock.now().toISOString(), command: `fatecraft rerun ${dir} 1` };
    await writeRuntime(dir, rt);
    const { renameSync } = await import('node:fs');
    renameSync(join(dir, 'turns', '0001'), join(dir, 'turns', '0001.superseded-1'));
    const o = await tick(dir, { clock, hooks });
    expect(o.status).toBe('failed');
    expect(o.error).toContain(`a GM operation was interrupted (rerun 1`);
    expect(o.error).toContain(`fatecraft rerun ${dir} 1`);
    await rerunTurn(dir, 1, { clock });
    expect(turnNames(dir)).toEqual(['0000', '0001', '0001.superseded-1']);
    expect((await tick(dir, { clock, hooks })).status).toBe('ok');
  });
});

describe('rollback', () => {
  it('goes back to a turn, keeping later turns and their orders aside; replaying gives the same turn', async () => {
    const { dir, clock, hooks } = await played('rollback', 2);
    writeOrders(dir, 3, ['argenta']);
    const turn2 = tree(join(dir, 'turns', '0002'));
    const r = await rollbackTo(dir, 1, { clock });
    expect(r.movedTurns).toEqual([2]);
    expect(r.movedOrders).toEqual([3]);
    expect(turnNames(dir)).toEqual(['0000', '0001', '0002.rolledback-1']);
    expect(readdirSync(join(dir, 'orders')).sort()).toEqual(['0001', '0002', '0003.rolledback-1']);
    // Turn 2 is pending again with the orders it was resolved from: copies, so editing them leaves the turn kept aside as it was.
    const kept = readdirSync(join(dir, 'turns', '0002.rolledback-1', 'orders')).sort();
    expect(readdirSync(join(dir, 'orders', '0002')).filter((n) => n.endsWith('.yaml')).sort()).toEqual(kept);
    for (const name of kept) expect(statSync(join(dir, 'orders', '0002', name)).ino).not.toBe(statSync(join(dir, 'turns', '0002.rolledback-1', 'orders', name)).ino);
    const rt = (await readRuntime(dir))!;
    expect(rt.turn).toBe(2);
    expect(rt.deadline).toBe(r.deadline.toISOString());
    expect(rt.notices.at(-1)).toMatchObject({ kind: 'rolled-back', turn: 2, sent: false });
    // Replaying turn 2 from the same orders resolves it the same way.
    const due = new Date(Date.parse(rt.deadline) + 15 * 60_000);
    while (clock.now().getTime() + 4 * HOUR < due.getTime()) {
      clock.advance(4 * HOUR);
      await tick(dir, { clock, hooks });
    }
    clock.set(due);
    expect((await tick(dir, { clock, hooks })).resolved).toEqual([2]);
    expect(tree(join(dir, 'turns', '0002'))).toEqual(turn2);
    await expect(rollbackTo(dir, 2, { clock })).rejects.toThrow(/already at turn 2/);
    await expect(rollbackTo(dir, 5, { clock })).rejects.toThrow(/turn 5 is not resolved/);
  });
});

describe('over packed turns (reports.keepTurns: 1)', () => {
  it('rerun gives the same bytes; rollback to a packed turn and replaying give the same turn', async () => {
    const renderers = turnRenderers();
    const { dir, clock, hooks } = await played('packed', 2, { keepTurns: 1 }, renderers);
    expect([isPacked(join(dir, 'turns', '0001')), isPacked(join(dir, 'turns', '0002'))]).toEqual([true, false]);
    expect(existsSync(join(dir, 'turns', '0001', 'reports'))).toBe(false);
    // A rerun's render inputs gain its own GM's log line ("resolved again"); every other byte is the same.
    const turn2Files = () => tree(join(dir, 'turns', '0002'), (rel) => rel === RENDER_INPUTS_FILE);
    const turn2 = turn2Files();
    const turn1 = tree(join(dir, 'turns', '0001'));
    await rerunTurn(dir, 2, { clock, renderers, force: true });
    expect(turn2Files()).toEqual(turn2);
    await rollbackTo(dir, 1, { clock });
    expect(tree(join(dir, 'turns', '0001'))).toEqual(turn1);
    const rt = (await readRuntime(dir))!;
    const due = new Date(Date.parse(rt.deadline) + 15 * 60_000);
    while (clock.now().getTime() + 4 * HOUR < due.getTime()) {
      clock.advance(4 * HOUR);
      await tick(dir, { clock, hooks, renderers });
    }
    clock.set(due);
    expect((await tick(dir, { clock, hooks, renderers })).resolved).toEqual([2]);
    // The same turn; only the next deadline its reports print is the replay's own (a week on).
    const deadlines = (t: Record<string, string>) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v.replace(/\w{3} \d+ \w{3} \d{4} \d\d:\d\d \w+/g, 'DEADLINE')]));
    expect(deadlines(turn2Files())).toEqual(deadlines(turn2));
    const own = (t: Record<string, string>) => Object.fromEntries(Object.entries(t).filter(([k]) => !k.startsWith('reports/')));
    expect(own(turn2Files())).toEqual(own(turn2));
    expect(tree(join(dir, 'turns', '0001'))).toEqual(turn1);
  });
});

describe('extend, pause, resume', () => {
  it('extend moves the deadline, reopens reminders not yet due, and the players hear of it once', async () => {
    const dir = demoCopy('extend');
    const { rmSync } = await import('node:fs');
    rmSync(join(dir, 'orders', '0001', 'westvalia.yaml'));
    const clock = new FakeClock('2025-03-23T12:30:00Z');
    const { hooks, sent } = recordingHooks();
    await tick(dir, { clock, hooks }); // the 6h reminder (48h skipped as overdue)
    expect(sent.reminders.map((r) => r.label)).toEqual(['6h']);
    const r = await extendDeadline(dir, { clock, by: 48 * HOUR });
    expect(r.to.toISOString()).toBe('2025-03-25T18:00:00.000Z');
    expect(r.remindersReopened).toEqual(['48h', '6h']);
    await expect(extendDeadline(dir, { clock, to: new Date('2025-03-01T00:00:00Z') })).rejects.toThrow(/not in the future/);
    clock.set('2025-03-23T16:00:00Z');
    await tick(dir, { clock, hooks });
    expect(sent.reminders.map((x) => x.label)).toEqual(['6h']);
    clock.set('2025-03-23T18:00:00Z');
    await tick(dir, { clock, hooks }); // 48h before the new deadline
    await tick(dir, { clock, hooks });
    expect(sent.reminders.map((x) => x.label)).toEqual(['6h', '48h']);
    expect(sent.notices.map((n) => n.kind)).toEqual(['deadline-changed']);
    expect(sent.notices[0]!.text).toContain('Tue 25 Mar 2025 18:00 GMT');
  });

  it('pause stops reminders and resolution; resume carries on', async () => {
    const dir = demoCopy('pause');
    const clock = new FakeClock('2025-03-23T17:00:00Z');
    const { hooks, sent } = recordingHooks();
    await tick(dir, { clock, hooks });
    await pauseCampaign(dir, { clock, reason: 'GM ill' });
    await expect(pauseCampaign(dir, { clock })).rejects.toThrow(/already paused/);
    clock.set('2025-03-23T18:30:00Z');
    expect((await tick(dir, { clock, hooks })).resolved).toEqual([]);
    expect(sent.fetches).toBe(2); // mail is still read
    const r = await resumeCampaign(dir, { clock });
    expect(r).toMatchObject({ wasPaused: true, dueNow: true });
    clock.advance(5 * 60_000);
    expect((await tick(dir, { clock, hooks })).resolved).toEqual([1]);
    // "Turn 1 is due ..." from the resume was untrue once that tick had resolved turn 1: dropped, not sent.
    expect(sent.notices.map((n) => n.kind)).toEqual(['paused']);
    const log = (await readRuntime(dir))!.log.map((l) => l.op);
    expect(log).toEqual(['start', 'pause', 'resume', 'resolved', 'notice-dropped']);
  });
});

describe('nations mid-campaign', () => {
  const SHEET = {
    name: 'Skarn Reavers',
    leader: 'Skarn the Grey',
    caps: { military: 4, diplomatic: 1 },
    start: { renown: 20, fate: 2, prosperity: 0, happiness: 0 },
    unitTypes: { raider: { name: 'Reaver Band', class: 'infantry', speed: 2 } },
    settlements: [{ id: 'skarnhold', name: 'Skarnhold', level: 'village', hex: '2,18' }],
    units: [{ id: 'skarn-1', type: 'raider', name: 'First Band', hex: '2,18' }],
  };

  it('adds a nation to campaign.yaml (comments kept) and to the latest state, with a token', async () => {
    const { dir, clock, hooks, sent } = await played('add', 1);
    const r = await addNation(dir, 'skarn', { clock, sheet: SHEET, email: ['skarn@game.test'], env });
    expect(r.turn).toBe(1);
    const text = readFileSync(join(dir, 'campaign.yaml'), 'utf8');
    expect(text).toContain('# The Silversheen Sea — the Fatecraft demo campaign.');
    expect(text).toContain('skarn:');
    const open = await openCampaign(dir);
    const state = await readState(dir, 1, open.campaign);
    expect(state.units[asNationId('skarn-1') as never]).toMatchObject({ nation: 'skarn', hex: '2,18' });
    expect(state.nations[asNationId('skarn')]).toMatchObject({ renown: 20, alive: true });
    expect(existsSync(join(dir, 'turns', '0001', 'state.before-add-skarn-1.yaml'))).toBe(true);
    expect((await readTokens('silversheen', env)).skarn).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5}$/);
    await expect(addNation(dir, 'skarn', { clock, sheet: SHEET, email: ['x@y.test'], env })).rejects.toThrow(/already a nation "skarn"/);
    await expect(addNation(dir, 'other', { clock, sheet: { ...SHEET, units: [{ id: 'skarn-1', type: 'raider', hex: '3,18' }], settlements: [] }, email: ['x@y.test'], env })).rejects.toThrow(/unit id\(s\) skarn-1 are already in use/);
    // The newcomer is expected for turn 2: without its orders the turn still resolves (1 of 6 missing).
    clock.advance(HOUR);
    await tick(dir, { clock, hooks });
    expect(sent.notices.map((n) => [n.kind, n.nations])).toEqual([['nation-added', ['skarn']]]);
  });

  it('drops a nation whose units then hold: no reminders, not counted by the NMR guard, token retired', async () => {
    const { dir, clock, hooks, sent } = await played('drop-hold', 1);
    await setToken('silversheen', dir, 'argenta', 'old-argenta-token', env);
    await dropNation(dir, 'argenta', { clock, mode: 'hold', env });
    await expect(dropNation(dir, 'argenta', { clock, mode: 'hold', env })).rejects.toThrow(/already dropped/);
    const open = await openCampaign(dir);
    expect(open.file.nations.argenta!.email).toEqual([]);
    expect((await readTokens('silversheen', env)).argenta).toBeUndefined();
    const rt = (await readRuntime(dir))!;
    expect(tokenStatus(undefined, rt.retiredTokens.argenta!, 'old-argenta-token')).toBe('unset');
    writeOrders(dir, 2, ['gondarahl', 'grarkul']); // 2 of the 4 remaining: not more than half missing
    clock.set('2025-03-28T17:00:00Z');
    await tick(dir, { clock, hooks });
    expect(sent.reminders.at(-1)!.nations).toEqual(['vulcanstille', 'westvalia']);
    for (const t of ['2025-03-28T21:00:00Z', '2025-03-29T01:00:00Z', '2025-03-29T05:00:00Z', '2025-03-29T09:00:00Z', '2025-03-29T13:00:00Z', '2025-03-29T17:00:00Z', '2025-03-29T21:00:00Z', '2025-03-30T01:00:00Z', '2025-03-30T05:00:00Z', '2025-03-30T09:00:00Z', '2025-03-30T13:00:00Z', '2025-03-30T17:15:00Z']) {
      clock.set(t);
      await tick(dir, { clock, hooks });
    }
    expect(turnNames(dir)).toContain('0002');
    const state = await readState(dir, 2, open.campaign);
    expect(state.nations[asNationId('argenta')]!.missedTurns).toBe(1);
  });

  it('drops a nation to neutral: units, settlements and works change hands and the game goes on', async () => {
    const { dir, clock, hooks } = await played('drop-neutral', 1);
    const before = await readState(dir, 1, (await openCampaign(dir)).campaign);
    const argentaUnits = Object.values(before.units).filter((u) => u.nation === 'argenta').length;
    const r = await dropNation(dir, 'argenta', { clock, mode: 'neutral', env });
    expect(r.moved!.units).toBe(argentaUnits);
    const open = await openCampaign(dir);
    expect(open.file.nations.neutral).toMatchObject({ name: 'Neutral', email: [] });
    const state = await readState(dir, 1, open.campaign);
    expect(Object.values(state.units).filter((u) => u.nation === 'argenta')).toEqual([]);
    expect(Object.values(state.units).filter((u) => u.nation === 'neutral')).toHaveLength(argentaUnits);
    const rt = (await readRuntime(dir))!;
    expect(rt.dropped).toMatchObject({ argenta: { mode: 'neutral' }, neutral: { mode: 'hold' } });
    writeOrders(dir, 2, ['gondarahl', 'grarkul', 'vulcanstille', 'westvalia']);
    clock.set('2025-03-27T17:00:00Z');
    await tick(dir, { clock, hooks });
    for (let t = Date.parse('2025-03-27T21:00:00Z'); t < Date.parse('2025-03-30T17:15:00Z'); t += 4 * HOUR) {
      clock.set(new Date(t));
      await tick(dir, { clock, hooks });
    }
    clock.set('2025-03-30T17:15:00Z');
    const o = await tick(dir, { clock, hooks });
    expect(o.resolved, o.error).toEqual([2]);
    const after = await readState(dir, 2, open.campaign);
    expect(after.nations[asNationId('argenta')]!.alive).toBe(false); // fell: it holds nothing any more
  });

  it('reassigns a nation: new address and token, the old token refused as replaced, other secrets kept', async () => {
    const dir = demoCopy('reassign');
    const clock = new FakeClock('2025-03-20T10:00:00Z');
    writeFileSync(env.FATECRAFT_SECRETS!, '# mine\nargenta: old-token\ngondarahl: gond-token\nFATECRAFT_IMAP_PASSWORD: hunter2\n', { mode: 0o600 });
    const before = (await openCampaign(dir)).file.nations.argenta!.email;
    const r = await reassignNation(dir, 'argenta', { clock, email: ['new.duke@game.test'], env });
    expect(r.previous).toEqual(before);
    const file = readFileSync(secretsPath('silversheen', env), 'utf8');
    expect(file).toContain('# mine');
    expect(file).toContain('FATECRAFT_IMAP_PASSWORD: hunter2');
    expect(file).toContain('gondarahl: gond-token');
    const tokens = await readTokens('silversheen', env);
    expect(tokens.argenta).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5}$/);
    const rt = (await readRuntime(dir))!;
    expect(tokenStatus(tokens.argenta, rt.retiredTokens.argenta!, 'old-token')).toBe('retired');
    expect(tokenStatus(tokens.argenta, rt.retiredTokens.argenta!, tokens.argenta)).toBe('ok');
    expect(tokenStatus(tokens.argenta, rt.retiredTokens.argenta!, 'guess')).toBe('wrong');
    expect((await openCampaign(dir)).file.nations.argenta!.email).toEqual(['new.duke@game.test']);
    expect(rt.notices.at(-1)).toMatchObject({ kind: 'nation-reassigned', nations: ['argenta'] });
    await expect(reassignNation(dir, 'argenta', { clock, email: ['not an address'], env })).rejects.toThrow(/does not look like a mail address/);
  });
});

describe('the journal', () => {
  it('finishes a multi-file write interrupted after its journal', async () => {
    const dir = scratchDir('journal');
    writeFileSync(join(dir, 'a.txt'), 'old a');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'b.txt'), 'old b');
    // As commitFiles leaves it when killed after writing the journal and one rename.
    writeFileSync(join(dir, 'a.txt'), 'new a');
    writeFileSync(join(dir, 'sub', 'b.txt.gm-new'), 'new b');
    writeFileSync(join(dir, '.gm-journal.json'), JSON.stringify({ renames: [['a.txt.gm-new', 'a.txt'], ['sub/b.txt.gm-new', 'sub/b.txt']] }));
    expect(await recoverJournal(dir)).toEqual(['a.txt', 'sub/b.txt']);
    expect(readFileSync(join(dir, 'sub', 'b.txt'), 'utf8')).toBe('new b');
    expect(existsSync(join(dir, '.gm-journal.json'))).toBe(false);
    await commitFiles(dir, [{ path: 'a.txt', content: 'newer a' }, { path: 'sub/b.txt', content: 'newer b' }]);
    expect(readdirSync(dir).sort()).toEqual(['a.txt', 'sub']);
    expect(await recoverJournal(dir)).toEqual([]);
  });
});
