import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCampaign, readState, stateYaml, turnDirName } from '../../src/campaign/store.js';
import { asNationId } from '../../src/core/ids.js';
import { hexDistance, offsetOf } from '../../src/core/hex.js';
import { splitNation } from '../../src/gm/civil-war.js';
import { writeReports } from '../../src/report/write.js';
import { localTime } from '../../src/schedule/deadline.js';
import { deadlineClock, deadlinesByNation } from '../../src/schedule/player-time.js';
import { readRuntime } from '../../src/schedule/runtime.js';
import { demoCopy } from '../mailroom/support.js';
import { writeOrders } from '../schedule/support.js';
import { folderPost, OTHERS, RESOLVE, schedule, ticker, useSecretsFile } from '../seats/support.js';

/**
 * A split nation's player is not left blind (issue 35): after `fatecraft nation split` the new nation's
 * player is welcomed with its report of the latest turn, order sheet (with the token) and map; `resend
 * report` answers with it; the old nation's unit left in the seceding town steps out of it (rules.md L4);
 * and every turn before the split renders again byte for byte as first written.
 */
const setSecrets = useSecretsFile();
const OSKA = 'oska@ash.test';
/** Each turn's deadline (the schedule of ../seats/support.ts): what the reports of the turn before print. */
const DEADLINES = ['', '2025-03-23T18:00:00Z', '2025-03-30T17:00:00Z', '2025-04-06T17:00:00Z', '2025-04-13T17:00:00Z'];

/** A turn's nations' reports and gazette, by file name (the GM's report carries the schedule's own lines). */
function reportsOf(dir: string, turn: number): Record<string, string> {
  const folder = join(dir, 'turns', turnDirName(turn), 'reports');
  return Object.fromEntries(readdirSync(folder).filter((f) => !f.startsWith('gm.') && !f.startsWith('.')).sort().map((f) => [f, readFileSync(join(folder, f), 'utf8')]));
}

