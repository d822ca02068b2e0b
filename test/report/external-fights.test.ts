import { describe, expect, it } from 'vitest';
import type { LoggedEvent } from '../../src/core/events.js';
import { asExternalId, asHexKey, asNationId } from '../../src/core/ids.js';
import { FIXTURE, reportWith, viewWith, type Played, playBeforeAll } from './support.js';

/**
 * A structure fought over (docs/rules.md X3): its owner and its attacker read what became of it, in words
 * (no ids, no battle scopes); a third nation near enough hears a rumour of a taking or a razing, without the place.
 */
let played: Played;
playBeforeAll(FIXTURE, 1, 'external-fights', (p) => (played = p));

const argenta = asNationId('argenta');
const borea = asNationId('borea');
const corsa = asNationId('corsa');
const at = asHexKey('3,6');
const fights: LoggedEvent[] = [
  { seq: 9001, phase: 'combat', type: 'external_captured', nations: [argenta, borea], external: asExternalId('x9'), structure: 'silver-mine', at, from: argenta, to: borea, by: [], battle: 'external:x9' },
  { seq: 9002, phase: 'combat', type: 'external_destroyed', nations: [argenta, borea], external: asExternalId('x8'), structure: 'silver-mine', at, nation: borea, by: argenta, units: [] },
  { seq: 9003, phase: 'combat', type: 'external_held', nations: [argenta, borea], external: asExternalId('x7'), structure: 'silver-mine', at, nation: argenta, by: borea, battle: 'external:x7' },
];

const viewOf = (nation: typeof argenta) => viewWith(played, nation, fights);

function report(nation: typeof argenta): string {
  return reportWith(played, nation, fights, ['txt']).txt;
}

describe('fights for structures in the reports', () => {
  it('tells the owner and the attacker', () => {
    for (const nation of [argenta, borea]) {
      const txt = report(nation);
      expect(txt).toContain("Borea took Argenta's Silver Mine at 3,6; what it yields is now Borea's.");
      expect(txt).toContain("Argenta destroyed Borea's Silver Mine at 3,6.");
      expect(txt).toContain('Argenta held its Silver Mine at 3,6 against Borea.');
      expect(txt).not.toMatch(/external:x\d|\bx[789]\b/);
    }
  });

  it("marks the map where a nation lost a structure or took one", () => {
    const marks = (nation: typeof argenta) => viewOf(nation).changes.marks.filter((m) => m.hex === '3,6').map((m) => m.kind).sort();
    // Argenta lost the mine Borea took; Borea took one and lost the one Argenta razed.
    expect(marks(argenta)).toContain('lost');
    expect(marks(borea)).toEqual(expect.arrayContaining(['lost', 'new']));
    expect(marks(corsa)).toEqual([]);
  });

  it('tells no one else more than a rumour, without the place', () => {
    const txt = report(corsa);
    expect(txt).not.toContain('Silver Mine at 3,6');
    // Port Corsa is within a rumour's range of 3,6.
    expect(txt).toContain('Travellers say Borea has taken a Silver Mine from Argenta.');
    expect(txt).toContain('Travellers say Argenta has razed a Silver Mine of Borea.');
    expect(txt).not.toContain('held its Silver Mine');
  });
});
