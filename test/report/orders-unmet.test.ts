import { describe, expect, it } from 'vitest';
import { UNMET_WHY, type UnmetWhy } from '../../src/core/unmet.js';
import { htmlText } from './support.js';
import { playScenario, type Scenario } from './scenario.js';

/**
 * Issue 34, item 2: every order the receipt accepted that then did not
 * happen in the resolution, in whole or in part, is listed in the report
 * with the reason. One scenario a reason (src/core/unmet.ts, UNMET_WHY), on
 * the rules cases' small world: the turn must log the order as unmet, and the
 * nation's report must list it under "Orders that did not happen", with the
 * order as written, its line, and the words of what happened instead, count
 * it in its head, and the GM's page must show it.
 */
interface Walk extends Scenario {
  /** Whose order did not happen. */
  nation: string;
  /** The order's line in its sheet (the scenario's orders are numbered from 1). */
  line: number;
  /** What the report says happened. */
  says: string;
}

const ironhold = { nation: 'gondarahl', level: 'town', hex: '8,2', name: 'Ironhold' };

/** Typed by UnmetWhy: a new reason does not compile without its scenario here. */
const WALKS: Record<UnmetWhy, Walk> = {
  caught: {
    state: { units: { 'a-1': { nation: 'argenta', type: 'knight', hex: '6,2' }, 'd-1': { nation: 'gondarahl', type: 'dwarves', hex: '7,2' } } },
    orders: { argenta: [{ attack: 'a-1', target: 'd-1' }], gondarahl: [{ move: 'd-1', to: '8,2' }] },
    dice: { 'battle:attack:a-1': [2, 6] },
    nation: 'gondarahl',
    line: 1,
    says: 'did not move: caught by Knights (a-1) of Duchy of Argenta at 7,2',
  },
  target_escaped: {
    state: { units: { 'a-1': { nation: 'argenta', type: 'marines', hex: '6,2' }, 'd-1': { nation: 'gondarahl', type: 'recon', hex: '7,2' } } },
    orders: { argenta: [{ attack: 'a-1', target: 'd-1' }], gondarahl: [{ move: 'd-1', to: '10,2' }] },
    nation: 'argenta',
    line: 1,
    says: 'did not attack: Dwarven recon (d-1) of Kingdom of Gondarahl got away to 10,2, and Marines (a-1) stopped at 7,2',
  },
  unit_lost: {
    state: { units: { 'a-2': { nation: 'argenta', type: 'marines', hex: '6,2', health: 'bloodied' }, 'd-1': { nation: 'gondarahl', type: 'dwarves', hex: '7,2' } } },
    orders: { argenta: [{ rest: 'a-2' }], gondarahl: [{ attack: 'd-1', target: 'a-2' }] },
    dice: { 'battle:attack:d-1': [6, 1] },
    nation: 'argenta',
    line: 1,
    says: 'did not rest: Marines (a-2) was lost this turn',
  },
  target_lost: {
    state: {
      units: {
        'a-1': { nation: 'argenta', type: 'marines', hex: '6,2' },
        'a-2': { nation: 'argenta', type: 'marines', hex: '6,3' },
        'd-1': { nation: 'gondarahl', type: 'dwarves', hex: '7,2', health: 'bloodied' },
      },
    },
    orders: { argenta: [{ attack: 'a-1', target: 'd-1' }, { attack: 'a-2', target: 'd-1' }] },
    dice: { 'battle:attack:a-1': [6, 1] },
    nation: 'argenta',
    line: 2,
    says: 'did not attack: Dwarven infantry (d-1) of Kingdom of Gondarahl was already destroyed',
  },
  fought_already: {
    state: { units: { 'a-1': { nation: 'argenta', type: 'marines', hex: '6,2' }, 'd-1': { nation: 'gondarahl', type: 'dwarves', hex: '7,2' } } },
    orders: { argenta: [{ attack: 'a-1', target: 'd-1' }], gondarahl: [{ attack: 'd-1', target: 'a-1' }] },
    dice: { 'battle:attack:a-1': [4, 3] },
    nation: 'gondarahl',
    line: 1,
    says: 'did not attack: it had already fought Marines (a-1) of Duchy of Argenta this turn',
  },
  already_yours: {
    state: {
      settlements: { ironhold },
      units: { 'a-1': { nation: 'argenta', type: 'marines', hex: '7,2' }, 'a-2': { nation: 'argenta', type: 'marines', hex: '7,3' } },
    },
    orders: { argenta: [{ attack: 'a-1', target: 'Ironhold' }, { attack: 'a-2', target: 'Ironhold' }] },
    nation: 'argenta',
    line: 2,
    says: 'did not attack: Ironhold is already yours',
  },
  siege_over: {
    state: {
      settlements: { ironhold },
      units: { 'a-1': { nation: 'argenta', type: 'marines', hex: '8,2', besieging: 'ironhold' }, 'd-1': { nation: 'gondarahl', type: 'dwarves', hex: '8,2' } },
    },
    orders: { argenta: [{ move: 'a-1', to: '6,2', abandon: true }], gondarahl: [{ sortie: 'd-1', target: 'a-1' }] },
    nation: 'gondarahl',
    line: 1,
    says: 'did not sortie: Marines (a-1) of Duchy of Argenta no longer besieged it',
  },
  no_battlement: {
    state: {
      settlements: { ironhold: { ...ironhold, battlements: [1] } },
      units: {
        'a-1': { nation: 'argenta', type: 'marines', hex: '8,2', besieging: 'ironhold' },
        'a-2': { nation: 'argenta', type: 'marines', hex: '8,2', besieging: 'ironhold' },
        'd-1': { nation: 'gondarahl', type: 'dwarves', hex: '8,2' },
      },
    },
    orders: { argenta: [{ siege: 'a-1', action: 'destroy battlement' }, { siege: 'a-2', action: 'destroy battlement' }] },
    dice: { 'siege:a-1': [6] },
    nation: 'argenta',
    line: 2,
    says: 'did not make its siege action: no battlement of Ironhold was left to destroy',
  },
  no_infantry: {
    state: { settlements: { ironhold }, units: { 'a-1': { nation: 'argenta', type: 'knight', hex: '8,2', besieging: 'ironhold' } } },
    orders: { argenta: [{ assault: 'a-1' }] },
    nation: 'argenta',
    line: 1,
    says: 'did not take Ironhold: it is empty, but infantry is needed to take it',
  },
  supporter_lost: {
    state: {
      settlements: { ironhold },
      units: {
        'a-1': { nation: 'argenta', type: 'marines', hex: '8,2', besieging: 'ironhold' },
        'a-2': { nation: 'argenta', type: 'marines', hex: '8,2', besieging: 'ironhold', health: 'bloodied' },
        'd-1': { nation: 'gondarahl', type: 'dwarves', hex: '8,2' },
      },
    },
    orders: { argenta: [{ assault: 'a-1', support: ['a-2'] }], gondarahl: [{ sortie: 'd-1', target: 'a-2' }] },
    dice: { 'sortie:d-1': [6], 'battle:assault:a-1': [6, 1] },
    nation: 'argenta',
    line: 1,
    says: 'went ahead without Marines (a-2), which was lost or no longer besieged Ironhold',
  },
  fought: {
    state: { units: { 'a-2': { nation: 'argenta', type: 'marines', hex: '6,2', health: 'bloodied' }, 'd-1': { nation: 'gondarahl', type: 'dwarves', hex: '7,2' } } },
    orders: { argenta: [{ rest: 'a-2' }], gondarahl: [{ attack: 'd-1', target: 'a-2' }] },
    dice: { 'battle:attack:d-1': [1, 3] },
    nation: 'argenta',
    line: 1,
    says: 'did not heal: Marines (a-2) fought this turn',
  },
};

