import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { openCampaign, readState } from '../../src/campaign/store.js';
import { asNationId } from '../../src/core/ids.js';
import { splitNation } from '../../src/gm/civil-war.js';
import { readTokens } from '../../src/campaign/secrets.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { tick } from '../../src/schedule/tick.js';
import { resolveNext } from '../schedule/resolve-next.js';
import { cleanupScratch, demoCopy, NATIONS, recordingHooks, scratchDir, writeOrders } from '../schedule/support.js';

/** Civil war: `fatecraft nation split` (src/gm/civil-war.ts), played through the schedule on the demo. */
afterAll(cleanupScratch);

let env: NodeJS.ProcessEnv;
beforeEach(() => {
  env = { ...process.env, FATECRAFT_SECRETS: join(scratchDir('split-secrets'), 'silversheen.secrets.yaml') };
  process.env.FATECRAFT_SECRETS = env.FATECRAFT_SECRETS;
});


describe('civil war: a nation splits', () => {
  it('gives the chosen settlements and units to a new nation with its own player, and both reports tell it', { timeout: 120_000 }, async () => {
    const dir = demoCopy('split');
    const clock = new FakeClock('2025-03-23T17:00:00Z');
    await tick(dir, { clock, hooks: recordingHooks().hooks });
    await resolveNext(dir, clock, 1);

    const open = await openCampaign(dir);
    const before = await readState(dir, 1, open.campaign);
    const vulcan = asNationId('vulcanstille');
    const towns = Object.values(before.settlements).filter((s) => s.nation === vulcan && s.level !== 'capital');
    const unit = Object.values(before.units).find((u) => u.nation === vulcan)!;
    expect(towns.length).toBeGreaterThan(0);

    // Refused: a settlement that is not the nation's, and taking everything it has.
    const opts = { clock, env, name: 'The Free Cities of Ash', leader: 'Warden Oska' };
    await expect(splitNation(dir, 'vulcanstille', 'ashfree', { ...opts, settlements: ['Argentum'], units: [] })).rejects.toThrow(/no settlement "Argentum" of this nation \(its settlements: /);
    const all = Object.values(before.settlements).filter((s) => s.nation === vulcan).map((s) => s.id);
    const allUnits = Object.values(before.units).filter((u) => u.nation === vulcan).map((u) => u.id);
    await expect(splitNation(dir, 'vulcanstille', 'ashfree', { ...opts, settlements: all, units: allUnits })).rejects.toThrow(/would keep nothing/);

    const r = await splitNation(dir, 'vulcanstille', 'ashfree', { ...opts, settlements: [towns[0]!.name], units: [unit.id], email: ['oska@ash.test'], happiness: 2 });
    expect(r.moved).toMatchObject({ settlements: 1, units: 1 });
    const after = await readState(dir, 1, (await openCampaign(dir)).campaign);
    const free = asNationId('ashfree');
    expect(after.settlements[towns[0]!.id]!.nation).toBe(free);
    expect(after.units[unit.id]!.nation).toBe(free);
    expect(after.nations[free]).toMatchObject({ renown: 0, happiness: 2, prosperity: before.nations[vulcan]!.prosperity, alive: true });
    const campaignText = readFileSync(join(dir, 'campaign.yaml'), 'utf8');
    expect(campaignText).toContain('ashfree:');
    expect(campaignText).toContain('# The Silversheen Sea'); // comments kept
    expect(r.tokenIssued).toBe(true);
    expect((await readTokens('silversheen', env)).ashfree).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5}$/);

    // The next turn: both nations' reports tell the story, and the new nation reports on what it holds.
    writeOrders(dir, 2, NATIONS);
    await resolveNext(dir, clock, 2);
    const report = (n: string) => readFileSync(join(dir, 'turns', '0002', 'reports', `${n}.txt`), 'utf8');
    expect(report('vulcanstille')).toContain('Civil war: The Free Cities of Ash breaks away');
    expect(report('ashfree')).toContain('The Free Cities of Ash stands alone');
    expect(report('ashfree')).toContain(towns[0]!.name);
    expect(report('argenta')).not.toContain('Warden Oska raises the banner');
  });
});
