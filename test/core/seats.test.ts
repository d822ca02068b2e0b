import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCaretakers } from '../../src/campaign/caretaker-catalogue.js';
import type { Campaign } from '../../src/core/campaign.js';
import { ForcedRandomiser } from '../../src/core/dice.js';
import type { LoggedEvent } from '../../src/core/events.js';
import type { NationId } from '../../src/core/ids.js';
import type { NationOrders, Order, SeatPolicy, TurnOrders } from '../../src/core/orders.js';
import type { GameState } from '../../src/core/state.js';
import { resolveTurn } from '../../src/core/turn.js';
import { nationView } from '../../src/report/nation-view.js';
import { buildState, loadWorld, type CompactState } from '../support/case-world.js';

/**
 * The engine's side of a silent player's seat (issue 35; docs/rules.md T5–T7): orders a caretaker or civil
 * disorder gives in a nation's name are carried out like its player's, but the turn still counts as missed;
 * disorder lets Happiness drift down; who plays a nation is news for every nation, its state for none.
 */
const WORLD = join(import.meta.dirname, '..', 'cases', '_world.yaml');

function world(rules: Record<string, unknown> = {}): Campaign {
  const campaign = loadWorld(WORLD, rules);
  return { ...campaign, caretakers: { entries: defaultCaretakers(campaign) } };
}

const STATE: CompactState = {
  settlements: {
    argentum: { nation: 'argenta', level: 'town', hex: '3,3', name: 'Argentum' },
    gorzul: { nation: 'grarkul', level: 'town', hex: '8,7', name: 'Gorzul' },
  },
  units: {
    'a-1': { nation: 'argenta', type: 'marines', hex: '3,3' },
    'a-2': { nation: 'argenta', type: 'marines', hex: '4,4' },
    'g-1': { nation: 'grarkul', type: 'orcs', hex: '8,7' },
  },
};

function seat(nation: string, turn: number, policy: SeatPolicy, orders: Order[] = []): NationOrders {
  return { nation: nation as NationId, turn, orders, seat: { policy } };
}

function play(campaign: Campaign, state: GameState, nations: Record<string, NationOrders>): { state: GameState; events: LoggedEvent[] } {
  return resolveTurn({ campaign, state, orders: { nations: nations as TurnOrders['nations'], gm: [] }, dice: new ForcedRandomiser({}, undefined) });
}

const of = <T extends LoggedEvent['type']>(events: readonly LoggedEvent[], type: T) => events.filter((e): e is Extract<LoggedEvent, { type: T }> => e.type === type);

