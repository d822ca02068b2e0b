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

  it('says when nothing befell the nation, and of one missed turn no more', () => {
    const view = sinceView(played.campaign, argenta, 1, [{ turn: 8, events: [] }], played.before, played.before);
    expect(view).toEqual({ turns: 'turn 8', missed: 1, lines: ['Nothing befell your nation: your units held where they were.'] });
  });

  // Issue 34: "(8 earlier turns without orders before these.)" was said of one turn summed up, and of turns that never were.
  const quiet = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ({ turn: from + i, events: [] }));
  it('names the missed turns it does not sum up, in words that fit one turn summed, two, or many', () => {
    const one = sinceView(played.campaign, argenta, 3, quiet(8, 8), played.before, played.before);
    expect(one?.lines[0]).toBe('(Before this one, turns 6 and 7 also passed without your orders.)');
    expect(one?.missed).toBe(3);
    const two = sinceView(played.campaign, argenta, 3, quiet(7, 8), played.before, played.before);
    expect(two?.turns).toBe('turns 7 and 8');
    expect(two?.lines[0]).toBe('(Before these, turn 6 also passed without your orders.)');
    const many = sinceView(played.campaign, argenta, 10, quiet(5, 10), played.before, played.before);
    expect(many?.turns).toBe('turns 5–10');
    expect(many?.lines[0]).toBe('(Before these, turns 1–4 also passed without your orders.)');
    // Exactly as many turns missed as summed up: nothing more to say.
    expect(sinceView(played.campaign, argenta, 6, quiet(5, 10), played.before, played.before)?.lines).toEqual(['Nothing befell your nation: your units held where they were.']);
  });

  it('never counts more turns than the campaign has had', () => {
    // A count carried over from an edited state: nine missed, but turn 8 is only the campaign's eighth.
    const view = sinceView(played.campaign, argenta, 9, quiet(8, 8), played.before, played.before);
    expect(view?.lines[0]).toBe('(Before this one, turns 1–7 also passed without your orders.)');
    expect(view?.missed).toBe(8);
    expect(sinceView(played.campaign, argenta, 9, quiet(1, 1), played.before, played.before)?.lines).toEqual(['Nothing befell your nation: your units held where they were.']);
  });
});
