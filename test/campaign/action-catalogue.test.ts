import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readActionCatalogue } from '../../src/campaign/action-catalogue.js';
import { CampaignError } from '../../src/campaign/problems.js';
import { openCampaign } from '../../src/campaign/store.js';
import { playedNations } from '../../src/core/campaign.js';
import { DEMO } from '../report/support.js';
import { loadWorld } from '../support/case-world.js';

/**
 * actions.yaml is checked when the campaign opens, as events.yaml is: a
 * wrong entry stops the campaign with the file, the line and the key.
 */
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function open(actions?: string) {
  dir = mkdtempSync(join(tmpdir(), 'fatecraft-actions-'));
  cpSync(join(DEMO, 'campaign.yaml'), join(dir, 'campaign.yaml'));
  if (actions !== undefined) writeFileSync(join(dir, 'actions.yaml'), actions);
  return openCampaign(dir);
}

async function problemsWith(actions: string): Promise<string> {
  try {
    await open(actions);
  } catch (e) {
    expect(e).toBeInstanceOf(CampaignError);
    return (e as Error).message;
  }
  return '';
}

const entry = (extra: string) => `actions:
  - id: shell
    name: Shelling
    units: { type: mortar_cannon }
    target: settlement
${extra}`;

describe('the actions catalogue at load', () => {
  it('a campaign without actions.yaml has the built-in espionage, sabotage, preaching and trade', async () => {
    const { campaign } = await open();
    expect(Object.keys(campaign.actions?.entries ?? {}).sort()).toEqual(['espionage', 'preach', 'proselytise', 'sabotage', 'trade']);
  });

  it("the demo's catalogue gives every nation's special unit an action of its own", async () => {
    const { campaign } = await openCampaign(DEMO);
    const entries = Object.values(campaign.actions?.entries ?? {});
    for (const nation of playedNations(campaign)) {
      const special = Object.values(campaign.nations[nation]!.unitTypes).filter((t) => t.requiresStructure);
      expect(special.length, nation).toBeGreaterThan(0);
      expect(entries.some((a) => special.some((t) => a.units.types.includes(t.id))), `${nation}'s special units have an action`).toBe(true);
    }
    expect(campaign.actions?.entries.espionage).toBeDefined();
  });

  it('refuses an unknown effect with file, line and key', async () => {
    const msg = await problemsWith(entry('    success:\n      target:\n        - damage: ~\n        - treasure: 10\n'));
    expect(msg).toMatch(/actions\.yaml: line 9: actions\[0\]\.success\.target\[1\]\.treasure: unknown effect "treasure"/);
    expect(msg).toContain('reveal, damage, trade_route');
  });

  it('refuses a unit type no nation has, and a reveal on the target side', async () => {
    const msg = await problemsWith(`actions:
  - id: shell
    name: Shelling
    units: { type: mortar }
    target: settlement
    success:
      target: [{ reveal: goal }]
`);
    expect(msg).toMatch(/line 4: actions\[0\]\.units\.type: no nation has a unit type "mortar"/);
    expect(msg).toMatch(/actions\[0\]\.success\.target\[0\]: "reveal" tells the actor: list it under actor/);
  });

  it('reads units_near by unit type (a spymaster near the actor), and refuses a type no nation has', async () => {
    const ok = await open(entry('    roll:\n      beat: 3\n      modifiers:\n        - { value: 1, of: actor, when: { units_near: { within: 2, whose: own, type: [informant, mortar_cannon] } } }\n'));
    expect(ok.campaign.actions?.entries.shell?.roll?.modifiers[0]?.when).toEqual({ kind: 'units_near', within: 2, whose: 'own', min: 1, types: ['informant', 'mortar_cannon'] });
    const msg = await problemsWith(entry('    roll:\n      beat: 3\n      modifiers:\n        - { value: 1, of: actor, when: { units_near: { within: 2, type: spymaster } } }\n'));
    expect(msg).toContain('no nation has a unit type "spymaster"');
  });

  it('refuses two actions an order could not tell apart', async () => {
    const msg = await problemsWith(entry('    verb: spies on\n'));
    expect(msg).toMatch(/actions\[0\]\.verb: "spies on" is also the verb of "espionage"/);
  });

  it('refuses damage on an action not aimed at a settlement, and fail effects without a roll', async () => {
    const msg = await problemsWith(`actions:
  - id: shell
    name: Shelling
    units: { class: siege }
    target: nation
    success: { target: [{ damage: ~ }] }
    fail: { actor: [{ unit_bloodied: ~ }] }
`);
    expect(msg).toContain('"damage" needs an action aimed at a settlement');
    expect(msg).toContain('an action without a roll always succeeds');
  });

  it('defaults: false leaves the built-in actions out', async () => {
    const { campaign } = await open(`defaults: false\n${entry('    roll: { beat: 3 }\n    success: { target: [{ damage: ~ }] }\n').replace(/^actions:\n/, 'actions:\n')}`);
    expect(Object.keys(campaign.actions?.entries ?? {})).toEqual(['shell']);
  });
});

describe('actions unlocked by structures (docs/rules.md X6)', () => {
  it('are actions of the catalogue: a structure that unlocks an unknown one is a campaign error', () => {
    const world = loadWorld(join(import.meta.dirname, '..', 'cases', 'building', '_perks-world.yaml'));
    expect(readActionCatalogue({}, () => undefined, 'actions.yaml', world).problems).toEqual([]);
    const broken = { ...world, externals: { ...world.externals, lumber_camp: { ...world.externals.lumber_camp!, unlocksActions: ['spyin'] } } };
    const read = readActionCatalogue({}, () => undefined, 'actions.yaml', broken);
    expect(read.catalogue).toBeUndefined();
    expect(read.problems.map((p) => p.message)).toEqual(['campaign.yaml externals.lumber_camp.unlocksActions names "spyin", which is no action of this catalogue (actions are: espionage, preach, proselytise, sabotage, trade)']);
  });
});
