import { describe, expect, it } from 'vitest';
import { asNationId, asUnitId } from '../../src/core/ids.js';
import { FIXTURE, reportWith, type Played, playBeforeAll, openBattle } from './support.js';

/** A diplomatic unit caught in a battle is there to be protected: the report says it does not fight, rather than "rolled 0". */
let played: Played;
playBeforeAll(FIXTURE, 1, 'diplomatic-battle', (p) => (played = p));

const argenta = asNationId('argenta');
const borea = asNationId('borea');
const battle = openBattle({
  nations: [argenta, borea],
  battle: 'attack:storm-riders',
  attacker: { nation: borea, units: [asUnitId('storm-riders')], rolls: [{ unit: asUnitId('storm-riders'), nation: borea, health: 'healthy', roll: { die: 'd6', value: 4 }, modifiers: [], total: 4 }], fateSpent: 0, fateModifier: 0, sideModifiers: [], total: 4 },
  defender: { nation: argenta, units: [asUnitId('pathfinders')], rolls: [{ unit: asUnitId('pathfinders'), nation: argenta, health: 'healthy', roll: { die: 'd6', value: 0 }, modifiers: [], total: 0 }], fateSpent: 0, fateModifier: 0, sideModifiers: [], total: 0 },
  winner: 'attacker',
  deficit: 4,
});

describe('a diplomatic unit in a battle', () => {
  it('does not fight, in the text and the HTML report', () => {
    const files = reportWith(played, argenta, [battle], ['txt', 'html']);
    expect(files.txt).toMatch(/Settlers 'Pathfinders' \(pathfinders\), healthy: does not fight \(a diplomatic unit\) = 0\n/);
    expect(files.txt).toMatch(/Cavalry 'Storm Riders' \(storm-riders\) of Borea, healthy: d6 rolled 4 = 4\n/);
    expect(files.html).toContain('<td colspan="3">does not fight (a diplomatic unit)</td>');
  });
});
