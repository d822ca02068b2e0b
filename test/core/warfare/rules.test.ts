import { describe, expect, it } from 'vitest';
import { clashOfArms, rangedAttack, siegeAttack } from '../../../src/core/warfare/actions.js';
import { defaultBattlefield } from '../../../src/core/warfare/battlefield.js';
import { act, allocate } from '../../../src/core/warfare/commander.js';
import { moveToward, path, speed } from '../../../src/core/warfare/movement.js';
import { commander, unitName, unitsOf, unitSkill } from '../../../src/core/warfare/state.js';
import { parseWarfareCatalogue } from '../../../src/campaign/warfare-schema.js';
import { catalogue, DEFAULT_UNITS } from '../../../src/core/warfare/catalogue.js';
import { battle } from './support.js';

const red = (zone: string, more: object = {}) => ({ id: 'a', name: 'Lord Red', side: 'attacker' as const, zone, skills: { command: 3, tactics: 3 }, ...more });
const blue = (zone: string, more: object = {}) => ({ id: 'd', name: 'Lady Blue', side: 'defender' as const, zone, skills: { command: 3, tactics: 3 }, ...more });

describe('Warfare ramparts (seed 001 lines 88–109)', () => {
  const setup = {
    commanders: [red('z2,1'), blue('z0,1')],
    units: ['ca1: cannons @a', 'ca2: cannons @a', 'ar1: archers @a', 'in1: infantry @d', 'ar2: archers @d'],
    ramparts: [{ type: 'keep', zone: 'z0,1' }],
  };

  it('no ranged attack on units behind standing walls, and no attacker moves onto them', () => {
    const st = battle(setup, []);
    expect(rangedAttack(st, commander(st, 'a'), commander(st, 'd'), [{ target: 'in1', attackers: ['ar1'] }])).toBe('Lady Blue is behind ramparts that still stand');
    expect(path(st, commander(st, 'a'), 'z0,1')).toEqual(['z1,1']);
  });

  it('archers on the walls fire without reprisal', () => {
    const st = battle(setup, [0, 0]);
    expect(rangedAttack(st, commander(st, 'd'), commander(st, 'a'), [{ target: 'ar1', attackers: ['ar2'] }])).toBeUndefined();
    expect(st.log[0]!.text).toBe('Archers (ar2) (+2 − 2 for range) against Archers (ar1) (Armor +2): drew +0 against +0; +0 vs +2; failure');
  });

  it('only siege weapons harm them: two cannons that aimed, Siege +6 − 2, against the keep’s +6; stress fills Wall Strength, then the -2 consequence, then it falls', () => {
    // +4 +3 vs +6 +0: 1 stress (box 1); +4 +4 vs +6 +0: 2 (box 2); +4 +4 vs +6 -1: 3 (box 3); +4 +4 vs +6 +0: 2 (the -2); +4 +4 vs +6 +0: falls.
    const st = battle(setup, [3, 0, 4, 0, 4, -1, 4, 0, 4, 0]);
    const a = commander(st, 'a');
    expect(siegeAttack(st, a, 'z0,1', ['ar1'])).toBe('ar1 cannot harm ramparts');
    for (let i = 0; i < 5; i++) expect(siegeAttack(st, a, 'z0,1', ['ca1', 'ca2'])).toBeUndefined();
    expect(st.log.map((e) => e.text.replace(/^.*: drew /, ''))).toEqual([
      '+3 against +0; 1 stress: wall box 1',
      '+4 against +0; 2 stress: wall box 2',
      '+4 against -1; 3 stress: wall box 3',
      '+4 against +0; 2 stress: a -2 consequence',
      '+4 against +0; 2 stress: the Keep falls',
    ]);
    expect(st.log[0]!.text).toContain('(Siege +6 − 2 for range) against the Keep (Armor +6)');
    expect(path(st, a, 'z0,1')).toEqual(['z1,1', 'z0,1']);
  });

  it('a castle is Impenetrable (+10) with two consequences', () => {
    expect(catalogue().ramparts.castle).toMatchObject({ armor: 10, wallStrength: 3, consequences: [2, 4] });
  });
});

