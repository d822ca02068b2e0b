import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { turnRenderers } from '../../src/cli/renderers.js';
import { dropNation } from '../../src/gm/nations.js';
import { extendDeadline, pauseCampaign, resumeCampaign } from '../../src/gm/steering.js';
import { rerunTurn, rollbackTo } from '../../src/gm/turns.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { readRuntime } from '../../src/schedule/runtime.js';
import { tick } from '../../src/schedule/tick.js';
import { cleanupScratch, demoCopy, recordingHooks, scratchDir } from '../schedule/support.js';
import { setReportSettings } from '../support/campaign-file.js';
import { runInProcess } from '../support/command-line.js';

/**
 * The GM's log the players read (campaign.yaml `reports.gmLog: true`): every operation that changed the game
 * outside the rules is listed, with the GM's reason, in the next reports — those of the turn it concerns.
 */
beforeAll(() => {
  process.env.FATECRAFT_SECRETS = join(scratchDir('gm-log-secrets'), 'silversheen.secrets.yaml');
});
afterAll(cleanupScratch);

const HOUR = 3_600_000;
const withGmLog = (label: string) => {
  const dir = demoCopy(label);
  setReportSettings(dir, { gmLog: true });
  return dir;
};
const gmLogOf = (dir: string, nation: string) => {
  const text = readFileSync(join(dir, 'turns', '0001', 'reports', `${nation}.txt`), 'utf8');
  const at = text.indexOf("== THE GM'S LOG ==");
  return at < 0 ? '' : text.slice(at, text.indexOf('== TREASURY =='));
};

/** Ticks every four hours (so no long-gap guard) up to `until`, then once at `until`. */
async function tickUntil(dir: string, clock: FakeClock, until: string) {
  const { hooks } = recordingHooks();
  const renderers = turnRenderers();
  while (clock.now().getTime() + 4 * HOUR < Date.parse(until)) {
    clock.advance(4 * HOUR);
    expect((await tick(dir, { clock, hooks, renderers })).status).toBe('ok');
  }
  clock.set(new Date(until));
  return tick(dir, { clock, hooks, renderers });
}

describe("the GM's log in the players' reports", () => {
  it('lists extend, pause, resume, a dropped nation, a rerun and a rollback with their reasons, in the reports of the turn', async () => {
    const dir = withGmLog('gm-log');
    const clock = new FakeClock('2025-03-22T12:00:00Z'); // turn 1 is due Sunday 23 March, 18:00 London
    const { hooks } = recordingHooks();
    expect((await tick(dir, { clock, hooks })).status).toBe('ok');
    await extendDeadline(dir, { clock, by: 24 * HOUR, reason: 'the mail server was down on Saturday' });
    await pauseCampaign(dir, { clock, reason: 'the GM is ill' });
    await resumeCampaign(dir, { clock, reason: 'the GM is back' });
    await dropNation(dir, 'westvalia', { clock, mode: 'hold', reason: 'the player left the game' });
    const resolved = await tickUntil(dir, clock, '2025-03-24T18:15:00Z');
    expect(resolved.resolved, resolved.lines.join('\n')).toEqual([1]);

    const log = [
      "== THE GM'S LOG ==",
      '',
      '- The deadline of turn 1 was moved from Sun 23 Mar 2025 18:00 GMT to Mon 24 Mar 2025 18:00 GMT. Reason: the mail server was down on Saturday',
      '- The game was paused during turn 1. Reason: the GM is ill',
      '- The game resumed; turn 1 was due Mon 24 Mar 2025 18:00 GMT. Reason: the GM is back',
      '- West Valia lost its player: its forces stand where they are and only defend. Reason: the player left the game',
    ].join('\n');
    // The demo's orders/0001/_gm.yaml sends Gondarahl a roll and West Valia a task: the others read only that it happened.
    const gmFile = '- The GM sent an event to 2 other nations.';
    expect(gmLogOf(dir, 'argenta')).toBe(`${log}\n${gmFile}\n\n`);
    expect(gmLogOf(dir, 'grarkul')).toBe(`${log}\n${gmFile}\n\n`);
    // The GM's own log has the reasons too.
    const runtime = (await readRuntime(dir))!;
    expect(runtime.log.find((l) => l.op === 'extend')).toMatchObject({ reason: 'the mail server was down on Saturday', players: { turn: 1 } });

    // The corrected reports say why they replace the first ones.
    clock.advance(HOUR);
    await rerunTurn(dir, 1, { clock, renderers: turnRenderers(), force: true, reason: "argenta's orders had been filed under gondarahl" });
    expect(gmLogOf(dir, 'argenta')).toBe(`${log}\n- Turn 1 was resolved again: these reports replace the ones sent first. Reason: argenta's orders had been filed under gondarahl\n${gmFile}\n\n`);

    // Rolled back to the start: turn 1's reports, when it is resolved anew, say so.
    clock.advance(HOUR);
    const back = await rollbackTo(dir, 0, { clock, reason: 'the map had a wrong river' });
    const again = await tickUntil(dir, clock, new Date(back.deadline.getTime() + 15 * 60_000).toISOString());
    expect(again.resolved, again.lines.join('\n')).toEqual([1]);
    expect(gmLogOf(dir, 'argenta')).toContain('- The game was rolled back to the end of turn 0; turn 1 is resolved anew. Reason: the map had a wrong river\n');
  });

  it('is off by default: the reports have no GM\'s log', async () => {
    const dir = demoCopy('no-gm-log');
    const clock = new FakeClock('2025-03-22T12:00:00Z');
    expect((await tick(dir, { clock, hooks: recordingHooks().hooks })).status).toBe('ok');
    await extendDeadline(dir, { clock, by: HOUR, reason: 'a little more time' });
    expect((await tickUntil(dir, clock, '2025-03-23T19:15:00Z')).resolved).toEqual([1]);
    expect(gmLogOf(dir, 'argenta')).toBe('');
  });

  it('every GM command takes --reason; `fatecraft turn` lists it too', async () => {
    const dir = withGmLog('gm-log-cli');
    const run = (args: string[]) => runInProcess(args, { env: { FATECRAFT_NOW: '2025-03-22T12:00:00Z' } });
    expect((await run(['tick', dir])).status).toBe(0);
    const extended = await run(['extend', dir, '--by', '2h', '--reason', 'a storm']);
    expect(extended.status, extended.stderr).toBe(0);
    expect(readFileSync(join(dir, 'runtime.yaml'), 'utf8')).toContain('reason: a storm');
    expect((await run(['status', dir])).stdout).toContain('(reason: a storm)');
    // Resolved by hand (`fatecraft turn`), the reports carry the GM's log as a tick's would.
    const turned = await run(['turn', dir]);
    expect(turned.status, turned.stderr).toBe(0);
    expect(gmLogOf(dir, 'westvalia')).toContain('- The deadline of turn 1 was moved from Sun 23 Mar 2025 18:00 GMT to Sun 23 Mar 2025 20:00 GMT. Reason: a storm\n');
    for (const command of [['extend'], ['pause'], ['resume'], ['rerun'], ['rollback'], ['nation', 'add'], ['nation', 'drop'], ['nation', 'reassign']]) {
      expect((await run([...command, '--help'])).stdout, command.join(' ')).toContain('--reason <text>');
    }
  });
});
