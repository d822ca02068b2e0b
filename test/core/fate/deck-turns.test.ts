import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stateFileSchema } from '../../../src/campaign/schema.js';
import type { DieRoll, LoggedEvent } from '../../../src/core/events.js';
import type { NationId } from '../../../src/core/ids.js';
import type { TurnOrders } from '../../../src/core/orders.js';
import type { GameState } from '../../../src/core/state.js';
import { resolveTurn } from '../../../src/core/turn.js';
import { interpretSheet } from '../../../src/orders/sheet.js';
import { buildState, loadWorld, ONE_UNIT_EACH } from '../../support/case-world.js';

/**
 * A Deck of Fate campaign over whole turns (docs/rules.md F4): the draws are
 * in the events, the discard piles in the state follow from them, a battle's
 * cards do not depend on unrelated orders, and the next turn deals from what
 * is left.
 */
const campaign = loadWorld(join(import.meta.dirname, '..', '..', 'cases', '_world.yaml'), { fate: { randomiser: 'deck' } });
const start = buildState(campaign, {
  units: ONE_UNIT_EACH,
});

function orders(state: GameState, sheets: Record<string, Record<string, unknown>[]>): TurnOrders {
  const out: TurnOrders = { nations: {}, gm: [] };
  for (const [nation, entries] of Object.entries(sheets)) {
    const sheet = { turn: state.turn + 1, entries: entries.map((fields, i) => ({ line: i + 1, text: '', fields })), problems: [] };
    out.nations[nation as NationId] = interpretSheet(sheet, nation as NationId, campaign, state).orders;
  }
  return out;
}

const both = { argenta: [{ attack: 'a-1', target: 'd-1' }], vulcanstille: [{ attack: 'v-1', target: 'g-1' }] };

function rollsOf(events: LoggedEvent[]): DieRoll[] {
  return events.flatMap((e) => (e.type === 'battle' ? [...e.attacker.rolls, ...e.defender.rolls].map((r) => r.roll) : []));
}

function cardsBy(events: LoggedEvent[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const r of rollsOf(events)) {
    if (r.fate?.card === undefined) continue;
    out.set(r.fate.deck!, [...(out.get(r.fate.deck!) ?? []), r.fate.card]);
  }
  return out;
}

describe('a Deck of Fate over turns', () => {
  const one = resolveTurn({ campaign, state: start, orders: orders(start, both) });

  it('records every card in the events, and the discard piles hold exactly those cards', () => {
    const drawn = cardsBy(one.events);
    expect([...drawn.keys()].sort()).toEqual(['argenta', 'gondarahl', 'grarkul', 'vulcanstille']);
    for (const r of rollsOf(one.events)) expect(r.die).toBe('card');
    for (const [nation, cards] of drawn) expect(one.state.nations[nation as NationId]!.deck).toEqual({ discards: [...new Set(cards)].sort((a, b) => a - b) });
    expect(stateFileSchema.safeParse(one.state).success).toBe(true);
  });

  it('gives a battle the same cards whether or not an unrelated battle is fought', () => {
    const alone = resolveTurn({ campaign, state: start, orders: orders(start, { argenta: both.argenta }) });
    const battle = (events: LoggedEvent[]) => {
      const found = events.find((e) => e.type === 'battle' && e.battle === 'attack:a-1');
      return found && { ...found, seq: 0 };
    };
    expect(battle(alone.events)).toEqual(battle(one.events));
  });

  it('deals the next turn from what is left in each nation’s draw pile', () => {
    let state = structuredClone(one.state);
    const seen = new Map<string, Set<number>>();
    for (const [n, cards] of cardsBy(one.events)) seen.set(n, new Set(cards));
    // 90 turns of the same fight (set up afresh each turn) pass through Argenta's deck and past its reshuffle.
    let reshuffles = 0;
    for (let t = 0; t < 90; t++) {
      state.units = structuredClone(start.units);
      for (const n of Object.values(state.nations)) n.alive = true;
      const next = resolveTurn({ campaign, state, orders: orders(state, { argenta: [{ attack: 'a-1', target: 'd-1' }] }) });
      const cards = cardsBy(next.events).get('argenta') ?? [];
      const before = state.nations['argenta' as NationId]!.deck?.discards ?? [];
      const after = next.state.nations['argenta' as NationId]!.deck?.discards ?? [];
      if (before.length + new Set(cards).size < 81) {
        for (const c of cards) expect(before).not.toContain(c);
        expect(after).toEqual([...new Set([...before, ...cards])].sort((a, b) => a - b));
      } else {
        // The pile ran out: the deck was shuffled afresh and holds only what came after.
        expect(after.length).toBeLessThan(before.length);
        reshuffles += 1;
      }
      state = structuredClone(next.state);
    }
    expect(reshuffles).toBeGreaterThan(0);
  });

  it('is deterministic to the byte', () => {
    expect(JSON.stringify(resolveTurn({ campaign, state: start, orders: orders(start, both) }))).toBe(JSON.stringify(one));
  });
});
