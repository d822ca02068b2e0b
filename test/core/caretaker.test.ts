import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { defaultCaretakers, readCaretakerCatalogue } from '../../src/campaign/caretaker-catalogue.js';
import type { Campaign } from '../../src/core/campaign.js';
import { planCaretaker } from '../../src/core/caretaker/plan.js';
import { seatView } from '../../src/core/caretaker/view.js';
import type { NationId } from '../../src/core/ids.js';
import { orderText } from '../../src/core/order-text.js';
import { plainCopy } from '../../src/core/plain-copy.js';
import type { GameState } from '../../src/core/state.js';
import { buildState, loadWorld, type CompactState } from '../support/case-world.js';

/**
 * The caretaker's planner (src/core/caretaker): a seat's orders from the state alone, as the seat sees it,
 * in the priority order of the caretaker's steps, through the same checker as a player's orders.
 */
const WORLD = join(import.meta.dirname, '..', 'cases', '_world.yaml');

function world(rules: Record<string, unknown> = {}, caretakers?: string): Campaign {
  const campaign = loadWorld(WORLD, rules);
  if (caretakers === undefined) return { ...campaign, caretakers: { entries: defaultCaretakers(campaign) } };
  const doc = parseDocument(caretakers);
  const read = readCaretakerCatalogue(doc.toJS(), () => undefined, 'caretakers.yaml', campaign);
  if (!read.catalogue) throw new Error(read.problems.map((p) => `${p.path}: ${p.message}`).join('; '));
  return { ...campaign, caretakers: read.catalogue };
}

const A = 'argenta' as NationId;

function plan(campaign: Campaign, state: GameState, policy: 'caretaker' | 'disorder' = 'caretaker', caretaker?: string) {
  const p = planCaretaker({ campaign, state, nation: A, policy, ...(caretaker ? { caretaker } : {}) });
  return { ...p, text: p.orders.orders.map((o) => orderText(o)) };
}

/** Argenta holds two towns; a marine guards Argentum, another stands between them; Westmark is empty. */
const BASE: CompactState = {
  nations: { argenta: { renown: 40, fate: 6, missedTurns: 2 } },
  settlements: {
    argentum: { nation: 'argenta', level: 'town', hex: '3,3', name: 'Argentum' },
    westmark: { nation: 'argenta', level: 'town', hex: '3,6', name: 'Westmark' },
  },
  units: {
    'a-1': { nation: 'argenta', type: 'marines', hex: '3,3' },
    'a-2': { nation: 'argenta', type: 'marines', hex: '3,5' },
  },
};

const withUnits = (extra: Record<string, Record<string, unknown>>, over: Partial<CompactState> = {}): CompactState => ({ ...BASE, ...over, units: { ...BASE.units, ...extra } });

