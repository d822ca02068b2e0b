import { describe, expect, it } from 'vitest';
import { ForcedRandomiser } from '../../../src/core/dice.js';
import { asNationId } from '../../../src/core/ids.js';
import type { TurnOrders } from '../../../src/core/orders.js';
import { resolveTurn } from '../../../src/core/turn.js';
import { defaultBattlefield } from '../../../src/core/warfare/battlefield.js';
import { runBattle, type WarfareBattle } from '../../../src/core/warfare/battle.js';
import { catalogue } from '../../../src/core/warfare/catalogue.js';
import { WALLS, wallsOf } from '../../../src/core/warfare/walls.js';
import { interpretSheet } from '../../../src/orders/sheet.js';
import { buildState, loadWorld } from '../../support/case-world.js';
import { join } from 'node:path';
import { act, DEFAULT_PLANS, STORM } from '../../../src/core/warfare/commander.js';
import { commander } from '../../../src/core/warfare/state.js';
import { battle, seededStream } from './support.js';

const WORLD = join(import.meta.dirname, '..', '..', 'cases', '_world.yaml');

/** Argenta's three besiegers (a-1 assaulting, a-2 and a-3 supporting) storm Ironhold (battlements given), every card +0. */
function assaultIronhold(warfare: Record<string, unknown>, types: [string, string, string], battlements: number[]) {
  const campaign = loadWorld(WORLD, { fate: { randomiser: 'fateDice' }, warfare });
  const state = buildState(campaign, {
    settlements: { ironhold: { nation: 'gondarahl', level: 'town', hex: '8,2', name: 'Ironhold', battlements } },
    units: {
      'a-1': { nation: 'argenta', type: types[0], hex: '8,2', besieging: 'ironhold' },
      'a-2': { nation: 'argenta', type: types[1], hex: '8,2', besieging: 'ironhold' },
      'a-3': { nation: 'argenta', type: types[2], hex: '8,2', besieging: 'ironhold' },
      'd-1': { nation: 'gondarahl', type: 'dwarves', hex: '8,2' },
    },
  } as never);
  const sheet = { turn: state.turn + 1, entries: [{ line: 1, text: 'assault', fields: { assault: 'a-1', support: ['a-2', 'a-3'] } }], problems: [] };
  const orders: TurnOrders = { nations: { [asNationId('argenta')]: interpretSheet(sheet, asNationId('argenta'), campaign, state).orders }, gm: [] };
  const dice = new ForcedRandomiser({ 'warfare:assault:a-1': Array(400).fill(0), 'battle:assault:a-1': [6, 6, 6, 1] }, undefined);
  return resolveTurn({ campaign, state, orders, dice });
}

describe('Assaults as Warfare (docs/rules.md W18)', () => {
  it('stay d6 battles unless rules.warfare.assaults is on, whatever the hex flag', () => {
    const r = assaultIronhold({ enabled: true, hexes: ['8,2'] }, ['marines', 'mortar', 'marines'], [1]);
    expect(r.events.some((e) => e.type === 'warfare')).toBe(false);
    expect(r.events.find((e) => e.type === 'battle')).toMatchObject({ kind: 'assault' });
  });

  it('without siege engines the wall holds: the besiegers wait before it, the garrison holds, and the settlement is not taken', () => {
    const r = assaultIronhold({ enabled: true, assaults: true, hexes: ['8,2'] }, ['marines', 'marines', 'knight'], [1, 2]);
    const e = r.events.find((x) => x.type === 'warfare');
    if (e?.type !== 'warfare') throw new Error('no Warfare battle');
    expect(e).toMatchObject({ winner: 'defender', reason: 'the defenders still hold after 12 exchanges', casualties: [] });
    // The wall still stands in the last exchange's map; no attacker ever entered the strategic zone.
    expect(e.account).toContain('  [           ] [* D1 #     ] [           ]');
    expect(e.account.some((l) => l.includes('moves z1,1 → z0,1'))).toBe(false);
    expect(r.events.some((x) => x.type === 'settlement_captured')).toBe(false);
    expect(r.state.settlements['ironhold' as never]).toMatchObject({ nation: 'gondarahl', battlements: [1, 2] });
  });

  it('refuses a walls.siege type the catalogue lacks, naming the key', () => {
    expect(() => loadWorld(WORLD, { warfare: { walls: { armor: 'sum', siege: 'trebuchets' } } })).toThrow(/rules\.warfare\.walls\.siege.*no unit type "trebuchets"/s);
  });
});

