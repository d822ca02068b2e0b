import { describe, expect, it } from 'vitest';
import type { LoggedEvent } from '../../src/core/events.js';
import { asNationId } from '../../src/core/ids.js';
import { sinceView } from '../../src/report/since-view.js';
import { playScenario } from './scenario.js';

/**
 * Issue 34: the "since you last sent orders" summary, line by line, from a
 * made-up log of two missed turns: a battle lost, a unit destroyed, a
 * settlement taken from the nation and a siege laid to another, a build
 * finished, an event — and what it says of a gap longer than it sums up.
 */
const argenta = asNationId('argenta');
const ev = (e: Record<string, unknown>) => ({ seq: 1, phase: 'combat', ...e }) as unknown as LoggedEvent;

describe('the summary of missed turns', () => {
  const played = playScenario({
    state: {
      units: { 'a-1': { nation: 'argenta', type: 'marines', hex: '6,2', name: 'Iron Guard' }, 'd-1': { nation: 'gondarahl', type: 'dwarves', hex: '7,2' } },
      settlements: {
        argentum: { nation: 'argenta', level: 'capital', hex: '3,3', name: 'Argentum' },
        fenby: { nation: 'argenta', level: 'village', hex: '5,5', name: 'Fenby' },
      },
    },
    orders: {},
  });
  const side = (nation: string) => ({ nation, units: [] });
  const turns = [
    {
      turn: 2,
      events: [
        ev({ type: 'battle', nations: ['argenta', 'gondarahl'], attacker: side('gondarahl'), defender: side('argenta'), winner: 'attacker' }),
        ev({ type: 'unit_health', nations: ['argenta', 'gondarahl'], unit: 'a-1', from: 'bloodied', to: 'destroyed', reason: 'battle' }),
        ev({ type: 'build_completed', nations: ['argenta'], nation: 'argenta', build: 'b1', what: 'Foundry', at: '3,3' }),
      ],
    },
    {
      turn: 3,
      events: [
        ev({ type: 'siege_started', nations: ['argenta', 'gondarahl'], settlement: 'argentum', besieger: 'd-1' }),
        ev({ type: 'settlement_captured', nations: ['argenta', 'gondarahl'], settlement: 'fenby', from: 'argenta', to: 'gondarahl', by: ['d-1'] }),
        ev({ type: 'event_fired', nations: ['argenta'], nation: 'argenta', event: 'plague', title: 'A plague' }),
        ev({ type: 'event_fired', nations: ['gondarahl'], nation: 'gondarahl', event: 'feast', title: 'A feast' }),
      ],
    },
  ];

  it('tells the battles, losses, sieges, builds and events, by name and turn', () => {
    const view = sinceView(played.campaign, argenta, 2, turns, played.before, played.before);
    expect(view).toEqual({
      turns: 'turns 2 and 3',
      missed: 2,
      lines: [
        'Battles: 1 battle fought, 0 won.',
        "Units lost: Marines 'Iron Guard' (turn 2).",
        'Settlements lost: Fenby (turn 3).',
        'Besieged: Argentum.',
        'Built: Foundry in Argentum.',
        'Events: A plague (turn 3).',
      ],
    });
  });

  it('counts the missed turns it does not sum up, and says when nothing befell the nation', () => {
    const view = sinceView(played.campaign, argenta, 9, [{ turn: 8, events: [] }], played.before, played.before);
    expect(view?.lines).toEqual(['(8 earlier turns without orders before these.)', 'Nothing befell your nation: your units held where they were.']);
    expect(view?.turns).toBe('turn 8');
  });
});
