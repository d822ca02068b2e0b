import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asNationId } from '../../src/core/ids.js';
import { nationView } from '../../src/report/nation-view.js';
import { renderOrderTemplate } from '../../src/report/order-template.js';
import { buildState, loadWorld } from '../support/case-world.js';

/** The order sheet offers a military unit at or next to a structure the orders to fight for it (docs/rules.md X1-X2). */
const campaign = loadWorld(join(import.meta.dirname, '..', 'cases', '_world.yaml'));
const state = buildState(campaign, {
  units: {
    'a-1': { nation: 'argenta', type: 'marines', hex: '9,3' },
    'a-2': { nation: 'argenta', type: 'marines', hex: '4,8' },
    'g-1': { nation: 'gondarahl', type: 'dwarves', hex: '9,5' },
  },
  externals: { 'x-1': { type: 'mine', nation: 'gondarahl', hex: '9,4' }, 'x-2': { type: 'dig_site', nation: 'argenta', hex: '5,8' } },
});
const sheet = (nation: string) => renderOrderTemplate(nationView(campaign, state, state, [], asNationId(nation)), campaign);

describe('fighting for structures, in the order sheet', () => {
  it('offers the attack on a foreign structure next to the unit, and the defence of its own', () => {
    const argenta = sheet('argenta');
    expect(argenta).toContain('{attack: a-1, target: x-1}');
    expect(argenta).toContain('the Silver mine of Kingdom of Gondarahl at 9,4: infantry takes it; "destroy: true" razes it');
    expect(argenta).toContain('{defend: a-2, protect: x-2}');
    expect(argenta).not.toContain('{attack: a-2, target: x-1}');
    expect(sheet('gondarahl')).toContain('{defend: g-1, protect: x-1}');
  });
});
