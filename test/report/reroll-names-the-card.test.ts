import { describe, expect, it } from 'vitest';
import type { Campaign } from '../../src/core/campaign.js';
import type { DieRoll, LoggedEvent } from '../../src/core/events.js';
import { DECK, symbolsText } from '../../src/core/fate/deck.js';
import { asHexKey, asNationId, asUnitId } from '../../src/core/ids.js';
import type { GameState } from '../../src/core/state.js';
import { battleView } from '../../src/report/battle-text.js';
import { Namer } from '../../src/report/namer.js';

/**
 * Issue 36: a side re-rolled by an invoke shows what it first drew. In a Deck
 * of Fate campaign that is a card — "(first dice: 1)" gave the value the card
 * made (base + result), as if a die had shown 1, and named no card.
 */
const argenta = asNationId('argenta');
const borea = asNationId('borea');
const terrible = DECK.find((c) => c.result === -2 && !c.eclipse)!;
const state = { turn: 1, nations: {}, units: {}, settlements: {}, externals: {}, builds: [], seq: 0 } as unknown as GameState;
const names = new Namer({ nations: {} } as unknown as Campaign, state, state, () => true, argenta);

function battle(first: DieRoll[]): Extract<LoggedEvent, { type: 'battle' }> {
  const now: DieRoll = { die: 'd6', value: 5 };
  return {
    seq: 1,
    phase: 'combat',
    type: 'battle',
    nations: [argenta, borea],
    battle: 'attack:x',
    at: asHexKey('3,6'),
    kind: 'open',
    attacker: { nation: argenta, units: [asUnitId('a-1')], rolls: [{ unit: asUnitId('a-1'), nation: argenta, health: 'healthy', roll: now, modifiers: [], total: 5 }], firstRolls: first, fateSpent: 0, fateModifier: 0, sideModifiers: [], total: 5 },
    defender: { nation: borea, units: [asUnitId('b-1')], rolls: [{ unit: asUnitId('b-1'), nation: borea, health: 'healthy', roll: now, modifiers: [], total: 4 }], fateSpent: 0, fateModifier: 0, sideModifiers: [], total: 4 },
    winner: 'attacker',
    deficit: 1,
    casualties: [],
    overkill: 0,
  };
}

describe('a re-roll by an invoke names what was first drawn', () => {
  it('under the Deck of Fate, the card: its ladder word and symbols, not a bare number', () => {
    const card: DieRoll = { die: 'card', value: 3 + terrible.result, fate: { replaces: 'd6', base: 3, result: terrible.result, card: terrible.id, deck: argenta } };
    const view = battleView(battle([card]), names, () => true);
    expect(view.attacker.rerolled).toBe(`re-rolled by an invoke (first drawn: drew Terrible (-2), ${symbolsText(terrible)}, on 3: 1)`);
    expect(view.attacker.rerolled).not.toContain('first dice: 1');
  });

  it('with four Fate dice, the faces thrown; with d6s, the dice as before', () => {
    const thrown: DieRoll = { die: '4dF', value: 2, fate: { replaces: 'd6', base: 3, result: -1, faces: ['-', '0', '0', '0'] } };
    expect(battleView(battle([thrown]), names, () => true).attacker.rerolled).toBe('re-rolled by an invoke (first drawn: rolled − 0 0 0 (Poor (-1)) on 3: 2)');
    expect(battleView(battle([{ die: 'd6', value: 1 }, { die: 'd6', value: 2 }]), names, () => true).attacker.rerolled).toBe('re-rolled by an invoke (first dice: 1, 2)');
  });
});
