import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NationId } from '../../src/core/ids.js';
import type { TurnOrders } from '../../src/core/orders.js';
import { resolveTurn } from '../../src/core/turn.js';
import { interpretSheet } from '../../src/orders/sheet.js';
import { buildState, loadWorld, ONE_UNIT_EACH } from '../support/case-world.js';
import { readEventCatalogue } from '../../src/campaign/event-catalogue.js';

/**
 * A battle's dice depend on the campaign seed, the turn and the battle's own
 * identity only: not on the order files' order, nor on unrelated orders.
 */
const campaign = loadWorld(join(import.meta.dirname, '..', 'cases', '_world.yaml'));
const state = buildState(campaign, {
  nations: { argenta: { renown: 50, fate: 6 }, gondarahl: { renown: 50 }, grarkul: { fate: 3 }, vulcanstille: {} },
  units: {
    ...ONE_UNIT_EACH,
    'a-7': { nation: 'argenta', type: 'scout', hex: '3,5' },
  },
  settlements: { argentum: { nation: 'argenta', level: 'capital', hex: '3,3', name: 'Argentum' } },
});

function orders(sheets: Record<string, Record<string, unknown>[]>): TurnOrders {
  const out: TurnOrders = { nations: {}, gm: [] };
  for (const [nation, entries] of Object.entries(sheets)) {
    const sheet = { turn: 1, entries: entries.map((fields, i) => ({ line: i + 1, text: '', fields })), problems: [] };
    out.nations[nation as NationId] = interpretSheet(sheet, nation as NationId, campaign, state).orders;
  }
  return out;
}

const base = {
  argenta: [{ attack: 'a-1', target: 'd-1', fate: 2 }],
  vulcanstille: [{ attack: 'v-1', target: 'g-1' }],
};

const battle = (events: ReturnType<typeof resolveTurn>['events'], id: string) => events.find((e) => e.type === 'battle' && e.battle === id);

