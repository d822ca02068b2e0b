import { describe, expect, it } from 'vitest';
import { fightAt82 } from './turn-support.js';

const accountOf = (warfare: Record<string, unknown>) => {
  const e = fightAt82(warfare).result.events.find((x) => x.type === 'warfare');
  if (e?.type !== 'warfare') throw new Error('no Warfare battle');
  return e.account;
};

describe('Warfare in the turn: commanders (docs/rules.md W15)', () => {
  it('without the leader in the battle and no lieutenant, a novice commands (every skill +0)', () => {
    const account = accountOf({ enabled: true });
    expect(account).toContain('  a novice commander of Duchy of Argenta moves z4,1 → z2,1');
  });

  it('a named lieutenant commands the nation’s units with its own Command and Tactics', () => {
    const account = accountOf({ enabled: true, lieutenants: { gondarahl: [{ name: 'Thane Borin', command: 3, tactics: 4 }] } });
    // Exchange 2: after the clash, Borin's Tactics +4 against the novice's +0 (cards +0): he outflanks.
    expect(account).toContain('  Thane Borin tries to outflank: Tactics +4 drew +0 = +4 against +0 drew +0 = +0: outflanked, the survivors strike back');
  });

  it('a lieutenant of a nation not in the campaign is refused', () => {
    expect(() => fightAt82({ lieutenants: { atlantis: [{ name: 'Nobody', command: 1, tactics: 1 }] } })).toThrow(/rules\.warfare\.lieutenants\.atlantis.*no nation "atlantis"/s);
  });
});

describe('Warfare in the turn: bloodied units (docs/rules.md W17)', () => {
  it('a unit that comes bloodied fights one lower by default (rules.warfare.bloodied), and not at all lower with 0', () => {
    const e = fightAt82({ enabled: true }, ['a-3']).result.events.find((x) => x.type === 'warfare');
    if (e?.type !== 'warfare') throw new Error('no Warfare battle');
    // Exchange 2: the knights charge at +3, one lower bloodied: +2, no better than a marine, so all three go at d-1.
    expect(e.account).toContain('  Marines (a-1), Marines (a-2), Knights (a-3) (bloodied) (+6) against Dwarven infantry (d-1) (Armor +4): drew +0 against +0; the defence invoked Set Defence for +2; the defence invoked Set Defence for +2; +6 vs +8; failure');
    const off = fightAt82({ enabled: true, bloodied: 0 }, ['a-3']).result.events.find((x) => x.type === 'warfare');
    if (off?.type !== 'warfare') throw new Error('no Warfare battle');
    expect(off.account).toContain('  Knights (a-3), Marines (a-1) (+5) against Dwarven infantry (d-1) (Armor +4): drew +0 against +0; the defence invoked Set Defence for +2; +5 vs +6; failure');
  });
});

describe('Warfare in the turn: the result mapped back (docs/rules.md W16)', () => {
  it('by default a unit taken out is destroyed; with takenOut: bloodied a healthy one is bloodied and lives', () => {
    const lost = fightAt82({ enabled: true }).result;
    const war = lost.events.find((e) => e.type === 'warfare');
    if (war?.type !== 'warfare') throw new Error('no Warfare battle');
    expect(war.casualties.every((c) => c.result === 'destroyed')).toBe(true);
    for (const c of war.casualties) expect(lost.state.units[c.unit]).toBeUndefined();
    const kept = fightAt82({ enabled: true, takenOut: 'bloodied' }).result;
    const war2 = kept.events.find((e) => e.type === 'warfare');
    if (war2?.type !== 'warfare') throw new Error('no Warfare battle');
    expect(war2.casualties.length).toBeGreaterThan(0);
    for (const c of war2.casualties) {
      expect(c.result).toBe('bloodied');
      expect(kept.state.units[c.unit]?.health).toBe('bloodied');
    }
    // The winner gains a battle won, as in an ordinary battle.
    const winner = war2.winner === 'attacker' ? war2.attacker : war2.defender;
    expect(kept.state.nations[winner]!.battlesWon).toBe(1);
  });
});

describe('Warfare in the turn: rules.warfare.prepare (docs/rules.md W14)', () => {
  it('on by default (W14: equal armies near even); on, the attacker stops next to the prepared defence and creates an advantage on its zone before closing; off, it marches straight in', () => {
    expect(accountOf({ enabled: true, prepare: false }).some((l) => l.includes('Ready to Storm'))).toBe(false);
    const account = accountOf({ enabled: true });
    // Exchange 2: the defence holds two free invokes on z0,1; the novice moves one zone and prepares its blow (the knights, having moved, charge at +3) against the distance (1).
    expect(account).toContain('  a novice commander of Duchy of Argenta moves z2,1 → z1,1');
    expect(account).toContain('  a novice commander of Duchy of Argenta creates an advantage with 3 unit(s): drew +0 + fighting +3 + 2 helping = +5 against +1: success with style: Ready to Storm on z0,1 with 2 free invokes');
  });
});
