import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { openCampaign, readState, turnDirName } from '../../src/campaign/store.js';
import { asNationId } from '../../src/core/ids.js';
import { offerSeat } from '../../src/gm/seats.js';
import { renewToken } from '../../src/gm/token.js';
import { writeReports } from '../../src/report/write.js';
import { localTime } from '../../src/schedule/deadline.js';
import { deadlineClock, deadlinesByNation } from '../../src/schedule/player-time.js';
import { readRuntime } from '../../src/schedule/runtime.js';
import { demoCopy } from '../mailroom/support.js';
import { writeOrders } from '../schedule/support.js';
import { folderPost, OTHERS, RESOLVE, schedule, ticker, useSecretsFile } from '../seats/support.js';

/**
 * A nation a civil war brought into play (the `civil_war` effect, docs/rules.md L3) that first gets a player
 * through `fatecraft token --new` (issue 35): its player gets the same welcome as a split nation's (the
 * report of the latest turn, the order sheet with the token, the map), once; "resend report" answers; the
 * seat record starts with them; its seat may be offered by mail; and every turn before the civil war renders
 * again byte for byte. The old code mailed only the token, listed the nation in waiting as "fallen" in the
 * turns before (so they rendered differently), and refused to offer its seat.
 */
const setSecrets = useSecretsFile();
const OSKA = 'oska@ash.test';
/** Each turn's deadline (the schedule of ../seats/support.ts): what the reports of the turn before print. */
const DEADLINES = ['', '2025-03-23T18:00:00Z', '2025-03-30T17:00:00Z', '2025-04-06T17:00:00Z'];

/** A turn's nations' reports and gazette, by file name (the GM's report carries the schedule's own lines). */
function reportsOf(dir: string, turn: number): Record<string, string> {
  const folder = join(dir, 'turns', turnDirName(turn), 'reports');
  return Object.fromEntries(readdirSync(folder).filter((f) => !f.startsWith('gm.') && !f.startsWith('.')).sort().map((f) => [f, readFileSync(join(folder, f), 'utf8')]));
}

function editCampaign(dir: string, edit: (doc: ReturnType<typeof parseDocument>) => void): void {
  const file = join(dir, 'campaign.yaml');
  const doc = parseDocument(readFileSync(file, 'utf8'));
  edit(doc);
  writeFileSync(file, doc.toString());
}

describe('a nation a civil war brought in', { timeout: 400_000 }, () => {
  it('is welcomed in full when `token --new` gives it its first player, answers "resend report", may be offered, and leaves every earlier turn re-renderable', async () => {
    const { dir } = demoCopy('civil-war-welcome');
    writeFileSync(join(dir, 'campaign.yaml'), readFileSync(join(dir, 'campaign.yaml'), 'utf8') + schedule('  policy: hold\n'));
    setSecrets('civil-war-welcome');
    const post = folderPost(dir);
    const { clock, at } = ticker(dir, '2025-03-20T12:00:00Z');
    await at('2025-03-20T12:00:00Z');
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
    expect(welcome[0]!.text).toContain('You now lead The Free Cities of Ash');
    expect(welcome[0]!.text).toContain(town.name);
    expect(welcome[0]!.attachments.map((a) => a.filename)).toEqual(expect.arrayContaining(['ashfree-orders.yaml', 'ashfree-report.yaml']));
    // The demo's reports carry their map inside the HTML (reports.formats has no svg).
    expect(String(welcome[0]!.html)).toContain('<svg');
    const sheet = welcome[0]!.attachments.find((a) => a.filename === 'ashfree-orders.yaml')!.content.toString('utf8');
    const token = /^token:\s*"?([^"\s]+)/m.exec(sheet)?.[1];
    expect(token).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5}$/);
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
    const runtime = await readRuntime(dir);
    const file = (await openCampaign(dir)).file;
    for (const turn of [0, 1, 2]) {
      const next = new Date(DEADLINES[turn + 1]!);
      await writeReports(dir, { turn, deadline: localTime(next, 'Europe/London'), deadlineByNation: deadlinesByNation(deadlineClock(next, 'Europe/London', file, runtime)) });
      expect(reportsOf(dir, turn), `turn ${turn}`).toEqual(first[turn]);
    }
  });
});