describe('determinism', () => {
  it('gives byte-identical results for the same inputs', () => {
    const a = resolveTurn({ campaign, state, orders: orders(base) });
    const b = resolveTurn({ campaign, state, orders: orders(base) });
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });

  it('does not depend on the order in which nations’ orders were read', () => {
    const reversed = Object.fromEntries(Object.entries(base).reverse());
    const a = resolveTurn({ campaign, state, orders: orders(base) });
    const b = resolveTurn({ campaign, state, orders: orders(reversed) });
    expect(JSON.stringify(b.state)).toBe(JSON.stringify(a.state));
    expect(JSON.stringify(b.events)).toBe(JSON.stringify(a.events));
  });

  it('keeps a battle’s dice when unrelated orders elsewhere change', () => {
    const quiet = resolveTurn({ campaign, state, orders: orders(base) });
    const busier = resolveTurn({
      campaign,
      state,
      orders: orders({
        ...base,
        argenta: [...base.argenta, { move: 'a-7', to: '4,6' }, { build: 'Argentum', unit: 'knight' }],
        grarkul: [{ hold: 'g-1', fate: 3 }],
      }),
    });
    const before = battle(quiet.events, 'attack:a-1');
    const after = battle(busier.events, 'attack:a-1');
    expect(before).toBeDefined();
    expect(after).toMatchObject({ attacker: { rolls: (before as { attacker: { rolls: unknown[] } }).attacker.rolls } });
    // The battle in the other corner changed only by the Fate Grarkul pledged, not by its dice.
    const rollsOf = (e: unknown) => (e as { attacker: { rolls: { roll: unknown }[] }; defender: { rolls: { roll: unknown }[] } });
    const q = rollsOf(battle(quiet.events, 'attack:v-1'));
    const b = rollsOf(battle(busier.events, 'attack:v-1'));
    expect(b.attacker.rolls.map((r) => r.roll)).toEqual(q.attacker.rolls.map((r) => r.roll));
    expect(b.defender.rolls.map((r) => r.roll)).toEqual(q.defender.rolls.map((r) => r.roll));
  });

  it('gives different dice on a different turn or seed', () => {
    const a = resolveTurn({ campaign, state, orders: orders(base) });
    const other = resolveTurn({ campaign: { ...campaign, seed: 'another seed' }, state, orders: orders(base) });
    const rolls = (r: typeof a) => JSON.stringify([battle(r.events, 'attack:a-1'), battle(r.events, 'attack:v-1')].map((e) => (e as { attacker: { rolls: { roll: unknown }[] } }).attacker.rolls.map((x) => x.roll)));
    // Two d6 per battle pair: a collision on every die across both battles is (1/6)^2 per battle at worst.
    expect(rolls(other) === rolls(a) && JSON.stringify(other.events) === JSON.stringify(a.events)).toBe(false);
  });

  it('never changes the state it was given', () => {
    const frozen = JSON.stringify(state);
    resolveTurn({ campaign, state, orders: orders(base) });
    expect(JSON.stringify(state)).toBe(frozen);
  });

  it('records every roll in the event log', () => {
    const { events } = resolveTurn({ campaign, state, orders: orders(base) });
    const b = battle(events, 'attack:a-1') as { attacker: { rolls: { roll: { die: string; value: number } }[] } } | undefined;
    expect(b?.attacker.rolls[0]?.roll.die).toBe('d6');
    expect(b?.attacker.rolls[0]?.roll.value).toBeGreaterThanOrEqual(1);
  });

  it('keeps a nation’s events when other nations’ orders change or are read in another order', () => {
    const read = readEventCatalogue(
      {
        settings: { quiet: 30 },
        events: [
          { id: 'boon', title: 'Boon', text: 'A boon for {nation}.', tone: 'good', effects: [{ renown: 3 }] },
          { id: 'bane', title: 'Bane', text: 'A bane for {nation}.', tone: 'bad', effects: [{ fate: -1 }] },
          { id: 'omen', title: 'Omen', text: 'An omen over {settlement}.', tone: 'neutral', scope: 'settlement' },
        ],
      },
      () => undefined,
      'determinism',
      campaign,
    );
    const withEvents = { ...campaign, events: read.catalogue! };
    const drawsOf = (events: ReturnType<typeof resolveTurn>['events'], nation: string) =>
      events.filter((e) => (e.type === 'event_draw' || e.type === 'event_fired') && e.nation === nation).map(({ seq: _seq, ...e }) => e);
    const plain = resolveTurn({ campaign: withEvents, state, orders: orders(base) });
    const other = resolveTurn({
      campaign: withEvents,
      state,
      orders: orders({ ...Object.fromEntries(Object.entries(base).reverse()), grarkul: [{ hold: 'g-1', fate: 3 }], gondarahl: [{ move: 'd-1', to: '8,3' }] }),
    });
    for (const nation of ['argenta', 'gondarahl', 'vulcanstille']) expect(drawsOf(plain.events, nation).length, nation).toBeGreaterThan(0);
    for (const nation of ['argenta', 'gondarahl', 'grarkul', 'vulcanstille']) expect(drawsOf(other.events, nation), nation).toEqual(drawsOf(plain.events, nation));
  });

  it('keeps a nation’s roll when its own other orders and other nations’ orders change (roll:<nation>:<event>)', () => {
    const read = readEventCatalogue(
      { events: [{ id: 'omen', title: 'Omen', text: 'An omen.', tone: 'neutral', roll: { beat: 3, success: [{ fate: 1 }] } }] },
      () => undefined,
      'determinism',
      campaign,
    );
    const withRoll = { ...campaign, events: read.catalogue! };
    const waiting = structuredClone(state);
    waiting.nations['argenta' as NationId]!.rolls = [{ event: 'omen', turn: 1, target: { scope: 'nation' } }];
    const die = (r: ReturnType<typeof resolveTurn>) => r.events.find((e) => e.type === 'event_roll');
    const plain = resolveTurn({ campaign: withRoll, state: waiting, orders: orders({ argenta: [{ answer: 'omen' }] }) });
    const busier = resolveTurn({
      campaign: withRoll,
      state: waiting,
      orders: orders({ ...base, argenta: [{ move: 'a-7', to: '4,6' }, ...base.argenta, { answer: 'omen' }], grarkul: [{ hold: 'g-1', fate: 3 }] }),
    });
    expect(die(plain)).toMatchObject({ type: 'event_roll', answered: true });
    expect((die(busier) as { roll: unknown }).roll).toEqual((die(plain) as { roll: unknown }).roll);
  });
});
