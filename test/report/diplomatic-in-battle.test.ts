import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoggedEvent } from '../../src/core/events.js';
import { asHexKey, asNationId, asUnitId } from '../../src/core/ids.js';
import { FIXTURE, play, reportWith, type Played } from './support.js';

/** A diplomatic unit caught in a battle is there to be protected: the report says it does not fight, rather than "rolled 0". */
let played: Played;
beforeAll(async () => {
  played = await play(FIXTURE, 1, 'diplomatic-battle');
});
afterAll(() => played?.cleanup());

const argenta = asNationId('argenta');
const borea = asNationId('borea');
const battle: LoggedEvent = {
  seq: 9000,
  phase: 'combat',
  type: 'battle',
  nations: [argenta, borea],
  battle: 'attack:storm-riders',
  at: asHexKey('3,6'),
  kind: 'open',
  attacker: { nation: borea, units: [asUnitId('storm-riders')], rolls: [{ unit: asUnitId('storm-riders'), nation: borea, health: 'healthy', roll: { die: 'd6', value: 4 }, modifiers: [], total: 4 }], fateSpent: 0, fateModifier: 0, sideModifiers: [], total: 4 },
  defender: { nation: argenta, units: [asUnitId('pathfinders')], rolls: [{ unit: asUnitId('pathfinders'), nation: argenta, health: 'healthy', roll: { die: 'd6', value: 0 }, modifiers: [], total: 0 }], fateSpent: 0, fateModifier: 0, sideModifiers: [], total: 0 },
  winner: 'attacker',
  deficit: 4,
  casualties: [],
  overkill: 0,
};

describe('a diplomatic unit in a battle', () => {
  it('does not fight, in the text and the HTML report', () => {
    const files = reportWith(played, argenta, [battle], ['txt', 'html']);
    expect(files.txt).toMatch(/Settlers 'Pathfinders' \(pathfinders\), healthy: does not fight \(a diplomatic unit\) = 0\n/);
    expect(files.txt).toMatch(/Cavalry 'Storm Riders' \(storm-riders\) of Borea, healthy: d6 rolled 4 = 4\n/);
    expect(files.html).toContain('<td colspan="3">does not fight (a diplomatic unit)</td>');
  });
});
