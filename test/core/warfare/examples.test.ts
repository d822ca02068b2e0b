import { describe, expect, it } from 'vitest';
import { clashOfArms, rangedAttack } from '../../../src/core/warfare/actions.js';
import { createAdvantage } from '../../../src/core/warfare/heroic.js';
import { commander } from '../../../src/core/warfare/state.js';
import { battle } from './support.js';

/**
 * The worked examples of seed 001 (lines 163–185), each with the cards forced
 * to give the results the seed narrates. Zones: z1,1 is next to z0,1.
 */
const out = (st: ReturnType<typeof battle>) => st.units.filter((u) => u.out).map((u) => u.id).sort();

describe('Warfare: the seed’s ranged attack example (lines 163–165)', () => {
  const setup = {
    commanders: [
      { id: 'a', name: 'Lord Red', side: 'attacker' as const, zone: 'z1,1', skills: { command: 3 } },
      { id: 'd', name: 'Lady Blue', side: 'defender' as const, zone: 'z0,1', skills: { command: 3 } },
    ],
    units: ['ar1: archers @a', 'ar2: archers @a', 'ar3: archers @a', 'ar4: archers @a', 'in1: infantry @d', 'in2: infantry @d', 'bm1: battleMages @d'],
  };

  it('three archers that have not moved fire at +5 against an infantry’s +4; one archer at +1 against the mages’ +0', () => {
    // Both cards Mediocre (+0) each time: +5 beats +4 and +1 beats +0 by a shift.
    const st = battle(setup, [0, 0, 0, 0]);
    const refused = rangedAttack(st, commander(st, 'a'), commander(st, 'd'), [
      { target: 'in1', attackers: ['ar1', 'ar2', 'ar3'] },
      { target: 'bm1', attackers: ['ar4'] },
    ]);
    expect(refused).toBeUndefined();
    expect(st.log.map((e) => e.text)).toEqual([
      'Archers (ar1), Archers (ar2), Archers (ar3) (+6 − 1 for range) against Infantry (in1) (Armor +4): drew +0 against +0; +5 vs +4; success; Infantry (in1) is taken out',
      'Archers (ar4) (+2 − 1 for range) against Battle Mages (bm1) (Armor +0): drew +0 against +0; +1 vs +0; success; Battle Mages (bm1) is taken out',
    ]);
    expect(out(st)).toEqual(['bm1', 'in1']);
  });

  it('archers that moved lose Aim and fire with Marksmanship +1 each', () => {
    const st = battle(setup, [0, 0]);
    commander(st, 'a').moved = true;
    rangedAttack(st, commander(st, 'a'), commander(st, 'd'), [{ target: 'in1', attackers: ['ar1', 'ar2', 'ar3'] }]);
    expect(st.log[0]!.text).toContain('(+3 − 1 for range)');
    expect(out(st)).toEqual([]);
  });

  it('archers with an enemy in their zone are pinned; a target past four zones is out of range', () => {
    const st = battle({ ...setup, commanders: [setup.commanders[0]!, { ...setup.commanders[1]!, zone: 'z1,1' }] }, []);
    expect(rangedAttack(st, commander(st, 'a'), commander(st, 'd'), [{ target: 'in1', attackers: ['ar1'] }])).toBe('ar1 cannot make a ranged attack now');
    const far = battle({ ...setup, commanders: [{ ...setup.commanders[0]!, zone: 'z4,0' }, { ...setup.commanders[1]!, zone: 'z0,1' }] }, []);
    expect(rangedAttack(far, commander(far, 'a'), commander(far, 'd'), [{ target: 'in1', attackers: ['ar1'] }])).toBe('ar1 reaches 4 zones; Lady Blue is 5 away');
  });
});

