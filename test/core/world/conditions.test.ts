import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TurnContext } from '../../../src/core/context.js';
import { SeededRandomiser } from '../../../src/core/dice.js';
import { asNationId } from '../../../src/core/ids.js';
import { describeCondition, holds } from '../../../src/core/world/conditions.js';
import { EventScene } from '../../../src/core/world/scene.js';
import type { Condition, EventTarget } from '../../../src/core/world/types.js';
import { buildState, loadWorld } from '../../support/case-world.js';

/**
 * Every condition of the vocabulary, true and false, on the rules cases'
 * world: Argenta (Prosperity +1, Happiness -2) holds a capital with a market
 * and two battlements and a captured village (no walls) in the forest strip,
 * a knight next to the village and a bloodied one far off by its mine, and a
 * Gondarahl unit two hexes from the village; turn 3 is a Summer.
 */
const campaign = loadWorld(join(import.meta.dirname, '..', '..', 'cases', '_world.yaml'));
const argenta = asNationId('argenta');

function scene(): EventScene {
  const state = buildState(campaign, {
    turn: 2,
    nations: {
      argenta: { prosperity: 1, happiness: -2, renown: 40, fate: 3, goals: [{ id: 'silver', done: true }], history: [{ event: 'plague', turn: 1 }] },
    },
    settlements: {
      argentum: { nation: 'argenta', level: 'capital', hex: '3,3', name: 'Argentum', structures: ['market'], battlements: [1, 2] },
      wood: { nation: 'argenta', level: 'village', hex: '5,2', name: 'Wood', captured: true, home: false },
    },
    units: {
      knight: { nation: 'argenta', type: 'knight', hex: '6,2' },
      dwarf: { nation: 'gondarahl', type: 'dwarves', hex: '7,2' },
      sick: { nation: 'argenta', type: 'knight', hex: '9,4', health: 'bloodied' },
    },
    externals: { m1: { nation: 'argenta', type: 'mine', hex: '9,4' } },
  });
  return new EventScene(new TurnContext(campaign, state, { nations: {}, gm: [] }, new SeededRandomiser('t', 3)));
}

const NATION: EventTarget = { scope: 'nation' };
const CAPITAL = { scope: 'settlement', id: 'argentum', hex: '3,3' } as EventTarget;
const WOOD = { scope: 'settlement', id: 'wood', hex: '5,2' } as EventTarget;
const KNIGHT = { scope: 'unit', id: 'knight', hex: '6,2' } as EventTarget;