describe('a seat played by its policy', () => {
  it("carries out a caretaker's orders, yet the player missed the turn; the seat changes hands once", () => {
    const campaign = world();
    let state = buildState(campaign, { ...STATE, nations: { argenta: { missedTurns: 2, fate: 5 } } });
    let r = play(campaign, state, { argenta: seat('argenta', 1, 'caretaker', [{ kind: 'move', unit: 'a-2' as never, to: '3,4' as never }, { kind: 'hold', unit: 'a-1' as never, fate: 2 }]) });
    expect(r.state.units['a-2' as never]!.hex).toBe('3,4');
    expect(r.state.nations['argenta' as NationId]).toMatchObject({ missedTurns: 3, seat: { policy: 'caretaker', since: 1 } });
    expect(of(r.events, 'nmr').filter((e) => e.nation === 'argenta')).toEqual([expect.objectContaining({ missedTurns: 3, policy: 'caretaker' })]);
    expect(of(r.events, 'seat_changed')).toEqual([expect.objectContaining({ nation: 'argenta', to: 'caretaker', nations: ['argenta'] })]);
    expect(of(r.events, 'order_rejected')).toEqual([]);
    // The next turn the caretaker goes on: no news.
    state = r.state;
    r = play(campaign, state, { argenta: seat('argenta', 2, 'caretaker') });
    expect(of(r.events, 'seat_changed')).toEqual([]);
    expect(r.state.nations['argenta' as NationId]).toMatchObject({ missedTurns: 4, seat: { since: 1 } });
    // The player's orders, even none at all ("back"), take the nation back.
    r = play(campaign, r.state, { argenta: { nation: 'argenta' as NationId, turn: 3, orders: [] } });
    expect(r.state.nations['argenta' as NationId]!.missedTurns).toBe(0);
    expect(r.state.nations['argenta' as NationId]!.seat).toBeUndefined();
    expect(of(r.events, 'seat_changed')).toEqual([expect.objectContaining({ nation: 'argenta', to: 'player', since: 1 })]);
  });

  it('lets Happiness drift down in civil disorder, as rules.disorder.happiness says, to the indicator\'s floor', () => {
    const campaign = world({ disorder: { happiness: -2 } });
    let state = buildState(campaign, { ...STATE, nations: { grarkul: { missedTurns: 2, happiness: 0 } } });
    const drifts: number[] = [];
    for (let turn = 1; turn <= 3; turn++) {
      const r = play(campaign, state, { grarkul: seat('grarkul', turn, 'disorder', [{ kind: 'hold', unit: 'g-1' as never }]) });
      const drift = of(r.events, 'indicator').find((e) => e.nation === 'grarkul' && e.reason === 'civil disorder: no one rules');
      drifts.push(drift?.delta ?? 0);
      state = r.state;
    }
    // 0 → -2 → -3 (the floor) → -3, said with a delta of 0.
    expect(drifts).toEqual([-2, -1, 0]);
    expect(state.nations['grarkul' as NationId]).toMatchObject({ happiness: -3, seat: { policy: 'disorder', since: 1 } });
  });

  it('says when a seat left to hold is no longer played by anyone, and counts no miss for the rebels', () => {
    const campaign = world();
    const state = buildState(campaign, { ...STATE, nations: { argenta: { missedTurns: 4, seat: { policy: 'caretaker', since: 2 } } }, units: { ...STATE.units, 'f-1': { nation: 'free', type: 'militia', hex: '6,6' } } });
    const r = play(campaign, state, { free: seat('free', 1, 'caretaker', [{ kind: 'hold', unit: 'f-1' as never }]) });
    expect(of(r.events, 'seat_changed').find((e) => e.nation === 'argenta')).toMatchObject({ to: 'hold', since: 2 });
    expect(r.state.nations['argenta' as NationId]!.seat).toBeUndefined();
    expect(r.state.nations['free' as NationId]!.missedTurns).toBe(0);
  });

  it('tells every other nation who plays a silent nation, as a rumour with nothing of its state', () => {
    const campaign = world();
    const state = buildState(campaign, { ...STATE, nations: { grarkul: { missedTurns: 2, renown: 77 } } });
    const r = play(campaign, state, { grarkul: seat('grarkul', 1, 'caretaker') });
    const other = nationView(campaign, state, r.state, r.events, 'argenta' as NationId);
    expect(other.rumours).toContain('It is said that the court of The Grarkul Tribes has fallen silent: stewards keep its lands and only defend them.');
    expect(JSON.stringify(other)).not.toContain('77');
    const own = nationView(campaign, state, r.state, r.events, 'grarkul' as NationId, { orders: { nations: { ['grarkul' as NationId]: seat('grarkul', 1, 'caretaker', []) }, gm: [] } });
    expect(own.givenInYourName).toEqual({ by: 'a caretaker (a steward)', orders: [] });
    expect(other.givenInYourName).toBeUndefined();
  });

  it('remembers whose home a taken settlement was, until that nation takes it back', () => {
    const campaign = world({ siege: { poisonTarget: 4, sortieTarget: { healthy: 4, bloodied: 2 }, extraActionEvery: 3, captureUndefended: true } });
    const state = buildState(campaign, {
      nations: { grarkul: { renown: 20, fate: 5 } },
      settlements: { gorzul: { nation: 'grarkul', level: 'village', hex: '5,5', name: 'Gorzul' } },
      units: { 'a-1': { nation: 'argenta', type: 'marines', hex: '5,4' }, 'g-1': { nation: 'grarkul', type: 'orcs', hex: '6,6' } },
    });
    let r = play(campaign, state, { argenta: { nation: 'argenta' as NationId, turn: 1, orders: [{ kind: 'attack', unit: 'a-1' as never, target: { settlement: 'gorzul' as never } }] } });
    expect(r.state.settlements['gorzul' as never]).toMatchObject({ nation: 'argenta', takenFrom: 'grarkul', home: false });
    // Taken from argenta by another, it still remembers grarkul; grarkul's own attack clears it.
    const away = { ...r.state.units['a-1' as never]!, hex: '2,2' as never };
    r = play(campaign, { ...r.state, units: { ...r.state.units, ['a-1' as never]: away } }, { grarkul: { nation: 'grarkul' as NationId, turn: 2, orders: [{ kind: 'attack', unit: 'g-1' as never, target: { settlement: 'gorzul' as never } }] } });
    expect(r.state.settlements['gorzul' as never]).toMatchObject({ nation: 'grarkul' });
    expect(r.state.settlements['gorzul' as never]!.takenFrom).toBeUndefined();
  });
});
