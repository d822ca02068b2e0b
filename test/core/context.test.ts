import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TurnContext, type AcceptedOrder } from '../../src/core/context.js';
import { SeededRandomiser } from '../../src/core/dice.js';
import { asHexKey, asNationId, asUnitId } from '../../src/core/ids.js';
import type { Order } from '../../src/core/orders.js';
import { buildState, loadWorld } from '../support/case-world.js';

const world = loadWorld(join(import.meta.dirname, '..', 'cases', '_world.yaml'));

function context(): TurnContext {
  return new TurnContext(world, buildState(world), { nations: {}, gm: [] }, new SeededRandomiser('context', 1));
}

const argenta = asNationId('argenta');
const borea = asNationId('borea');
const accepted = (nation: typeof argenta, index: number, order: Order): AcceptedOrder => ({ nation, index, order });
const move = (unit: string, to: string): Order => ({ kind: 'move', unit: asUnitId(unit), to: asHexKey(to) });
const hold = (unit: string): Order => ({ kind: 'hold', unit: asUnitId(unit) });
const plan = (stance: 'aggressive' | 'defensive'): Order => ({ kind: 'battle_plan', stance });

describe('the orders a turn accepted, by kind', () => {
  it('gives each kind its own orders in the order they were accepted, across nations', () => {
    const ctx = context();
    const given = [
      accepted(borea, 0, move('b1', '2,2')),
      accepted(argenta, 0, hold('a1')),
      accepted(argenta, 1, move('a2', '3,3')),
      accepted(borea, 1, plan('defensive')),
      accepted(argenta, 2, move('a3', '4,4')),
      accepted(argenta, 3, plan('aggressive')),
    ];
    for (const a of given) ctx.accept(a);

    expect(ctx.acceptedOf('move')).toEqual([given[0], given[2], given[4]]);
    expect(ctx.acceptedOf('battle_plan').map((a) => a.nation)).toEqual([borea, argenta]);
    expect(ctx.acceptedOf('hold')).toEqual([given[1]]);
    expect(ctx.accepted).toEqual(given);
    expect(ctx.orderFor(asUnitId('a2'))).toBe(given[2]);
  });

  it('gives no orders of a kind none was accepted of, and sees orders accepted after an earlier look', () => {
    const ctx = context();
    expect(ctx.acceptedOf('attack')).toEqual([]);
    ctx.accept(accepted(argenta, 0, move('a1', '2,2')));
    expect(ctx.acceptedOf('move')).toHaveLength(1);
    ctx.accept(accepted(borea, 0, move('b1', '3,3')));
    expect(ctx.acceptedOf('move').map((a) => a.nation)).toEqual([argenta, borea]);
    expect(ctx.acceptedOf('attack')).toEqual([]);
  });
});
