import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCampaign } from '../../src/campaign/store.js';
import { FIXTURE, scratchCopy } from '../report/support.js';

/** The rules' price tables stop at circumstantial +6 and global +3 (rules.md B1): beyond them the GM names the price. */
let dir: string;
let cleanup: () => void;
let original: string;
beforeAll(() => {
  ({ dir, cleanup } = scratchCopy(FIXTURE, 'structure-prices'));
  original = readFileSync(join(dir, 'campaign.yaml'), 'utf8');
});
afterAll(() => cleanup?.());

const barracks = "grants: { scope: circumstantial, bonus: { value: 1, vs: { classes: [cavalry] }, label: pikes }, classes: [infantry] }";
const withBarracks = (grants: string) => {
  const edited = original.replace(barracks, grants);
  expect(edited).not.toBe(original);
  writeFileSync(join(dir, 'campaign.yaml'), edited);
};

describe('structure prices', () => {
  it('refuses a bonus beyond the table with no price of its own, naming the structure', async () => {
    withBarracks("grants: { scope: circumstantial, bonus: { value: 7, vs: { classes: [cavalry] } }, classes: [infantry] }");
    await expect(openCampaign(dir)).rejects.toThrow(/structures\.barracks.*price table for circumstantial bonuses stops at \+6.*grants \+7.*"cost" and "turns"/s);
  });

  it('refuses a global +4 with a cost but no build time', async () => {
    withBarracks("cost: 200\n    grants: { scope: global, bonus: { value: 4 }, classes: [infantry] }");
    await expect(openCampaign(dir)).rejects.toThrow(/stops at \+3/);
  });

  it('takes a bonus beyond the table when the GM prices it, and prices the table from it', async () => {
    withBarracks("cost: 90\n    turns: 3\n    grants: { scope: circumstantial, bonus: { value: 7, vs: { classes: [cavalry] } }, classes: [infantry] }");
    const open = await openCampaign(dir);
    expect(open.campaign.structures.barracks).toMatchObject({ cost: 90, turns: 3 });
    expect(open.campaign.structures['great-forge']).toMatchObject({ cost: 40, turns: 2 });
  });
});