describe('Warfare movement (seed 001 lines 152–157)', () => {
  it('as far as the slowest unit; an obstacle costs one more; always at least one zone', () => {
    const field = defaultBattlefield({ obstacles: ['z3,1'] });
    const st = battle({ commanders: [red('z4,1'), blue('z0,0')], units: ['cv1: cavalry @a', 'in1: infantry @a', 'in2: infantry @d'], field }, []);
    const a = commander(st, 'a');
    expect(speed(st, a)).toBe(2);
    // Around the marsh costs 3 to z2,1 (z4,0 → …); through it 3 as well; the cheapest path by zone id.
    expect(moveToward(st, a, 'z0,1')).toBe(1);
    expect(a.zone).toMatch(/^z(3,1|4,0|4,2)$/);
    expect(a.moved).toBe(true);
  });

  it('leaving an enemy of equal or higher Tactics costs a stress card; a novice is pinned', () => {
    const st = battle({ commanders: [red('z2,1'), blue('z2,1', { skills: { command: 3, tactics: 3 } })], units: ['in1: infantry @a', 'in2: infantry @d'] }, [2]);
    moveToward(st, commander(st, 'a'), 'z0,1');
    expect(st.log[0]!.text).toBe('Lord Red breaks away from Lady Blue at the cost of a stress card (2 physical, 0 mental)');
    expect(commander(st, 'a').filled.physical).toEqual([false, true]);
    const pinned = battle({ commanders: [red('z2,1', { novice: true }), blue('z2,1')], units: ['in1: infantry @a', 'in2: infantry @d'] }, []);
    expect(moveToward(pinned, commander(pinned, 'a'), 'z0,1')).toBe(0);
    expect(pinned.log[0]!.text).toBe('Lord Red is pinned in z2,1: a novice cannot break away');
  });

  it('a commander taken out by stress is replaced by a novice: every skill Mediocre, no stress boxes', () => {
    // Four physical stress: box 2 soaks 2, the mild consequence 2 — five is too much.
    const st = battle({ commanders: [red('z2,1'), blue('z2,1')], units: ['in1: infantry @a', 'in2: infantry @d'] }, [4, 4]);
    const a = commander(st, 'a');
    moveToward(st, a, 'z0,1');
    expect(a.novice).toBe(false);
    a.zone = 'z2,1';
    moveToward(st, a, 'z0,1');
    expect(a.novice).toBe(true);
    expect(a.skills).toEqual({});
    expect(st.log.some((e) => e.kind === 'novice' && e.text === 'Lord Red is taken out; a novice commander (after Lord Red) takes command')).toBe(true);
  });

  it('a bloodied unit fights worse: every skill but Movement lower by the campaign’s penalty, never below 0, and the account says so (W17)', () => {
    const st = battle({ commanders: [red('z2,1'), blue('z0,1')], units: ['in1: infantry @a', 'ar1: archers @d'] }, []);
    const [inf, arch] = st.units as [(typeof st.units)[number], (typeof st.units)[number]];
    inf.bloodied = true;
    arch.bloodied = true;
    expect([unitSkill(st, inf, 'fighting'), unitSkill(st, inf, 'armor'), unitSkill(st, inf, 'movement')]).toEqual([2, 4, 2]);
    st.bloodiedPenalty = 2;
    expect([unitSkill(st, inf, 'fighting'), unitSkill(st, inf, 'armor'), unitSkill(st, inf, 'movement')]).toEqual([0, 2, 2]);
    // Aim raises the archers' Marksmanship to +2 first; bloodied, +0 (not below).
    expect(unitSkill(st, arch, 'marksmanship')).toBe(0);
    expect(unitName(st, inf)).toBe('Infantry (in1) (bloodied)');
  });

  it('cavalry that moved charge at Fighting +3; militia defending their home fight at +2', () => {
    const st = battle({ commanders: [red('z2,1'), blue('z0,1')], units: ['cv1: cavalry @a', 'mi1: militia @d'] }, []);
    const cv = st.units[0]!;
    expect(unitSkill(st, cv, 'fighting')).toBe(2);
    commander(st, 'a').moved = true;
    expect(unitSkill(st, cv, 'fighting')).toBe(3);
    expect(unitSkill(st, st.units[1]!, 'fighting')).toBe(2);
  });
});

