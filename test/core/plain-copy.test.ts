import { describe, expect, it } from 'vitest';
import { plainCopy } from '../../src/core/plain-copy.js';
import { resolveTurn } from '../../src/core/turn.js';
import { join } from 'node:path';
import { buildState, loadWorld } from '../support/case-world.js';
import type { TurnOrders } from '../../src/core/orders.js';
import type { NationId, UnitId } from '../../src/core/ids.js';

describe('plainCopy', () => {
  it('copies nested objects and arrays deeply, keeping keys whose value is undefined', () => {
    const original = { a: [1, { b: 'x', c: [true, null] }], d: { e: undefined as number | undefined }, f: 'plain' };
    const copy = plainCopy(original);
    expect(copy).toStrictEqual(original);
    expect('e' in copy.d).toBe(true);
    (copy.a[1] as { c: unknown[] }).c.push('changed');
    copy.d.e = 3;
    expect(original).toStrictEqual({ a: [1, { b: 'x', c: [true, null] }], d: { e: undefined }, f: 'plain' });
  });

  it('leaves the state a turn starts from untouched', () => {
    const campaign = loadWorld(join(import.meta.dirname, '..', 'cases', '_world.yaml'));
    const state = buildState(campaign, {
      nations: { argenta: { renown: 50, fate: 6 }, gondarahl: { renown: 50 } },
      units: {
        'a-1': { nation: 'argenta', type: 'marines', hex: '6,2' },
        'd-1': { nation: 'gondarahl', type: 'dwarves', hex: '7,2' },
      },
      settlements: { argentum: { nation: 'argenta', level: 'capital', hex: '3,3', name: 'Argentum' } },
    });
    const orders: TurnOrders = { nations: { ['argenta' as NationId]: { nation: 'argenta' as NationId, turn: 1, orders: [{ kind: 'attack', unit: 'a-1' as UnitId, target: { unit: 'd-1' as UnitId }, fate: 2 }] } }, gm: [] };
    const before = structuredClone(state);
    const result = resolveTurn({ campaign, state, orders });
    expect(state).toStrictEqual(before);
    expect(result.state).not.toStrictEqual(before);
  });
});