describe('the caretaker plans', () => {
  it('garrisons an empty settlement with the nearest unit that can reach it, never taking a sole guard', () => {
    const campaign = world();
    const p = plan(campaign, buildState(campaign, BASE));
    expect(p.text).toContain('move a-2 to 3,6');
    expect(p.text.some((t) => t.includes('a-1'))).toBe(false);
    expect(p.reasons[p.text.indexOf('move a-2 to 3,6')]).toBe('goes to garrison Westmark, which has no guard');
    expect(p.orders.seat).toEqual({ policy: 'caretaker', caretaker: 'steward' });
  });

  it('defends a threatened settlement: its guard holds pledging Fate, a free unit that can reach it stands ready', () => {
    const campaign = world();
    const state = buildState(campaign, withUnits({ 'g-1': { nation: 'grarkul', type: 'orcs', hex: '4,2' }, 'a-3': { nation: 'argenta', type: 'marines', hex: '4,4' } }));
    const p = plan(campaign, state);
    // Defending comes before garrisoning: both free marines stand ready, Westmark waits for one raised there.
    expect(p.text.slice(0, 3)).toEqual(['hold a-1 fate 2', 'defend argentum with a-3', 'defend argentum with a-2']);
    expect(p.reasons[0]).toBe('holds Argentum, which foreign units threaten, pledging 2 Fate');
    expect(p.dropped).toEqual([]);
  });

  it('sees only what the seat sees: a foreign unit out of its sight threatens nothing', () => {
    // Sight of 1 hex around settlements and units: the orcs two hexes off Argentum are not seen.
    const campaign = world({ sight: { unit: 1, settlement: 1 } });
    const state = buildState(campaign, withUnits({ 'g-1': { nation: 'grarkul', type: 'orcs', hex: '5,2' } }, { nations: { argenta: { renown: 0, fate: 6, missedTurns: 2 }, grarkul: { renown: 999 } } }));
    expect(plan(campaign, state).text.some((t) => t.startsWith('hold a-1'))).toBe(false);
    const view = seatView(campaign, state, A);
    expect(view.units['g-1' as never]).toBeUndefined();
    expect(view.nations['grarkul' as NationId]).toBeUndefined();
    // Brought within sight, they are.
    const seen = buildState(campaign, withUnits({ 'g-1': { nation: 'grarkul', type: 'orcs', hex: '4,3' } }, { nations: { argenta: { renown: 0, fate: 6, missedTurns: 2 } } }));
    expect(plan(campaign, seen).text).toContain('hold a-1 fate 2');
    // A nation met is known by what every report shows of it, never its Renown, Fate or goals.
    expect(seatView(campaign, seen, A).nations['grarkul' as NationId]).toMatchObject({ renown: 0, fate: 0, goals: [] });
  });

  it("gives the seat its own builds and the trade routes touching a settlement it holds or sees, in the state's order", () => {
    const campaign = world({ sight: { unit: 1, settlement: 1 } });
    const build = (id: string, nation: string) => ({ id, nation: nation as NationId, hex: '3,3' as never, builder: 'a-1' as never, project: { kind: 'external' as const, externalId: `x-${id}` as never, structure: 'mine' }, turnsLeft: 1, startedTurn: 0 });
    const route = (id: string, from: string, to: string) => ({ id, from, to, action: 'trade', opened: 1 });
    const settlements = {
      ...BASE.settlements,
      eastholm: { nation: 'grarkul', level: 'village', hex: '4,3', name: 'Eastholm' },
      orcmoot: { nation: 'grarkul', level: 'village', hex: '9,9', name: 'Orcmoot' },
      farhold: { nation: 'grarkul', level: 'village', hex: '9,1', name: 'Farhold' },
    };
    const state = buildState(campaign, {
      ...BASE,
      settlements,
      builds: [build('b1', 'argenta'), build('b2', 'grarkul'), build('b3', 'argenta')],
      tradeRoutes: [
        route('t1', 'orcmoot', 'farhold'), // both ends foreign and unseen
        route('t2', 'argentum', 'westmark'), // both its own: listed once
        route('t3', 'eastholm', 'orcmoot'), // a foreign end it sees
        route('t4', 'westmark', 'ruined'), // the other end razed
        route('t5', 'orcmoot', 'argentum'), // its own end second
      ],
    });
    const view = seatView(campaign, state, A);
    expect(Object.keys(view.settlements).sort()).toEqual(['argentum', 'eastholm', 'westmark']);
    expect(view.builds.map((b) => b.id)).toEqual(['b1', 'b3']);
    expect(view.tradeRoutes?.map((r) => r.id)).toEqual(['t2', 't3', 't4', 't5']);
    // Grarkul's seat, from the same state (the lists are made once per state): its build, the routes of its
    // three towns, and t2, since Eastholm sees Argentum.
    const theirs = seatView(campaign, state, 'grarkul' as NationId);
    expect(theirs.builds.map((b) => b.id)).toEqual(['b2']);
    expect(theirs.tradeRoutes?.map((r) => r.id)).toEqual(['t1', 't2', 't3', 't5']);
  });

  it('keeps work going: a builder stays on its site and a besieger in its siege, whatever the later steps want', () => {
    const campaign = world();
    const state = buildState(campaign, {
      ...BASE,
      units: { ...BASE.units, 'a-2': { nation: 'argenta', type: 'marines', hex: '8,7', besieging: 'gorzul' }, 'a-w': { nation: 'argenta', type: 'worker', hex: '9,4' } },
      settlements: { ...BASE.settlements, gorzul: { nation: 'grarkul', level: 'village', hex: '8,7', name: 'Gorzul' } },
      builds: [{ id: 'b1', nation: A, hex: '9,4' as never, builder: 'a-w' as never, project: { kind: 'external', externalId: 'x1' as never, structure: 'mine' }, turnsLeft: 1, startedTurn: 0 }],
    });
    const p = plan(campaign, state);
    expect(p.text.some((t) => t.includes('a-2') || t.includes('a-w'))).toBe(false);
  });

  it('retakes its own lost settlement when it can, and never attacks a settlement that was never its own', () => {
    const campaign = world();
    const settlements = {
      ...BASE.settlements,
      northhold: { nation: 'grarkul', level: 'village', hex: '4,1', name: 'Northhold', takenFrom: 'argenta', home: false, captured: true },
      orcmoot: { nation: 'grarkul', level: 'village', hex: '2,3', name: 'Orcmoot' },
    };
    const p = plan(campaign, buildState(campaign, withUnits({ 'a-3': { nation: 'argenta', type: 'marines', hex: '4,2' } }, { settlements })));
    expect(p.text).toContain('attack northhold with a-3 fate 1');
    expect(p.text.some((t) => t.includes('orcmoot'))).toBe(false);
    // Defended by two orcs it sees, one marine is not enough.
    const guarded = buildState(campaign, withUnits({ 'a-3': { nation: 'argenta', type: 'marines', hex: '4,2' }, 'g-1': { nation: 'grarkul', type: 'orcs', hex: '4,1' }, 'g-2': { nation: 'grarkul', type: 'orcs', hex: '4,1' } }, { settlements }));
    expect(plan(campaign, guarded).text.some((t) => t.startsWith('attack'))).toBe(false);
  });

  it('raises units up to the caps, cheapest of each class in the given order, where a guard is missing first, keeping the reserve', () => {
    const campaign = world();
    const state = buildState(campaign, withUnits({}, { nations: { argenta: { renown: 32, fate: 0, missedTurns: 2 } } }));
    const p = plan(campaign, state);
    // 32 Renown, 20 kept: a marine (5) in each town (a-2 is on its way to Westmark, so neither is unguarded first).
    expect(p.text.filter((t) => t.startsWith('build'))).toEqual(['build marines in argentum', 'build marines in westmark']);
    // Without a-2, empty Westmark comes first.
    const empty = buildState(campaign, { ...BASE, nations: { argenta: { renown: 27, fate: 0, missedTurns: 2 } }, units: { 'a-1': BASE.units!['a-1']! } });
    expect(plan(campaign, empty).text).toEqual(['build marines in westmark']);
    const poor = buildState(campaign, withUnits({}, { nations: { argenta: { renown: 24, fate: 0, missedTurns: 2 } } }));
    expect(plan(campaign, poor).text.filter((t) => t.startsWith('build'))).toEqual([]);
    const full = buildState(campaign, withUnits(Object.fromEntries([3, 4, 5, 6].map((i) => [`a-${i}`, { nation: 'argenta', type: 'marines', hex: '7,7' }])), { nations: { argenta: { renown: 100, fate: 0, missedTurns: 2 } } }));
    expect(plan(campaign, full).text.filter((t) => t.startsWith('build'))).toEqual([]);
  });

  it('in civil disorder only defends: no Fate, no march, nothing raised', () => {
    const campaign = world();
    const state = buildState(campaign, withUnits({ 'g-1': { nation: 'grarkul', type: 'orcs', hex: '4,2' }, 'a-3': { nation: 'argenta', type: 'marines', hex: '4,4' } }));
    expect(plan(campaign, state, 'disorder').text).toEqual(['hold a-1']);
  });

  it('is a pure function of the state: the same orders twice, the state untouched, its own dice for chance', () => {
    const campaign = world({}, `caretakers:
  - id: gambler
    name: a gambler
    steps:
      - raise: { classes: [infantry], keep: 0, chance: 50 }
      - garrison: { chance: 50 }
`);
    const state = buildState(campaign, BASE);
    const before = plainCopy(state);
    const a = plan(campaign, state, 'caretaker', 'gambler');
    const b = plan(campaign, state, 'caretaker', 'gambler');
    expect(a).toEqual(b);
    expect(state).toEqual(before);
    expect(a.rolls.map((r) => r.step)).toEqual(['raise', 'garrison']);
    // Each step ran or not as its d100 said.
    expect(a.text.some((t) => t.startsWith('build'))).toBe(a.rolls[0]!.ran);
    expect(a.text.includes('move a-2 to 3,6')).toBe(a.rolls[1]!.ran);
    // Another turn, other dice (the stream is keyed by the turn).
    const later = [1, 2, 3, 4, 5, 6].map((turn) => plan(campaign, { ...state, turn }, 'caretaker', 'gambler').rolls.map((r) => r.roll).join());
    expect(new Set(later).size).toBeGreaterThan(1);
  });
});

