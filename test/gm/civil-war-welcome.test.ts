import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { openCampaign, readState } from '../../src/campaign/store.js';
import { asNationId } from '../../src/core/ids.js';
import { offerSeat } from '../../src/gm/seats.js';
import { renewToken } from '../../src/gm/token.js';
import { readRuntime } from '../../src/schedule/runtime.js';
import { writeOrders } from '../schedule/support.js';
import { OTHERS, RESOLVE, useSecretsFile } from '../seats/support.js';
import { expectAshWelcome, expectEarlierTurnsRenderAgain, OSKA, reportsOf, welcomeCampaign } from './welcome-support.js';

/**
 * A nation a civil war brought into play (the `civil_war` effect, docs/rules.md L3) that first gets a player
 * through `fatecraft token --new` (issue 35): its player gets the same welcome as a split nation's (the
 * report of the latest turn, the order sheet with the token, the map), once; "resend report" answers; the
 * seat record starts with them; its seat may be offered by mail; and every turn before the civil war renders
 * again byte for byte. The old code mailed only the token, listed the nation in waiting as "fallen" in the
 * turns before (so they rendered differently), and refused to offer its seat.
 */
const setSecrets = useSecretsFile();

function editCampaign(dir: string, edit: (doc: ReturnType<typeof parseDocument>) => void): void {
  const file = join(dir, 'campaign.yaml');
  const doc = parseDocument(readFileSync(file, 'utf8'));
  edit(doc);
  writeFileSync(file, doc.toString());
}

describe('a nation a civil war brought in', { timeout: 400_000 }, () => {
  it('is welcomed in full when `token --new` gives it its first player, answers "resend report", may be offered, and leaves every earlier turn re-renderable', async () => {
    const { dir, post, clock, at } = await welcomeCampaign('civil-war-welcome', setSecrets);
    expect((await at(RESOLVE[1]!)).resolved).toEqual([1]);

    // After turn 1 the GM declares the nation in waiting (no player: the GM holds it) and writes the war into turn 2.
    editCampaign(dir, (doc) => doc.setIn(['nations', 'ashfree'], doc.createNode({ name: 'The Free Cities of Ash', leader: 'Warden Oska', ability: 'Rose against the slavers.', caps: { military: 6, diplomatic: 2 }, start: { renown: 0, fate: 0, prosperity: 0, happiness: 0 }, breaksFrom: 'vulcanstille' })));
    writeOrders(dir, 2, [...OTHERS, 'grarkul']);
    writeFileSync(join(dir, 'orders', '0002', '_gm.yaml'), 'turn: 2\nactions:\n  - { kind: event, nation: vulcanstille, title: The slave revolt, text: "The chains break in {nation}.", tone: bad, effects: [{ civil_war: { into: ashfree, settlements: 1, happiness: 2 } }] }\n');
    expect((await at(RESOLVE[2]!)).resolved).toEqual([2]);
    const first = [0, 1, 2].map((t) => reportsOf(dir, t));
    const state = await readState(dir, 2, (await openCampaign(dir)).campaign);
    const town = Object.values(state.settlements).find((s) => s.nation === asNationId('ashfree'))!;
    expect(first[2]!['ashfree.txt']).toContain(town.name);

    // Its first player: the GM gives it an address and a token.
    editCampaign(dir, (doc) => doc.setIn(['nations', 'ashfree', 'email'], doc.createNode([OSKA])));
    clock.set('2025-03-31T09:00:00Z');
    const renewed = await renewToken(dir, 'ashfree', { clock });
    expect(renewed).toMatchObject({ replaced: false, mailedTo: [OSKA] });

    // The welcome: report of turn 2, order sheet with the token, map; once, however many ticks follow.
    await at('2025-03-31T10:00:00Z');
    await at('2025-03-31T11:00:00Z');
    const welcome = await post.received(OSKA);
    expect(welcome.map((m) => m.subject)).toEqual([expect.stringContaining('Welcome, The Free Cities of Ash')]);
    expectAshWelcome(welcome[0]!, town.name);
    // The seat record starts with its first player.
    const rt = (await readRuntime(dir))!;
    expect(rt.seats?.ashfree).toEqual([expect.objectContaining({ player: [OSKA], fromTurn: 3 })]);

    // A second `token --new` for the same player is a replaced token, not a second welcome.
    clock.set('2025-03-31T11:30:00Z');
    await renewToken(dir, 'ashfree', { clock });
    const afterRenew = await post.received(OSKA);
    expect(afterRenew.map((m) => m.subject).slice(1)).toEqual([expect.stringContaining('new order token')]);

    // "resend report" answers with the turn's report.
    await post.send({ from: OSKA, subject: 'resend report', text: 'resend report\n' });
    await at('2025-03-31T12:00:00Z');
    const texts = (await post.received(OSKA)).slice(2).map((m) => m.text ?? '');
    expect(texts.some((t) => t.includes('Your report of turn 2 is on its way again'))).toBe(true);
    expect(texts.some((t) => t.includes(town.name) && t.includes('The Free Cities of Ash'))).toBe(true);

    // Its seat may be offered like any other's once the civil war brought it in (a nation still in waiting's may not).
    clock.set('2025-03-31T12:30:00Z');
    const offered = await offerSeat(dir, 'ashfree', 'mara@volunteer.test', { clock });
    expect(offered.offer).toMatchObject({ nation: 'ashfree', status: 'open' });

    // Every turn renders again as it was first written: before the civil war, and its own.
    await expectEarlierTurnsRenderAgain(dir, first);
  });
});