describe('The walls from the battlements (W18)', () => {
  it('Armor is the sum of the bonuses (or twice the strongest), one Wall Strength box a battlement; full walls are the keep’s +6 and three boxes', () => {
    expect(wallsOf('Ironhold', [1, 2], { armor: 'sum', siege: 'cannons' })).toMatchObject({ armor: 3, wallStrength: 2, consequences: [] });
    expect(wallsOf('Ironhold', [1, 2], { armor: 'strongest', siege: 'cannons' })).toMatchObject({ armor: 4, wallStrength: 2 });
    const full = wallsOf('Ironhold', [1, 2, 3], { armor: 'sum', siege: 'cannons' })!;
    expect({ armor: full.armor, boxes: full.wallStrength }).toEqual({ armor: catalogue().ramparts.keep!.armor, boxes: catalogue().ramparts.keep!.wallStrength });
    expect(wallsOf('Ironhold', [], { armor: 'sum', siege: 'cannons' })).toBeUndefined();
  });

  /** A thousand seeded assaults of novice commanders; the walls from the battlements on the strategic zone. */
  function series(att: string[], def: string[], battlements: number[], n = 1000) {
    const cat = catalogue();
    cat.ramparts[WALLS] = wallsOf('X', battlements, { armor: 'sum', siege: 'cannons' })!;
    let wins = 0;
    let fell = 0;
    for (let i = 0; i < n; i++) {
      const units: WarfareBattle['units'] = [...att.map((t, j) => ({ id: `a${j}`, type: t, commander: 'A' })), ...def.map((t, j) => ({ id: `d${j}`, type: t, commander: 'D' }))];
      const b: WarfareBattle = {
        id: `assault ${i}`,
        nations: { attacker: asNationId('red'), defender: asNationId('blue') },
        field: defaultBattlefield(),
        commanders: [
          { id: 'A', name: 'A', side: 'attacker', zone: 'z4,1', novice: true },
          { id: 'D', name: 'D', side: 'defender', zone: 'z0,1', novice: true },
        ],
        units,
        ramparts: [{ type: WALLS, zone: 'z0,1' }],
      };
      const r = runBattle(b, cat, seededStream(`assault ${i}`), 'deck');
      if (r.winner === 'attacker') wins++;
      if (r.log.some((e) => e.kind === 'siege' && e.text.endsWith('falls'))) fell++;
    }
    return { wins, fell };
  }

  it('a strong besieger with siege engines can win: two cannons bring down two battlements nearly always, and two infantry with a cannon take a village held by one', () => {
    // Measured over a thousand seeds: walls [1, 2] fall to two cannons 998 times; a lone garrison behind [1] falls 917 times.
    expect(series(['infantry', 'cannons', 'cannons'], ['infantry', 'infantry', 'infantry'], [1, 2]).fell).toBeGreaterThan(950);
    expect(series(['infantry', 'infantry', 'cannons'], ['infantry'], [1]).wins).toBeGreaterThan(850);
    // Full walls (+6, three boxes, the keep) mostly hold even against two cannons.
    expect(series(['infantry', 'cannons', 'cannons'], ['infantry', 'infantry', 'infantry'], [1, 2, 3]).fell).toBeLessThan(300);
  });
});