const cases: [string, Condition, EventTarget, boolean][] = [
  ['Prosperity in range', { kind: 'prosperity', range: { min: 1 } }, NATION, true],
  ['Prosperity out of range', { kind: 'prosperity', range: { min: 2 } }, NATION, false],
  ['Happiness at most -2', { kind: 'happiness', range: { max: -2 } }, NATION, true],
  ['Happiness between 0 and 3', { kind: 'happiness', range: { min: 0, max: 3 } }, NATION, false],
  ['Renown 40 or more', { kind: 'renown', range: { min: 40 } }, NATION, true],
  ['Fate 4 or more', { kind: 'fate', range: { min: 4 } }, NATION, false],
  ['season Summer (turn 3)', { kind: 'season', seasons: ['Summer'] }, NATION, true],
  ['season Winter', { kind: 'season', seasons: ['Winter'] }, NATION, false],
  ['turn 3 to 5', { kind: 'turn', range: { min: 3, max: 5 } }, NATION, true],
  ['turn 4 on', { kind: 'turn', range: { min: 4 } }, NATION, false],
  ['nation has a capital', { kind: 'has_level', level: 'capital' }, NATION, true],
  ['nation has a city', { kind: 'has_level', level: 'city' }, NATION, false],
  ['settlement is a village', { kind: 'has_level', level: 'village' }, WOOD, true],
  ['capital lacks the village level', { kind: 'lacks_level', level: 'village' }, CAPITAL, true],
  ['nation lacks no village', { kind: 'lacks_level', level: 'village' }, NATION, false],
  ['capital has a market', { kind: 'has_structure', structure: 'market' }, CAPITAL, true],
  ['village has no market', { kind: 'has_structure', structure: 'market' }, WOOD, false],
  ['village lacks a market', { kind: 'lacks_structure', structure: 'market' }, WOOD, true],
  ['nation lacks a market', { kind: 'lacks_structure', structure: 'market' }, NATION, false],
  ['capital has walls', { kind: 'battlements', range: { min: 1 } }, CAPITAL, true],
  ['village has no walls', { kind: 'battlements', range: { min: 1 } }, WOOD, false],
  ['village has no battlement', { kind: 'battlements', range: { max: 0 } }, WOOD, true],
  ['nation has a settlement with two battlements', { kind: 'battlements', range: { min: 2 } }, NATION, true],
  ['nation has no settlement with three', { kind: 'battlements', range: { min: 3 } }, NATION, false],
  ['the knight is healthy', { kind: 'health', health: 'healthy' }, KNIGHT, true],
  ['the knight is not bloodied', { kind: 'health', health: 'bloodied' }, KNIGHT, false],
  ['the nation has a bloodied unit', { kind: 'health', health: 'bloodied' }, NATION, true],
  ['no unit of the nation stands in the village', { kind: 'health', health: 'healthy' }, WOOD, false],
  ['village was captured', { kind: 'captured', value: true }, WOOD, true],
  ['capital was captured', { kind: 'captured', value: true }, CAPITAL, false],
  ['own cavalry within 1 of the village', { kind: 'units_near', within: 1, whose: 'own', class: 'cavalry', min: 1 }, WOOD, true],
  ['foreign unit within 1 of the village', { kind: 'units_near', within: 1, whose: 'foreign', min: 1 }, WOOD, false],
  ['foreign unit within 2 of the village', { kind: 'units_near', within: 2, whose: 'foreign', min: 1 }, WOOD, true],
  ['two units within 2', { kind: 'units_near', within: 2, whose: 'any', min: 3 }, WOOD, false],
  ['forest under the village', { kind: 'terrain_near', terrain: 'forest', within: 0 }, WOOD, true],
  ['sea within 1 of the capital', { kind: 'terrain_near', terrain: 'sea', within: 1 }, CAPITAL, false],
  ['sea within 2 of the capital', { kind: 'terrain_near', terrain: 'sea', within: 2 }, CAPITAL, true],
  ['at peace', { kind: 'at_war', value: false }, NATION, true],
  ['at war', { kind: 'at_war', value: true }, NATION, false],
  ['goal achieved', { kind: 'goal', goal: 'silver', done: true }, NATION, true],
  ['goal open', { kind: 'goal', goal: 'silver', done: false }, NATION, false],
  ['plague happened', { kind: 'happened', event: 'plague', value: true }, NATION, true],
  ['plague within the last turn (it was turn 1; this is 3)', { kind: 'happened', event: 'plague', within: 1, value: true }, NATION, false],
  ['famine did not happen', { kind: 'happened', event: 'famine', value: false }, NATION, true],
  ['own knight at 6,2', { kind: 'unit_at', hex: '6,2' as never }, NATION, true],
  ['own cavalry at 6,2', { kind: 'unit_at', hex: '6,2' as never, class: 'cavalry' }, NATION, true],
  ['own infantry at 6,2', { kind: 'unit_at', hex: '6,2' as never, class: 'infantry' }, NATION, false],
  ['own unit at 7,2 (a Gondarahl unit stands there)', { kind: 'unit_at', hex: '7,2' as never }, NATION, false],
  ['holds Wood', { kind: 'holds_settlement', settlement: 'wood' }, NATION, true],
  ['holds no Ironhold', { kind: 'holds_settlement', settlement: 'ironhold' }, NATION, false],
  ['has a silver mine', { kind: 'has_external', structure: 'mine' }, NATION, true],
  ['has no dig site', { kind: 'has_external', structure: 'dig_site' }, NATION, false],
  ['all of two true', { kind: 'all', of: [{ kind: 'at_war', value: false }, { kind: 'turn', range: { min: 1 } }] }, NATION, true],
  ['all with one false', { kind: 'all', of: [{ kind: 'at_war', value: true }, { kind: 'turn', range: { min: 1 } }] }, NATION, false],
  ['any with one true', { kind: 'any', of: [{ kind: 'at_war', value: true }, { kind: 'turn', range: { min: 1 } }] }, NATION, true],
  ['not of a true one', { kind: 'not', of: { kind: 'at_war', value: false } }, NATION, false],
];

describe('conditions', () => {
  const s = scene();
  for (const [name, c, target, want] of cases) {
    it(`${name}: ${want}`, () => {
      expect(holds(c, { scene: s, nation: argenta, target })).toBe(want);
    });
  }

  it('a nation at war: its unit besieges a settlement', () => {
    const state = buildState(campaign, {
      turn: 2,
      settlements: { ironhold: { nation: 'gondarahl', level: 'town', hex: '8,2', name: 'Ironhold' } },
      units: { knight: { nation: 'argenta', type: 'knight', hex: '8,2', besieging: 'ironhold' } },
    });
    const sc = new EventScene(new TurnContext(campaign, state, { nations: {}, gm: [] }, new SeededRandomiser('t', 3)));
    expect(holds({ kind: 'at_war', value: true }, { scene: sc, nation: argenta, target: NATION })).toBe(true);
    expect(holds({ kind: 'at_war', value: true }, { scene: sc, nation: asNationId('gondarahl'), target: NATION })).toBe(true);
  });

  it('each describes itself in words', () => {
    expect(describeCondition({ kind: 'happiness', range: { max: -2 } })).toBe('Happiness is -2 or lower');
    expect(describeCondition({ kind: 'prosperity', range: { min: 1, max: 3 } })).toBe('Prosperity is between +1 and +3');
    expect(describeCondition({ kind: 'units_near', within: 2, whose: 'foreign', class: 'cavalry', min: 1 })).toBe('at least 1 foreign cavalry within 2 hexes');
    expect(describeCondition({ kind: 'battlements', range: { min: 1 } })).toBe('the number of battlements is 1 or higher');
    expect(describeCondition({ kind: 'health', health: 'healthy' })).toBe('the unit is healthy');
    expect(describeCondition({ kind: 'not', of: { kind: 'season', seasons: ['Winter'] } })).toBe('not (it is Winter)');
    expect(describeCondition({ kind: 'happened', event: 'plague', within: 4, value: true })).toBe('event "plague" happened in the last 4 turns');
    for (const [, c] of cases) expect(describeCondition(c)).toMatch(/^[\w("]/);
  });
});
