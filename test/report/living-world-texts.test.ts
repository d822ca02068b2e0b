import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoggedEvent } from '../../src/core/events.js';
import { asNationId, asSettlementId, asUnitId } from '../../src/core/ids.js';
import type { GameState } from '../../src/core/state.js';
import { describeEvent } from '../../src/report/describe.js';
import { Namer } from '../../src/report/namer.js';
import { buildState, loadWorld } from '../support/case-world.js';

/** How reports word the catch a player chose (docs/rules.md D2) and a civil war (L3), for each reader. */
const campaign = loadWorld(join(import.meta.dirname, '..', 'cases', 'events', '_civil-war-world.yaml'));
const state: GameState = buildState(campaign, {
  settlements: { 'far-a': { nation: 'silverfall', hex: '9,8', name: 'Far A' } },
  units: { spy: { nation: 'argenta', type: 'worker', hex: '8,8' }, rebel: { nation: 'silverfall', type: 'knight', hex: '9,8' } },
});
const namer = (reader: string | null) => new Namer(campaign, state, state, () => true, reader === null ? null : asNationId(reader));
const base = { seq: 1, phase: 'actions' as const };

describe('report texts of the living world', () => {
  it('tell a hunt with Fate and a spy let go', () => {
    const roll = { ...base, type: 'catch_roll', nations: [asNationId('gondarahl')], nation: asNationId('gondarahl'), unit: asUnitId('spy'), action: 'Espionage', place: 'Kingdom of Gondarahl', beat: 4, roll: { die: 'd6', value: 3, forced: true }, caught: true, fateSpent: 2, modifiers: [{ value: 2, source: 'Fate' }], total: 5 } as LoggedEvent;
    expect(describeEvent(roll, namer('gondarahl'))).toBe("Your guards tried to catch Construction worker (spy) of Duchy of Argenta after the Espionage at Kingdom of Gondarahl: d6 3, +2 for 2 Fate = 5 against 4 to beat — caught.");
    const waived = { ...base, type: 'catch_waived', nations: [asNationId('gondarahl')], nation: asNationId('gondarahl'), action: 'Espionage', place: 'Kingdom of Gondarahl' } as LoggedEvent;
    expect(describeEvent(waived, namer('gondarahl'))).toBe('Your guards let the culprit go after the Espionage at Kingdom of Gondarahl, as ordered.');
  });

  it('tell a civil war to the nation that lost, and to the one that rose', () => {
    const war = { ...base, phase: 'events', type: 'civil_war', nations: [asNationId('argenta'), asNationId('silverfall')], from: asNationId('argenta'), into: asNationId('silverfall'), leader: 'Lady Mirela', settlements: [asSettlementId('far-a')], units: [asUnitId('rebel')], builds: 0, event: 'The succession war' } as LoggedEvent;
    expect(describeEvent(war, namer('argenta'))).toBe('Civil war (The succession war): Free Silverfall, under Lady Mirela, broke away from Duchy of Argenta, taking Far A and 1 unit.');
    expect(describeEvent(war, namer('silverfall'))).toBe('Civil war (The succession war): Lady Mirela raises the banner of Free Silverfall against Duchy of Argenta; Far A and 1 unit are yours.');
  });

  it('tell a structure razed by an action: by the action\'s name alone when it does not name its actor (rules.md X7)', () => {
    const razed = { ...base, type: 'external_destroyed', nations: [asNationId('argenta'), asNationId('gondarahl')], external: 'x-1', structure: 'mine', at: '10,8', nation: asNationId('gondarahl'), units: [], reason: 'Bombardment' } as unknown as LoggedEvent;
    expect(describeEvent(razed, namer('gondarahl'))).toBe("Bombardment destroyed Kingdom of Gondarahl's Silver mine at 10,8.");
    const named = { ...(razed as object), by: asNationId('argenta') } as LoggedEvent;
    expect(describeEvent(named, namer('gondarahl'))).toBe("Duchy of Argenta destroyed Kingdom of Gondarahl's Silver mine at 10,8 (Bombardment).");
  });
});