describe('caretakers.yaml', () => {
  it('replaces a built-in caretaker by id, adds others, and drops the built-ins with defaults: false', () => {
    const campaign = world({}, `defaults: false
caretakers:
  - id: merchants
    name: the merchant league
    steps:
      - garrison: ~
      - raise: { classes: [diplomatic], keep: 10, when: [{ renown: { min: 30 } }] }
`);
    expect(Object.keys(campaign.caretakers!.entries)).toEqual(['merchants']);
    const p = plan(campaign, buildState(campaign, BASE), 'caretaker', 'merchants');
    expect(p.text).toEqual(['move a-2 to 3,6', 'build worker in argentum', 'build worker in westmark']);
  });

  it('refuses a mistake with its key: an unknown step, a condition it does not know, a bad class', () => {
    const campaign = loadWorld(WORLD);
    const read = readCaretakerCatalogue(
      { caretakers: [{ id: 'x', name: 'X', steps: [{ plunder: {} }, { defend: { where: [{ moon: 'full' }] } }, { raise: { classes: ['dragons'] } }] }] },
      () => 7,
      'caretakers.yaml',
      campaign,
    );
    expect(read.catalogue).toBeUndefined();
    expect(read.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      expect.stringMatching(/^caretakers\[0\]\.steps\[0\]\.plunder: unknown step "plunder".*known: keep_work, defend, garrison, retake, raise, rest/),
      expect.stringMatching(/^caretakers\[0\]\.steps\[1\]\.defend\.where\[0\]\.moon: unknown condition "moon"/),
      expect.stringMatching(/^caretakers\[0\]\.steps\[2\]\.raise\.classes\[0\]: .*infantry/),
    ]);
    expect(read.problems.every((p) => p.line === 7 && p.file === 'caretakers.yaml')).toBe(true);
  });
});

