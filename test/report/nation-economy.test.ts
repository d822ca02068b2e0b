import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asNationId } from '../../src/core/ids.js';
import { tradeRoutesOf } from '../../src/report/nation-economy.js';
import { buildState, loadWorld } from '../support/case-world.js';

const world = loadWorld(join(import.meta.dirname, '..', 'cases', '_world.yaml'));
const route = (id: string, from: string, to: string, opened: number) => ({ id, from, to, action: 'trade', opened });
const state = buildState(world, {
  turn: 5,
  settlements: {
    argentum: { nation: 'argenta', level: 'capital', hex: '3,3', name: 'Argentum' },
    saltmarsh: { nation: 'argenta', level: 'village', hex: '4,4', name: 'Saltmarsh' },
    khazad: { nation: 'gondarahl', level: 'capital', hex: '7,2', name: 'Khazad' },
    skull: { nation: 'grarkul', level: 'town', hex: '9,9', name: 'Skullrock' },
  },
  tradeRoutes: [
    route('r1', 'khazad', 'argentum', 2),
    route('r2', 'skull', 'khazad', 3),
    route('r3', 'saltmarsh', 'argentum', 4),
    // An end razed or never there: no route to list.
    route('r4', 'argentum', 'atlantis', 4),
  ],
});

const listed = (nation: string) => {
  const actions: string[] = [];
  const routes = tradeRoutesOf(world, state, asNationId(nation), actions);
  return { routes: routes.map((r) => `${r.from}–${r.to} since ${r.opened}`), actions };
};

describe("a nation's trade routes in its report", () => {
  it("lists every standing route with one of its settlements at either end, in the state's order, each also under Actions", () => {
    expect(listed('argenta').routes).toEqual(['Khazad–Argentum since 2', 'Saltmarsh–Argentum since 4']);
    expect(listed('argenta').actions).toEqual(['Open trade route: Khazad – Argentum (since turn 2).', 'Open trade route: Saltmarsh – Argentum (since turn 4).']);
    expect(listed('gondarahl').routes).toEqual(['Khazad–Argentum since 2', 'Skullrock–Khazad since 3']);
    expect(listed('grarkul').routes).toEqual(['Skullrock–Khazad since 3']);
  });

  it('lists nothing for a nation without routes, and each route of a nation once', () => {
    expect(listed('vulcanstille')).toEqual({ routes: [], actions: [] });
    expect(new Set(listed('argenta').routes).size).toBe(listed('argenta').routes.length);
  });
});
