import { describe, expect, it } from 'vitest';
import { SeededRandomiser } from '../../../src/core/dice.js';
import { FateLayer } from '../../../src/core/fate/layer.js';
import { DEFAULT_RULES } from '../../../src/core/settings.js';
import { runBattle, setupProblems } from '../../../src/core/warfare/battle.js';
import { catalogue } from '../../../src/core/warfare/catalogue.js';
import { forces } from './forces.js';
import { seededStream } from './support.js';

const cat = catalogue();
const army = ['infantry', 'infantry', 'archers'];

describe('a whole Warfare battle, fought by the automated commanders', () => {
  it('is byte-identical on re-run, and ends with the resolution rule', () => {
    const b = forces({ nation: 'red', units: army }, { nation: 'blue', units: army });
    const one = runBattle(b, cat, seededStream('s1'), 'deck');
    const two = runBattle(b, cat, seededStream('s1'), 'deck');
    expect(JSON.stringify(two)).toBe(JSON.stringify(one));
    const last = one.log[one.log.length - 1]!;
    expect(last.kind).toBe('end');
    expect(last.text).toBe(`the ${one.winner}s win: ${one.reason}`);
    // Every unit taken out is named in the account; the loser has nothing left on the field or the defenders held.
    for (const id of [...one.takenOut.attacker, ...one.takenOut.defender]) expect(one.log.some((e) => e.text.includes(`(${id}) is taken out`))).toBe(true);
    expect(one.maps[0]!.lines).toEqual(['[  A3       ] [           ] [  A3       ]', '[           ] [           ] [           ]', '[           ] [           ] [           ]', '[           ] [  D3       ] [           ]', '[           ] [* D3       ] [           ]']);
  });

  it("draws only from its own stream and its nations' piles: another nations' battle fought first changes nothing", () => {
    const b = forces({ nation: 'red', units: army }, { nation: 'blue', units: army });
    const layer = () => new FateLayer(new SeededRandomiser('local', 3), { ...DEFAULT_RULES.fate, randomiser: 'deck' }, () => undefined);
    const alone = runBattle(b, cat, layer().stream('warfare:b1'), 'deck');
    const shared = layer();
    // Each nation has one pile a season (F4): a battle of other nations leaves red's and blue's untouched.
    runBattle(forces({ nation: 'green', units: ['cavalry'] }, { nation: 'gold', units: army }), cat, shared.stream('warfare:b0'), 'deck');
    const after = runBattle(b, cat, shared.stream('warfare:b1'), 'deck');
    expect(JSON.stringify(after)).toBe(JSON.stringify(alone));
    // Each side drew from its own nation's deck.
    expect(new Set(alone.draws.map((d) => `${d.side}:${d.nation}:${d.rolls[0]!.fate!.deck}`))).toEqual(new Set(['attacker:red:red', 'defender:blue:blue']));
  });

  it('under four Fate dice and in a d6 campaign too (four d3s read as − 0 +)', () => {
    const b = forces({ nation: 'red', units: army }, { nation: 'blue', units: army });
    for (const kind of ['fateDice', 'd6'] as const) {
      const r = runBattle(b, cat, kind === 'd6' ? new SeededRandomiser('x', 1).stream('warfare:b') : seededStream('x', kind), kind);
      expect(['attacker', 'defender']).toContain(r.winner);
      expect(r.draws.every((d) => d.result >= -4 && d.result <= 4)).toBe(true);
    }
  });

  it('a side withdraws when its plan says; the defenders hold when the exchanges run out', () => {
    const b = { ...forces({ nation: 'red', units: army }, { nation: 'blue', units: army }), plans: { attacker: { stance: 'aggressive' as const, withdrawAt: 5 } } };
    const r = runBattle(b, cat, seededStream('w'), 'deck');
    const w = r.log.find((e) => e.kind === 'withdraw')!;
    expect(w.text).toMatch(/^the attackers withdraw with [1-5] unit\(s\) left, as their plan says$/);
    expect(r.winner).toBe('defender');
    expect(r.withdrawn.attacker.length).toBeGreaterThan(0);
    const slow = { ...forces({ nation: 'red', units: army }, { nation: 'blue', units: army }), maxExchanges: 1 };
    expect(runBattle(slow, cat, seededStream('w'), 'deck').reason).toBe('the defenders still hold after 1 exchange');
  });

  it('reserves stay where they are until the exchange the plan names', () => {
    const b = { ...forces({ nation: 'red', units: army }, { nation: 'blue', units: army }), plans: { attacker: { stance: 'aggressive' as const, reserves: { commanders: ['red-2'], until: 3 } } } };
    const r = runBattle(b, cat, seededStream('r'), 'deck');
    const firstMove = r.log.find((e) => e.commander === 'red-2' && e.kind === 'move')!;
    expect(firstMove.exchange).toBe(3);
  });

  it('checks the setup: unknown types and commanders, too many units for a commander, ramparts off the strategic zone', () => {
    const b = forces({ nation: 'red', units: ['infantry', 'infantry', 'infantry', 'infantry'] }, { nation: 'blue', units: ['dragons'] });
    expect(setupProblems({ ...b, ramparts: [{ type: 'keep', zone: 'z2,1' }] }, cat)).toEqual([
      'unit blue-1-1: no unit type "dragons" in the catalogue',
      'unit blue-2-1: no unit type "dragons" in the catalogue',
      'red general 1 leads 4 units; at most 3',
      'red general 2 leads 4 units; at most 3',
      'ramparts stand on the strategic zone, not z2,1 (line 89)',
    ]);
    // Command +3 leads three, and a defender of its capital one more (seed 001 line 139).
    const big = forces({ nation: 'red', units: army }, { nation: 'blue', units: ['infantry', 'infantry', 'infantry', 'infantry'] });
    expect(setupProblems({ ...big, capital: true }, cat)).toEqual([]);
  });
});
