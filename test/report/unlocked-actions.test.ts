import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readActionCatalogue } from '../../src/campaign/action-catalogue.js';
import { asNationId } from '../../src/core/ids.js';
import { nationView } from '../../src/report/nation-view.js';
import { renderOrderTemplate } from '../../src/report/order-template.js';
import { buildState, loadWorld } from '../support/case-world.js';

/** The order sheet suggests an action a structure unlocks (docs/rules.md X6) only to a nation that holds that structure. */
const world = loadWorld(join(import.meta.dirname, '..', 'cases', 'building', '_perks-world.yaml'));
const campaign = { ...world, actions: readActionCatalogue({}, () => undefined, 'actions.yaml', world).catalogue! };
const argenta = asNationId('argenta');

function sheet(structures: string[]): string {
  const state = buildState(campaign, {
    settlements: {
      argentum: { nation: 'argenta', level: 'capital', hex: '1,3', name: 'Argentum', structures },
      stonehold: { nation: 'gondarahl', level: 'town', hex: '6,3', name: 'Stonehold' },
    },
    units: { spy: { nation: 'argenta', type: 'worker', hex: '5,3' } },
  });
  return renderOrderTemplate(nationView(campaign, state, state, [], argenta), campaign);
}

describe('actions unlocked by a structure, in the order sheet', () => {
  it('are left out without the structure, offered with it', () => {
    expect(sheet([])).not.toContain('action: espionage');
    expect(sheet(['spy_school'])).toContain('{act: spy, action: espionage, target: stonehold}');
    // Actions no structure unlocks are offered as ever.
    expect(sheet([])).toContain('action: sabotage');
  });
});
