import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCampaign, readState, stateYaml } from '../../src/campaign/store.js';
import { asNationId } from '../../src/core/ids.js';
import { hexDistance, offsetOf } from '../../src/core/hex.js';
import { splitNation } from '../../src/gm/civil-war.js';
import { writeOrders } from '../schedule/support.js';
import { OTHERS, RESOLVE, useSecretsFile } from '../seats/support.js';
import { expectAshWelcome, expectEarlierTurnsRenderAgain, OSKA, reportsOf, welcomeCampaign } from './welcome-support.js';

/**
 * A split nation's player is not left blind (issue 35): after `fatecraft nation split` the new nation's
 * player is welcomed with its report of the latest turn, order sheet (with the token) and map; `resend
 * report` answers with it; the old nation's unit left in the seceding town steps out of it (rules.md L4);
 * and every turn before the split renders again byte for byte as first written.
 */
const setSecrets = useSecretsFile();

describe('a split nation', { timeout: 400_000 }, () => {
  it('is welcomed with its report, answers "resend report", and leaves every earlier turn re-renderable', async () => {
    const { dir, post, clock, at } = await welcomeCampaign('split-welcome', setSecrets);
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
    expectAshWelcome(welcome[0]!, town.name);

    // "resend report" answers with the turn's report.
    await post.send({ from: OSKA, subject: 'resend report', text: `resend report\n` });
    await at('2025-04-07T12:00:00Z');
    const mails = await post.received(OSKA);
    expect(mails.length).toBeGreaterThanOrEqual(2);
    const texts = mails.slice(1).map((m) => m.text ?? '');
    expect(texts.some((t) => t.includes('Your report of turn 3 is on its way again'))).toBe(true);
    expect(texts.some((t) => t.includes(town.name) && t.includes('The Free Cities of Ash'))).toBe(true);

    // Every turn before the split renders again as it was first written.
    await expectEarlierTurnsRenderAgain(dir, first);
    // And the new nation's orders resolve with the next turn.
    writeOrders(dir, 4, [...OTHERS, 'grarkul']);
    expect((await at(RESOLVE[4]!)).resolved).toEqual([4]);
    expect(readFileSync(join(dir, 'turns', '0004', 'reports', 'ashfree.txt'), 'utf8')).toContain('The Free Cities of Ash stands alone');
  });
});
