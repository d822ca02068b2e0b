import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asNationId } from '../../src/core/ids.js';
import { orderText } from '../../src/core/order-text.js';
import { acceptedLine, buildReceipt } from '../../src/orders/receipt.js';
import { interpretSheet } from '../../src/orders/sheet.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { readYamlSheet } from '../../src/orders/yaml-sheet.js';
import { buildState, loadWorld } from '../support/case-world.js';

/**
 * Orders against and for external structures (docs/orders.md, docs/rules.md X1-X3), on the rules cases'
 * world: Argenta's marines stand next to Gondarahl's Silver mine at 9,4, guarded by a dwarf.
 */
const campaign = loadWorld(join(import.meta.dirname, '..', 'cases', '_world.yaml'));
const state = buildState(campaign, {
  units: {
    'a-1': { nation: 'argenta', type: 'marines', hex: '9,3' },
    'a-2': { nation: 'argenta', type: 'knight', hex: '8,4' },
    'g-1': { nation: 'gondarahl', type: 'dwarves', hex: '9,5' },
  },
  externals: { 'x-1': { type: 'mine', nation: 'gondarahl', hex: '9,4' } },
});
const argenta = asNationId('argenta');
const gondarahl = asNationId('gondarahl');
const read = (text: string, nation = argenta) => interpretSheet(readTextSheet(text), nation, campaign, state).orders;

describe('attacking a structure, in plain text and YAML', () => {
  it.each([
    ['attack the mine at 9,4 with a-1', {}],
    ['attack the Silver mine at 9,4 with a-1 supported by a-2', { support: ['a-2'] }],
    ['a-1 attacks structure at 9,4', {}],
    ['attack x-1 with a-1 fate 2', { fate: 2 }],
    ['raze the mine at 9,4 with a-1', { destroy: true }],
    ['a-1 razes the mine at 9,4', { destroy: true }],
  ])('%s', (line, extra) => {
    const orders = read(line);
    expect(orders.refused).toBeUndefined();
    expect(orders.orders).toEqual([{ kind: 'attack', unit: 'a-1', target: { external: 'x-1' }, ...extra }]);
    // Written back in the order language, it reads as the same order.
    expect(read(orderText(orders.orders[0]!)).orders).toEqual(orders.orders);
  });

  it('YAML takes destroy: true, for structures only', () => {
    const yaml = (o: string) => interpretSheet(readYamlSheet(`nation: argenta\nturn: 1\norders:\n  - ${o}\n`), argenta, campaign, state).orders;
    expect(yaml('{attack: a-1, target: x-1, destroy: true}').orders).toEqual([{ kind: 'attack', unit: 'a-1', target: { external: 'x-1' }, destroy: true }]);
    expect(yaml('{attack: a-1, target: g-1, destroy: true}').refused?.[0]?.reason).toBe('only a structure (a mine, a dig site) can be razed');
  });

  it('a structure out of sight reads like none at all', () => {
    const far = buildState(campaign, { units: { 'a-1': { nation: 'argenta', type: 'marines', hex: '2,8' } }, externals: { 'x-1': { type: 'mine', nation: 'gondarahl', hex: '9,4' } } });
    const orders = (text: string) => interpretSheet(readTextSheet(text), argenta, campaign, far).orders;
    expect(orders('attack x-1 with a-1').refused?.[0]?.reason).toBe('you see no structure x-1');
    expect(orders('attack the mine at 9,4 with a-1').refused?.[0]?.reason).toBe('you see no Silver mine at 9,4');
  });

  it('a unit whose name reads like a structure somewhere is still that unit', () => {
    const named = structuredClone(state);
    named.units['g-1' as keyof typeof named.units]!.name = 'Mine at Dawn';
    const orders = interpretSheet(readTextSheet('attack "Mine at Dawn" with a-1'), argenta, campaign, named).orders;
    expect(orders.orders).toEqual([{ kind: 'attack', unit: 'a-1', target: { unit: 'g-1' } }]);
  });

  it('the receipt echoes it in words', () => {
    const sheet = readTextSheet('Nation: argenta\nTurn: 1\nraze the mine at 9,4 with a-1 supported by a-2\n');
    const r = buildReceipt({ campaign, state, sheet, nation: argenta }).receipt;
    expect(r.problems).toEqual([]);
    expect(r.accepted.map(acceptedLine)).toEqual(['line 3: Marines (a-1) attacks the Silver mine of Kingdom of Gondarahl at 9,4 with Knights (a-2), to destroy it']);
  });
});

describe('defending a structure', () => {
  it('"defend" names the structure', () => {
    expect(read('defend the mine at 9,4 with g-1', gondarahl).orders).toEqual([{ kind: 'defend', unit: 'g-1', protect: { external: 'x-1' } }]);
    const sheet = readTextSheet('Nation: gondarahl\nTurn: 1\ng-1 defends x-1 fate 1\n');
    const pledging = structuredClone(state);
    pledging.nations[gondarahl]!.fate = 2;
    const r = buildReceipt({ campaign, state: pledging, sheet, nation: gondarahl }).receipt;
    expect(r.accepted.map(acceptedLine)).toEqual(['line 3: Dwarven infantry (g-1) stands ready to defend the Silver mine at 9,4, pledging 1 Fate']);
  });
});