describe('the automated commander', () => {
  it('allocates its strongest units to the enemy’s weakest Armor until each sum beats it by one', () => {
    const st = battle({ commanders: [red('z1,1'), blue('z1,1')], units: ['in1: infantry @a', 'in2: infantry @a', 'in3: infantry @a', 'mi1: militia @a', 'ar1: archers @d', 'in4: infantry @d'] }, []);
    const f = (u: (typeof st.units)[number]) => unitSkill(st, u, 'fighting');
    expect(allocate(st, unitsOf(st, commander(st, 'a')), unitsOf(st, commander(st, 'd')), f, 0)).toEqual([
      { target: 'ar1', attackers: ['in1', 'in2'] },
      { target: 'in4', attackers: ['in3', 'mi1'] },
    ]);
  });

  it('moves one zone and attacks, and the infantry may march further and still attack (line 152)', () => {
    const st = battle({ commanders: [red('z2,1'), blue('z0,1')], units: ['in1: infantry @a', 'in2: infantry @d'] }, [3, -3]);
    act(st, commander(st, 'a'), { stance: 'aggressive' });
    // +2 +3 against +4 -3: the only defender falls, so no one is left to outflank.
    expect(st.log.map((e) => e.kind)).toEqual(['move', 'clash']);
    expect(st.units.find((u) => u.id === 'in2')!.out).toBe(true);
    expect(st.log[0]!.text).toBe('Lord Red moves z2,1 → z0,1');
  });
});

describe('a commander that holds its ground (W13) and the defence’s invokes (W11)', () => {
  const hold = () => battle({ commanders: [red('z4,1'), blue('z0,1')], units: ['in1: infantry @a', 'in2: infantry @d', 'in3: infantry @d', 'ar1: archers @d'] }, [-3, 0, 0, 0, 0, 0, 0, 0]);

  it('sets its defence on its zone with its units’ Fighting, again while its side has fewer than two free invokes there', () => {
    const st = hold();
    const d = commander(st, 'd');
    // -3 + Fighting +2 + 2 helping = +1 against +0 (its own zone): one free invoke; again +0: +4, with style, two more.
    act(st, d, { stance: 'defensive' });
    act(st, d, { stance: 'defensive' });
    expect(st.log.map((e) => e.text)).toEqual([
      'Lady Blue creates an advantage with 3 unit(s): drew -3 + fighting +2 + 2 helping = +1 against +0: success: Set Defence on z0,1 with 1 free invoke',
      'Lady Blue creates an advantage with 3 unit(s): drew +0 + fighting +2 + 2 helping = +4 against +0: success with style: Set Defence on z0,1 gains 2 free invokes, 3 in all',
    ]);
    expect(st.field.zones.find((z) => z.id === 'z0,1')!.advantages).toEqual([{ name: 'Set Defence', side: 'defender', invokes: 3 }]);
    // Three ready: the archers could fire (the enemy is four zones off, in the Longbows' reach), but +2 − 4 against +4
    // is poor odds (W13: more than one short of the Armor): they hold their arrows. The naive yardstick fires.
    act(st, d, { stance: 'defensive' });
    expect(st.log).toHaveLength(2);
    act(st, d, { stance: 'defensive', naive: true });
    expect(st.log[2]!.kind).toBe('ranged');
    expect(st.log[2]!.text).toMatch(/^Archers \(ar1\) \(\+2 − 4 for range\) against Infantry \(in1\)/);
  });

  it('the defence invokes its side’s free invokes on its zone, +2 each, while the attack would still succeed', () => {
    const st = battle({ commanders: [red('z0,1'), blue('z0,1')], units: ['in1: infantry @a', 'in2: infantry @a', 'in3: infantry @d'] }, [2, 0, 0, 0]);
    st.field.zones.find((z) => z.id === 'z0,1')!.advantages.push({ name: 'Set Defence', side: 'defender', invokes: 3 });
    // +4 +2 against +4 +0: two shifts, so two invokes (+6 vs +8) — the third is kept.
    clashOfArms(st, commander(st, 'a'), commander(st, 'd'), [{ target: 'in3', attackers: ['in1', 'in2'] }], () => []);
    expect(st.log[0]!.text).toBe('Infantry (in1), Infantry (in2) (+4) against Infantry (in3) (Armor +4): drew +2 against +0; the defence invoked Set Defence for +2; the defence invoked Set Defence for +2; +6 vs +8; failure');
    expect(st.field.zones.find((z) => z.id === 'z0,1')!.advantages[0]!.invokes).toBe(1);
  });
});