describe('Besiegers without engines ready the storm (W18)', () => {
  it('a commander stopped by the walls with no engine in reach creates an advantage on the walled zone, which its side spends once the walls are down', () => {
    const st = battle(
      {
        commanders: [
          { id: 'a', name: 'Sir Red', side: 'attacker', zone: 'z1,1', skills: { command: 3, tactics: 3 } },
          { id: 'd', name: 'Lady Blue', side: 'defender', zone: 'z0,1', skills: { command: 3, tactics: 3 } },
        ],
        units: ['in1: infantry @a', 'in2: infantry @a', 'in3: infantry @d'],
        ramparts: [{ type: 'keep', zone: 'z0,1' }],
      },
      [0, 0],
    );
    act(st, commander(st, 'a'), DEFAULT_PLANS.attacker);
    // +0, Fighting +2, one helping: +3 against the distance, 1: success, one free invoke on the walled zone.
    expect(st.log.map((e) => e.text)).toEqual(['Sir Red creates an advantage with 2 unit(s): drew +0 + fighting +2 + 1 helping = +3 against +1: success: Ready to Storm on z0,1 with 1 free invoke']);
    expect(st.field.zones.find((z) => z.id === 'z0,1')!.advantages).toEqual([{ name: STORM, side: 'attacker', invokes: 1 }]);
    // The walls down, its clash there spends it: +4 and +0 against Armor +4 and +0, the invoke +2: +6 vs +4.
    st.ramparts[0]!.fallen = true;
    const more = battle({ commanders: [], units: [] }, [0, 0, 0, 0]).draws;
    st.draws = more;
    st.exchange = 2;
    commander(st, 'a').moved = false;
    act(st, commander(st, 'a'), DEFAULT_PLANS.attacker);
    expect(st.log.some((e) => e.text.includes('invoked Ready to Storm for +2'))).toBe(true);
  });
});

describe('An assault won as Warfare takes the settlement (W18)', () => {
  it('attackers holding the strategic zone take it, though a garrison unit that did not fight (beyond maxSettlementDefenders) is still there; that unit is taken with it', () => {
    // Gondarahl's siege engines fight as walls.siege — here battle mages (Armor +0), so the marines' +2 wins on +0 cards.
    const campaign = loadWorld(WORLD, { fate: { randomiser: 'fateDice' }, warfare: { enabled: true, prepare: false, assaults: true, hexes: ['8,2'], walls: { armor: 'sum', siege: 'battleMages' } } });
    const state = buildState(campaign, {
      settlements: { ironhold: { nation: 'gondarahl', level: 'town', hex: '8,2', name: 'Ironhold', battlements: [] } },
      units: {
        'a-1': { nation: 'argenta', type: 'marines', hex: '8,2', besieging: 'ironhold' },
        'a-2': { nation: 'argenta', type: 'marines', hex: '8,2', besieging: 'ironhold' },
        'd-1': { nation: 'gondarahl', type: 'ram', hex: '8,2' },
        'd-2': { nation: 'gondarahl', type: 'ram', hex: '8,2' },
        'd-3': { nation: 'gondarahl', type: 'ram', hex: '8,2' },
        'd-4': { nation: 'gondarahl', type: 'ram', hex: '8,2' },
      },
    } as never);
    const sheet = { turn: state.turn + 1, entries: [{ line: 1, text: 'assault', fields: { assault: 'a-1', support: ['a-2'] } }], problems: [] };
    const orders: TurnOrders = { nations: { [asNationId('argenta')]: interpretSheet(sheet, asNationId('argenta'), campaign, state).orders }, gm: [] };
    const dice = new ForcedRandomiser({ 'warfare:assault:a-1': Array(400).fill(0) }, undefined);
    const r = resolveTurn({ campaign, state, orders, dice });
    const e = r.events.find((x) => x.type === 'warfare');
    if (e?.type !== 'warfare') throw new Error('no Warfare battle');
    expect(e).toMatchObject({ winner: 'attacker', reason: 'the attackers hold the strategic zone' });
    // The battle mages' volley takes out a-1 on the way in; a-2 then takes the three that fought, one an exchange.
    expect(e.casualties.map((c) => c.unit)).toEqual(['a-1', 'd-1', 'd-2', 'd-3']);
    expect(r.events.find((x) => x.type === 'settlement_captured')).toMatchObject({ settlement: 'ironhold', to: 'argenta' });
    expect(r.state.units['d-4' as never]).toBeUndefined();
  });
});
