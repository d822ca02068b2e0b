import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stateFileSchema } from '../../src/campaign/schema.js';
import { ForcedRandomiser } from '../../src/core/dice.js';
import { asNationId } from '../../src/core/ids.js';
import type { TurnOrders } from '../../src/core/orders.js';
import { resolveTurn } from '../../src/core/turn.js';
import { interpretSheet } from '../../src/orders/sheet.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { buildState, loadWorld } from '../support/case-world.js';

/** A structure taken (docs/rules.md X3-X4) leaves a state the state file's schema reads back, and the same turn twice is the same turn. */
const campaign = loadWorld(join(import.meta.dirname, '..', 'cases', '_world.yaml'));
const state = buildState(campaign, {
  units: { 'a-1': { nation: 'argenta', type: 'marines', hex: '9,5' }, 'g-1': { nation: 'gondarahl', type: 'dwarves', hex: '9,4' } },
  externals: { 'x-1': { type: 'mine', nation: 'gondarahl', hex: '9,4' } },
});
const argenta = asNationId('argenta');
const orders: TurnOrders = { nations: { [argenta]: interpretSheet(readTextSheet('attack the mine at 9,4 with a-1'), argenta, campaign, state).orders }, gm: [] };
const play = () => resolveTurn({ campaign, state, orders, dice: new ForcedRandomiser({ 'battle:external:x-1': [6, 1] }, undefined) });

describe('a structure taken', () => {
  it('is written to a state the schema accepts, with its builder', () => {
    const after = play().state;
    expect(after.externals['x-1' as keyof typeof after.externals]).toEqual({ id: 'x-1', type: 'mine', nation: 'argenta', hex: '9,4', builtBy: 'gondarahl' });
    expect(stateFileSchema.safeParse(after).success).toBe(true);
  });

  it('is the same turn however often it is resolved', () => {
    expect(JSON.stringify(play())).toBe(JSON.stringify(play()));
  });
});