describe('every accepted order that did not happen is told, with why', () => {
  it('has a scenario for every reason the engine knows', () => {
    expect(Object.keys(WALKS).sort()).toEqual([...UNMET_WHY].sort());
  });

  for (const why of UNMET_WHY) {
    it(`${why}: ${WALKS[why].says}`, () => {
      const w = WALKS[why];
      const played = playScenario(w);
      // The receipt accepted it: the orders phase refused nothing.
      expect(played.events.filter((e) => e.type === 'order_rejected')).toEqual([]);
      expect(played.events.find((e) => e.type === 'order_unmet' && e.why === why)).toMatchObject({ nation: w.nation, line: w.line, reason: w.says });
      const text = played.text(w.nation);
      const list = text.slice(text.indexOf('-- Orders that did not happen --'));
      expect(text).toContain('-- Orders that did not happen --');
      expect(list).toContain(`- line ${w.line}: ${JSON.stringify(w.orders[w.nation]![w.line - 1])}\n    ${w.says}`);
      expect(text).toMatch(/Orders: (\d+ carried out, )?1 did not happen\./);
      expect(text).toContain('! One order did not happen: see "Orders that did not happen".');
      expect(htmlText(played.html(w.nation))).toContain(w.says);
      expect(htmlText(played.gm())).toContain(w.says);
    });
  }
});