describe('Warfare: the seed’s clash of arms and outflank examples (lines 170–180)', () => {
  const setup = {
    commanders: [
      { id: 'a', name: 'Lord Red', side: 'attacker' as const, zone: 'z1,1', skills: { command: 3, tactics: 3 } },
      { id: 'd', name: 'Lady Blue', side: 'defender' as const, zone: 'z1,1', skills: { command: 3, tactics: 4 } },
    ],
    units: ['in1: infantry @a', 'in2: infantry @a', 'in3: infantry @a', 'mi1: militia @a', 'mi2: militia @a', 'ar1: archers @d', 'ar2: archers @d', 'ar3: archers @d', 'in4: infantry @d', 'in5: infantry @d'],
  };
  // Clash: +4 vs +2 drawn +1 / 0 (style, +3); +2 vs +2 drawn -2 / +1 (-3), drawn again -1 (-2); +2 vs +2 drawn 0 / -1 (+1).
  // Outflank: Tactics +4 drawn +1 = +5 against +3 drawn 0 = +3.
  // Counter: archer and infantry +4 against militia +2, drawn 0 / 0 (+2); infantry +2 against militia +2, drawn +1 / 0 (+1).
  const draws = [1, 0, -2, 1, -1, 0, -1, 1, 0, 0, 0, 1, 0];

  it('two militia and an infantry sweep an archer with style; the minor advantage buys a second draw that still fails; the last infantry wins by one', () => {
    const st = battle(setup, draws);
    clashOfArms(
      st,
      commander(st, 'a'),
      commander(st, 'd'),
      [
        { target: 'ar1', attackers: ['mi1', 'mi2', 'in1'] },
        { target: 'ar2', attackers: ['in2'] },
        { target: 'ar3', attackers: ['in3'] },
      ],
      () => [
        { target: 'mi1', attackers: ['ar2', 'in4'] },
        { target: 'mi2', attackers: ['in5'] },
      ],
    );
    const texts = st.log.map((e) => e.text);
    expect(texts[0]).toBe('Militia (mi1), Militia (mi2), Infantry (in1) (+4) against Archers (ar1) (Armor +2): drew +1 against +0; +5 vs +2; success with style, a minor advantage; Archers (ar1) is taken out');
    expect(texts[1]).toBe('Infantry (in2) (+2) against Archers (ar2) (Armor +2): drew -2 against +1; spent a minor advantage and drew again: -1; +1 vs +3; failure');
    expect(texts[2]).toBe('Infantry (in3) (+2) against Archers (ar3) (Armor +2): drew +0 against -1; +2 vs +1; success; Archers (ar3) is taken out');
    // The outflank (lines 176–179): +5 against +3, and both militia fall.
    expect(texts[3]).toBe('Lady Blue tries to outflank: Tactics +4 drew +1 = +5 against +3 drew +0 = +3: outflanked, the survivors strike back');
    expect(texts[4]).toBe('Archers (ar2), Infantry (in4) (+4) against Militia (mi1) (Armor +2): drew +0 against +0; +4 vs +2; success; Militia (mi1) is taken out');
    expect(texts[5]).toBe('Infantry (in5) (+2) against Militia (mi2) (Armor +2): drew +1 against +0; +3 vs +2; success; Militia (mi2) is taken out');
    expect(out(st)).toEqual(['ar1', 'ar3', 'mi1', 'mi2']);
    // The failure by two gave the defence nothing (line 173); the attacker's advantage was spent.
    expect(commander(st, 'd').boosts).toBe(0);
    expect(commander(st, 'a').boosts).toBe(0);
  });

  it('no outflank when the defender’s Tactics does not beat the attacker’s', () => {
    const st = battle(setup, [1, 0, -2, 1, -1, 0, -1, -1, 0]);
    clashOfArms(st, commander(st, 'a'), commander(st, 'd'), [{ target: 'ar1', attackers: ['mi1', 'mi2', 'in1'] }, { target: 'ar2', attackers: ['in2'] }, { target: 'ar3', attackers: ['in3'] }], () => [{ target: 'mi1', attackers: ['in4'] }]);
    expect(st.log[3]!.text).toContain('= +3 against +3 drew +0 = +3: no');
    expect(st.log).toHaveLength(4);
  });
});

describe('Warfare: the seed’s create-advantage example with the archers (line 185)', () => {
  it('three archers two zones from the gorge: +1 + Marksmanship +2 + two helping = +5 against +2, Rain of Arrows with two free invokes', () => {
    const st = battle(
      {
        commanders: [{ id: 'a', name: 'Lord Red', side: 'attacker', zone: 'z2,1', skills: { command: 3 } }],
        units: ['ar1: archers @a', 'ar2: archers @a', 'ar3: archers @a'],
      },
      [1],
    );
    createAdvantage(st, commander(st, 'a'), ['ar1', 'ar2', 'ar3'], 'marksmanship', 'z0,1', 'Rain of Arrows');
    expect(st.log[0]!.text).toBe('Lord Red creates an advantage with 3 unit(s): drew +1 + marksmanship +2 + 2 helping = +5 against +2: success with style: Rain of Arrows on z0,1 with 2 free invokes');
    expect(st.field.zones.find((z) => z.id === 'z0,1')!.advantages).toEqual([{ name: 'Rain of Arrows', side: 'attacker', invokes: 2 }]);
  });

  it('the attacker’s free invokes on the target’s zone turn a failing attack (+2 each)', () => {
    const st = battle(
      {
        commanders: [
          { id: 'a', name: 'Lord Red', side: 'attacker', zone: 'z2,1', skills: { command: 3 } },
          { id: 'd', name: 'Lady Blue', side: 'defender', zone: 'z0,1', skills: { command: 3 } },
        ],
        units: ['ar1: archers @a', 'in1: infantry @d'],
      },
      [0, 0],
    );
    st.field.zones.find((z) => z.id === 'z0,1')!.advantages.push({ name: 'Rain of Arrows', side: 'attacker', invokes: 2 });
    rangedAttack(st, commander(st, 'a'), commander(st, 'd'), [{ target: 'in1', attackers: ['ar1'] }]);
    // +2 − 2 = +0 against +4: two invokes bring it to +4, a tie, bought with a minor advantage to the defence.
    expect(st.log[0]!.text).toContain('invoked Rain of Arrows for +2; invoked Rain of Arrows for +2; +4 vs +4; a tie, bought with a minor advantage to the other side');
    expect(commander(st, 'd').boosts).toBe(1);
  });
});
