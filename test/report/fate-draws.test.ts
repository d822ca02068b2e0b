import { describe, expect, it } from 'vitest';
import type { DieRoll, LoggedEvent } from '../../src/core/events.js';
import { asHexKey, asNationId, asUnitId } from '../../src/core/ids.js';
import { DECK } from '../../src/core/fate/deck.js';
import { describeEvent } from '../../src/report/describe.js';
import { drawText, luckText } from '../../src/report/draw-text.js';
import { FIXTURE, reportWith, type Played, playBeforeAll, openBattle } from './support.js';

/** Reports show a Fate draw in words where they show a die (docs/rules.md F8); a d6 reads as it always has. */
let played: Played;
playBeforeAll(FIXTURE, 1, 'fate-draws', (p) => (played = p));

const argenta = asNationId('argenta');
const borea = asNationId('borea');
const eclipse = DECK.find((c) => c.eclipse)!;
const twoSunsAMoon = DECK.find((c) => c.suns === 2 && c.moons === 1 && !c.eclipse)!;

const dice: DieRoll = { die: '4dF', value: 4, fate: { replaces: 'd6', base: 3, result: 1, faces: ['+', '+', '0', '-'] } };
const card: DieRoll = { die: 'card', value: 3 + twoSunsAMoon.result, fate: { replaces: 'd6', base: 3, result: twoSunsAMoon.result, card: twoSunsAMoon.id, deck: argenta } };
const forced: DieRoll = { die: 'card', value: 6, forced: true, fate: { replaces: 'd3', base: 2, result: 4 } };

describe('Fate draws in words', () => {
  it('says the dice thrown, the card drawn with its symbols, or the forced result, each on its ladder word', () => {
    expect(drawText(dice)).toBe('rolled + + 0 − (Average (+1)) on 3');
    expect(drawText(card)).toMatch(/^drew .+ \([+-]?\d\), 2 suns and a moon, on 3$/);
    expect(drawText(forced)).toBe('forced Great (+4) on 2');
    expect(drawText({ die: 'd6', value: 4 })).toBeNull();
  });

  it('says fortune and misfortune by what was drawn', () => {
    expect(luckText({ kind: 'fortune', delta: 4, card: eclipse.id, eclipse: true, deck: argenta })).toBe('fortune: drew an eclipse (+4)');
    expect(luckText({ kind: 'misfortune', delta: -1, faces: ['-', '0', '+'] })).toBe('misfortune: rolled − 0 + (-1)');
    expect(luckText({ kind: 'fortune', delta: 2, dice: [5, 1, 6] })).toBe('fortune: 5 1 6 (+2)');
  });

  it('prints them in the battle and siege sections of the text and HTML report', () => {
    const roll = (unit: string, nation: typeof argenta, r: DieRoll) => ({ unit: asUnitId(unit), nation, health: 'healthy' as const, roll: r, modifiers: [], total: r.value });
    const battle = openBattle({
      nations: [argenta, borea],
      battle: 'attack:storm-riders',
      attacker: { nation: borea, units: [asUnitId('storm-riders')], rolls: [roll('storm-riders', borea, dice)], fateSpent: 0, fateModifier: 0, sideModifiers: [], total: 4 },
      defender: { nation: argenta, units: [asUnitId('iron-guard')], rolls: [roll('iron-guard', argenta, card)], fateSpent: 0, fateModifier: 0, sideModifiers: [], total: card.value },
      winner: 'attacker',
      deficit: 4 - card.value,
    });
    const files = reportWith(played, argenta, [battle], ['txt', 'html']);
    expect(files.txt).toContain('(storm-riders) of Borea, healthy: rolled + + 0 − (Average (+1)) on 3: 4 = 4\n');
    expect(files.txt).toContain(', 2 suns and a moon, on 3: ');
    expect(files.html).toContain('<td>rolled + + 0 − (Average (+1)) on 3</td><td>4</td>');
  });

  it('writes a player roll and an exploration in words in the event sentences', () => {
    const names = { campaign: played.open.campaign, nationName: (id: string) => id, unit: (id: string) => id, settlement: (id: string) => id } as unknown as Parameters<typeof describeEvent>[1];
    const explored: LoggedEvent = { seq: 1, phase: 'explore', type: 'explore_roll', nations: [argenta], nation: argenta, unit: asUnitId('pathfinders'), at: asHexKey('3,6'), beat: 3, roll: dice, fateSpent: 0, modifier: 0, total: 4, found: true };
    expect(describeEvent(explored, names)).toContain('explored around 3,6: rolled + + 0 − (Average (+1)) on 3: 4 = 4 against Good (+3) to beat');
  });

  it('writes a create-advantage roll under the Deck of Fate as the card drawn, not as four empty dice', () => {
    const names = { campaign: played.open.campaign, nationName: (id: string) => id, unit: (id: string) => id, settlement: (id: string) => id } as unknown as Parameters<typeof describeEvent>[1];
    const base = { seq: 1, phase: 'aspects' as const, type: 'aspect_roll' as const, nations: [argenta], nation: argenta, action: 'create_advantage' as const, aspect: 'Safe Roads', by: 'the Duke', skill: 2, difficulty: 2 };
    const drawn: LoggedEvent = { ...base, dice: [card], faces: [], total: twoSunsAMoon.result + 2, shifts: twoSunsAMoon.result, outcome: 'tie' };
    expect(describeEvent(drawn, names)).toMatch(/^the Duke tried to create the advantage "Safe Roads": drew .+ \([+-]?\d\), 2 suns and a moon, \+ 2 = -?\d against 2 — /);
    const thrown: LoggedEvent = { ...base, dice: [], faces: [1, 1, 0, -1], total: 3, shifts: 1, outcome: 'success' };
    expect(describeEvent(thrown, names)).toBe('the Duke tried to create the advantage "Safe Roads": 4dF [++0−] + 2 = 3 against 2 — a success.');
  });
});