describe('the plan’s target (W13): a unit type first, or the enemy commanders in person (WF 189–191)', () => {
  it('puts the target type’s units first in the allocation, whatever their Armor', () => {
    const st = battle({ commanders: [red('z1,1'), blue('z1,1')], units: ['in1: infantry @a', 'in2: infantry @a', 'in3: infantry @a', 'ar1: archers @d', 'cv1: cavalry @d'] }, []);
    const f = (u: (typeof st.units)[number]) => unitSkill(st, u, 'fighting');
    expect(allocate(st, unitsOf(st, commander(st, 'a')), unitsOf(st, commander(st, 'd')), f, 0, 'cavalry')).toEqual([{ target: 'cv1', attackers: ['in1', 'in2', 'in3'] }]);
    expect(allocate(st, unitsOf(st, commander(st, 'a')), unitsOf(st, commander(st, 'd')), f, 0)[0]).toEqual({ target: 'ar1', attackers: ['in1', 'in2'] });
  });

  it('attacks the enemy commander in its zone: Fighting against Fighting, stress capped by Fighting, until a novice steps up; then the units clash again', () => {
    const st = battle({ commanders: [red('z1,1', { skills: { command: 3, tactics: 3, fighting: 2 } }), blue('z1,1')], units: ['in1: infantry @a', 'in2: infantry @d'] }, [3, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const a = commander(st, 'a');
    for (let i = 0; i < 5; i++) act(st, a, { stance: 'aggressive', target: 'commander' });
    // With style (three shifts or more) the hit is reduced by one for a minor advantage (seed 000 line 131).
    expect(st.log.slice(0, 5).map((e) => e.text)).toEqual([
      'Lord Red attacks Lady Blue in person: Fighting +2 drew +3 against Fighting +0 drew +0: success with style, the hit reduced by one for a minor advantage: 1 physical stress (box 1)',
      'Lord Red attacks Lady Blue in person: Fighting +2 drew +2 against Fighting +0 drew +0: success with style, the hit reduced by one for a minor advantage: 1 physical stress (box 2)',
      'Lord Red attacks Lady Blue in person: Fighting +2 drew +1 against Fighting +0 drew +0: success with style, the hit reduced by one for a minor advantage: 1 physical stress (a -2 consequence, Battered (Lady Blue))',
      'Lord Red attacks Lady Blue in person: Fighting +2 drew +0 against Fighting +0 drew +0: 2 physical stress: Lady Blue is taken out',
      'Lady Blue is taken out; a novice commander (after Lady Blue) takes command',
    ]);
    // Three with style, three minor advantages; against a novice the units clash, and spend them on new cards: each has
    // a chance in six or better (+2 of 81 cards: 15) to buy the tie (W20).
    expect(st.log.slice(5).map((e) => e.kind)).toEqual(['clash', 'outflank']);
    expect(st.log[5]!.text).toBe('Infantry (in1) (+2) against Infantry (in2) (Armor +4): drew +0 against +0; spent a minor advantage and drew again: +0; spent a minor advantage and drew again: +0; spent a minor advantage and drew again: +0; +2 vs +4; failure');
    expect(commander(st, 'd').novice).toBe(true);
  });
});

describe('the unit catalogue is data a campaign may change (schema-checked)', () => {
  it('overrides an entry whole and adds new ones; ladder words are read', () => {
    const r = parseWarfareCatalogue({ units: { infantry: { name: 'Pikes', skills: { armor: 'Great', fighting: '+3', movement: 1 } }, galleys: { name: 'Galleys', skills: { armor: 3, fighting: 2, movement: 3 }, aspects: ['Oars and Rams'] } } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const cat = catalogue(r.value);
    expect(cat.units.infantry).toEqual({ name: 'Pikes', skills: { armor: 4, fighting: 3, movement: 1 }, aspects: [], stunts: {} });
    expect(cat.units.galleys!.aspects).toEqual(['Oars and Rams']);
    expect(cat.units.archers).toBe(DEFAULT_UNITS.archers);
  });

  it('refuses what it cannot read, saying where', () => {
    const r = parseWarfareCatalogue({ units: { infantry: { name: 'Pikes', skills: { armour: 4, fighting: 'Huge' } } }, walls: {} });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.join('\n')).toMatch(/walls/);
    expect(r.problems.join('\n')).toMatch(/units\.infantry\.skills/);
  });
});
