import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCampaign } from '../../src/campaign/build-campaign.js';
import { initialState } from '../../src/campaign/initial-state.js';
import { validate } from '../../src/campaign/problems.js';
import { campaignFileSchema, stateFileSchema } from '../../src/campaign/schema.js';
import { stateYaml } from '../../src/campaign/store.js';
import { GM_LIMITS, readYaml } from '../../src/campaign/yaml-io.js';

/** campaign.yaml's `aspects`: checked against the start sheets and the map, in state.yaml from turn 0 (docs/rules.md A1). */
const WORLD = join(import.meta.dirname, '..', 'cases', '_world.yaml');

function fileWith(extra: Record<string, unknown>) {
  const read = readYaml(readFileSync(WORLD), GM_LIMITS);
  if (!read.ok) throw new Error('world');
  return validate(campaignFileSchema, { ...read, value: { ...(read.value as object), ...extra } }, WORLD);
}

describe('starting aspects', () => {
  it('are put in the turn-0 state and written to state.yaml, which reads them back', () => {
    const file = fileWith({
      rules: { fate: { aspects: true } },
      aspects: [
        { name: 'Ancient Walls', on: { hex: '3,3', radius: 1 }, free: 1 },
        { name: 'Hidden Gold', on: { nation: 'gondarahl' }, owner: 'gondarahl', free: 2, secret: true },
      ],
    });
    expect(buildCampaign(file, WORLD).problems).toEqual([]);
    const state = initialState(file);
    expect(state.aspects).toEqual([
      { name: 'Ancient Walls', on: { hex: '3,3', radius: 1 }, free: 1, since: 0 },
      { name: 'Hidden Gold', on: { nation: 'gondarahl' }, owner: 'gondarahl', free: 2, secret: true, since: 0 },
    ]);
    const back = readYaml(Buffer.from(stateYaml(state)), GM_LIMITS);
    if (!back.ok) throw new Error('state.yaml');
    expect(validate(stateFileSchema, back, 'state.yaml').aspects).toEqual(state.aspects);
  });

  it('are refused while aspects are off, and on places that do not exist', () => {
    const file = fileWith({ aspects: [{ name: 'Ghost Town', on: { settlement: 'nowhere' } }, { name: 'Far Off', on: { hex: '99,99' } }] });
    expect(buildCampaign(file, WORLD).problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'aspects: aspects are off in this campaign: set rules.fate.aspects: true, or remove them',
      'aspects[0].on: no settlement "nowhere" on the start sheets',
      'aspects[1].on: 99,99 is off the map',
    ]);
  });
});