describe('a split nation', { timeout: 400_000 }, () => {
  it('is welcomed with its report, answers "resend report", and leaves every earlier turn re-renderable', async () => {
    const { dir } = demoCopy('split-welcome');
    writeFileSync(join(dir, 'campaign.yaml'), readFileSync(join(dir, 'campaign.yaml'), 'utf8') + schedule('  policy: hold\n'));
    setSecrets('split-welcome');
    const post = folderPost(dir);
    const { clock, at } = ticker(dir, '2025-03-20T12:00:00Z');
    await at('2025-03-20T12:00:00Z');
    for (let turn = 1; turn <= 3; turn++) {
      if (turn > 1) writeOrders(dir, turn, [...OTHERS, 'grarkul']);
      expect((await at(RESOLVE[turn]!)).resolved).toEqual([turn]);
    }
    const first = [0, 1, 2, 3].map((t) => reportsOf(dir, t));
    // The GM's mail of a turn carries each seat's holder and record (runtime.yaml), which the turn's folder does not.
    const gmMail = (await post.received('gm@silversheen.test')).find((m) => m.subject?.includes('turn 3'))!;
    expect(gmMail.text).toMatch(/Seats:\n(?: {2}.*\n)* {2}The Grarkul Tribes: warchief@grarkul\.test, since turn 1: 3 of 3 turns on time \(100%\)\./);
    const gmFiles = readdirSync(join(dir, 'turns', '0003', 'reports')).filter((f) => f.startsWith('gm.'));
    expect(gmFiles.length).toBeGreaterThan(0);
    for (const f of gmFiles) expect(readFileSync(join(dir, 'turns', '0003', 'reports', f), 'utf8')).not.toContain('turns on time');

    // A Vulcanstille town breaks away with none of the units standing in it: one is put there first.
    const open = await openCampaign(dir);
    const vulcan = asNationId('vulcanstille');
    const state = await readState(dir, 3, open.campaign);
    const town = Object.values(state.settlements).filter((s) => s.nation === vulcan && s.level !== 'capital').sort((a, b) => a.id.localeCompare(b.id))[0]!;
    const units = Object.values(state.units).filter((u) => u.nation === vulcan && open.campaign.nations[vulcan]!.unitTypes[u.type]!.class !== 'naval').sort((a, b) => a.id.localeCompare(b.id));
    const stays = units[0]!;
    const goes = units.find((u) => u.id !== stays.id)!;
    state.units[stays.id] = { ...stays, hex: town.hex };
    writeFileSync(join(dir, 'turns', '0003', 'state.yaml'), stateYaml(state));

    clock.set('2025-04-07T09:00:00Z');
    const r = await splitNation(dir, 'vulcanstille', 'ashfree', { clock, name: 'The Free Cities of Ash', leader: 'Warden Oska', settlements: [town.name], units: [goes.id], email: [OSKA] });
    // Rule L4: the unit left in the town steps out to the nearest hex with no settlement of another nation.
    expect(r.warnings.find((w) => w.includes(`stood in ${town.name}, which breaks away`))).toBeDefined();
    const c = (await openCampaign(dir)).campaign;
    const after = await readState(dir, 3, c);
    expect(after.units[stays.id]!.nation).toBe(vulcan);
    expect(hexDistance(offsetOf(after.units[stays.id]!.hex), offsetOf(town.hex))).toBe(1);
    expect(Object.values(after.settlements).some((s) => s.hex === after.units[stays.id]!.hex && s.nation !== vulcan)).toBe(false);
    expect(readFileSync(join(dir, 'campaign.yaml'), 'utf8')).toMatch(/ashfree:[\s\S]*joined: 3/);

    // Its own report of turn 3 is written beside the others', which stay as they were mailed.
    const report3 = readFileSync(join(dir, 'turns', '0003', 'reports', 'ashfree.txt'), 'utf8');
    expect(report3).toContain(town.name);
    expect(existsSync(join(dir, 'turns', '0003', 'reports', 'ashfree-orders.yaml'))).toBe(true);
    const again3 = reportsOf(dir, 3);
    for (const [name, text] of Object.entries(first[3]!)) expect(again3[name], name).toBe(text);

    // The next tick mails the welcome: report, order sheet with the token, map; once.
    await at('2025-04-07T10:00:00Z');
    await at('2025-04-07T11:00:00Z');
    const welcome = await post.received(OSKA);
    expect(welcome).toHaveLength(1);
    expect(welcome[0]!.subject).toContain('Welcome, The Free Cities of Ash');
    expect(welcome[0]!.text).toContain('You now lead The Free Cities of Ash');
    expect(welcome[0]!.text).toContain(town.name);
    const names = welcome[0]!.attachments.map((a) => a.filename);
    expect(names).toEqual(expect.arrayContaining(['ashfree-orders.yaml', 'ashfree-report.yaml']));
    // The demo's reports carry their map inside the HTML (reports.formats has no svg).
    expect(String(welcome[0]!.html)).toContain('<svg');
    const token = /^token:\s*"?([^"\s]+)/m.exec(welcome[0]!.attachments.find((a) => a.filename === 'ashfree-orders.yaml')!.content.toString('utf8'))?.[1];
    expect(token).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5}$/);

    // "resend report" answers with the turn's report.
    await post.send({ from: OSKA, subject: 'resend report', text: `resend report\n` });
    await at('2025-04-07T12:00:00Z');
    const mails = await post.received(OSKA);
    expect(mails.length).toBeGreaterThanOrEqual(2);
    const texts = mails.slice(1).map((m) => m.text ?? '');
    expect(texts.some((t) => t.includes('Your report of turn 3 is on its way again'))).toBe(true);
    expect(texts.some((t) => t.includes(town.name) && t.includes('The Free Cities of Ash'))).toBe(true);

    // Every turn before the split renders again as it was first written.
    const runtime = await readRuntime(dir);
    const file = (await openCampaign(dir)).file;
    for (const turn of [0, 1, 2]) {
      const next = new Date(DEADLINES[turn + 1]!);
      await writeReports(dir, { turn, deadline: localTime(next, 'Europe/London'), deadlineByNation: deadlinesByNation(deadlineClock(next, 'Europe/London', file, runtime)) });
      expect(reportsOf(dir, turn), `turn ${turn}`).toEqual(first[turn]);
    }
    // And the new nation's orders resolve with the next turn.
    writeOrders(dir, 4, [...OTHERS, 'grarkul']);
    expect((await at(RESOLVE[4]!)).resolved).toEqual([4]);
    expect(readFileSync(join(dir, 'turns', '0004', 'reports', 'ashfree.txt'), 'utf8')).toContain('The Free Cities of Ash stands alone');
  });
});
