import { join } from 'node:path';
import { ForcedRandomiser } from '../../../src/core/dice.js';
import { asNationId } from '../../../src/core/ids.js';
import type { TurnOrders } from '../../../src/core/orders.js';
import { resolveTurn } from '../../../src/core/turn.js';
import { interpretSheet } from '../../../src/orders/sheet.js';
import { buildState, loadWorld } from '../../support/case-world.js';

const WORLD = join(import.meta.dirname, '..', '..', 'cases', '_world.yaml');

/**
 * Argenta's marines and knights (a-1 leading, a-2 and a-3 supporting) attack
 * Gondarahl's three dwarves at 8,2 in the rules cases' world, every card
 * forced to +0, with the Warfare settings given.
 */
export function fightAt82(warfare: Record<string, unknown>, bloodied: string[] = []) {
  const campaign = loadWorld(WORLD, { fate: { randomiser: 'fateDice' }, warfare });
  const state = buildState(campaign, {
    units: {
      'a-1': { nation: 'argenta', type: 'marines', hex: '6,2' },
      'a-2': { nation: 'argenta', type: 'marines', hex: '6,3' },
      'a-3': { nation: 'argenta', type: 'knight', hex: '6,1' },
      'd-1': { nation: 'gondarahl', type: 'dwarves', hex: '8,2' },
      'd-2': { nation: 'gondarahl', type: 'dwarves', hex: '8,2' },
      'd-3': { nation: 'gondarahl', type: 'dwarves', hex: '8,2' },
    },
  });
  for (const id of bloodied) state.units[id as never]!.health = 'bloodied';
  const sheet = { turn: state.turn + 1, entries: [{ line: 1, text: 'attack', fields: { attack: 'a-1', target: 'd-1', support: ['a-2', 'a-3'] } }], problems: [] };
  const orders: TurnOrders = { nations: { [asNationId('argenta')]: interpretSheet(sheet, asNationId('argenta'), campaign, state).orders }, gm: [] };
  const dice = new ForcedRandomiser({ 'warfare:attack:a-1': Array(400).fill(0), 'battle:attack:a-1': Array(6).fill(3) }, undefined);
  return { campaign, state, result: resolveTurn({ campaign, state, orders, dice }) };
}
