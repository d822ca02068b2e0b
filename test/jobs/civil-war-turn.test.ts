import { RENDER_INPUTS_FILE } from '../../src/campaign/render-inputs.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { openCampaign, readState } from '../../src/campaign/store.js';
import { turnRenderers } from '../../src/cli/renderers.js';
import { asNationId } from '../../src/core/ids.js';
import { rerunTurn } from '../../src/gm/turns.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { campaignStatus } from '../../src/schedule/status.js';
import { tick } from '../../src/schedule/tick.js';
import { resolveNext } from '../schedule/resolve-next.js';
import { cleanupScratch, demoCopy, NATIONS, recordingHooks, tree, writeOrders } from '../schedule/support.js';

/**
 * Civil war as an event effect (docs/rules.md L3), through the shell: a nation in waiting declared in
 * campaign.yaml mid-game, a GM's one-off event with the `civil_war` effect, the turn resolved by the schedule;
 * the campaign still loads, the next turn runs, and a rerun writes the same bytes.
 */
afterAll(cleanupScratch);

const renderers = turnRenderers();

describe('a civil war drawn in a turn', () => {
  it('splits the nation inside the turn, leaves a campaign that loads and plays on, and reruns byte for byte', async () => {
    const dir = demoCopy('civil-war-event');
    const clock = new FakeClock('2025-03-23T17:00:00Z');
    await tick(dir, { clock, hooks: recordingHooks().hooks });
    await resolveNext(dir, clock, 1, renderers);

    // The GM declares the nation in waiting (no player: the GM holds it) and writes the war into turn 2.
    const file = join(dir, 'campaign.yaml');
    const doc = parseDocument(readFileSync(file, 'utf8'));
    doc.setIn(['nations', 'ashfree'], doc.createNode({ name: 'The Free Cities of Ash', leader: 'Warden Oska', ability: 'Rose against the slavers.', caps: { military: 6, diplomatic: 2 }, start: { renown: 0, fate: 0, prosperity: 0, happiness: 0 }, breaksFrom: 'vulcanstille' }));
    writeFileSync(file, doc.toString());
    writeOrders(dir, 2, NATIONS);
    writeFileSync(
      join(dir, 'orders', '0002', '_gm.yaml'),
      'turn: 2\nactions:\n  - { kind: event, nation: vulcanstille, title: The slave revolt, text: "The chains break in {nation}.", tone: bad, effects: [{ civil_war: { into: ashfree, settlements: 1, happiness: 2 } }] }\n',
    );
    const open = await openCampaign(dir);
    const before = await readState(dir, 1, open.campaign);
    const vulcan = asNationId('vulcanstille');
    expect(before.nations[asNationId('ashfree')]).toMatchObject({ alive: false }); // declared after turn 1: out of play, with nothing
    const standing = async () => (await campaignStatus(dir, { clock })).nations.find((n) => n.id === 'ashfree')?.standing;
    expect(await standing()).toBe('dormant');

    await resolveNext(dir, clock, 2, renderers);
    const after = await readState(dir, 2, (await openCampaign(dir)).campaign);
    const free = asNationId('ashfree');
    const gone = Object.values(after.settlements).filter((s) => s.nation === free);
    expect(gone).toHaveLength(1);
    expect(before.settlements[gone[0]!.id]!.nation).toBe(vulcan);
    expect(gone[0]!.level).not.toBe('capital');
    expect(after.nations[free]).toMatchObject({ alive: true, happiness: 2 });
    expect(Object.values(after.settlements).some((s) => s.nation === vulcan)).toBe(true);
    expect(await standing()).toBe('waiting'); // in play, owing orders: the GM holds it until a player is found

    const report = (turn: string, n: string) => readFileSync(join(dir, 'turns', turn, 'reports', `${n}.txt`), 'utf8');
    expect(report('0002', 'vulcanstille')).toContain(`Civil war (The slave revolt): The Free Cities of Ash, under Warden Oska, broke away from Vulcanstille, taking ${gone[0]!.name}`);
    expect(report('0002', 'ashfree')).toContain('Warden Oska raises the banner of The Free Cities of Ash against Vulcanstille');
    expect(report('0002', 'argenta')).toContain('Word spreads of civil war: The Free Cities of Ash has broken away from Vulcanstille.');

    // A rerun of the turn writes the same bytes: nothing outside the turn changed.
    // (The inputs the reports were rendered with gain the GM's log line of the rerun itself.)
    const played = (): Record<string, unknown> => {
      const all = tree(join(dir, 'turns', '0002'));
      delete all[RENDER_INPUTS_FILE];
      return all;
    };
    const turn2 = played();
    await rerunTurn(dir, 2, { clock, renderers, force: true });
    expect(played()).toEqual(turn2);

    // The next turn runs, the new nation in it (no orders: the GM holds it).
    writeOrders(dir, 3, NATIONS);
    await resolveNext(dir, clock, 3, renderers);
    const third = await readState(dir, 3, (await openCampaign(dir)).campaign);
    expect(third.nations[free]?.alive).toBe(true);
    expect(Object.values(third.settlements).filter((s) => s.nation === free)).toHaveLength(1);
  });
});
