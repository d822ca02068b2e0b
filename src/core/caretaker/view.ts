import type { Campaign } from '../campaign.js';
import type { NationId } from '../ids.js';
import { perState } from '../memo.js';
import { pushTo } from '../multimap.js';
import type { BuildState, GameState, NationState } from '../state.js';
import { WorldIndex } from '../world-index.js';

/**
 * The world as one seat sees it, and nothing more: what a caretaker plans
 * from. The nation's own state whole; foreign units, settlements and
 * external structures only on the hexes it sees (WorldIndex.visibleHexes, the
 * one definition of sight, which its report also uses); of other nations
 * only what every report shows (Prosperity, Happiness, alive) — no Renown,
 * Fate, goals, builds or history, and only of the nations it meets. A planner given this cannot be
 * omniscient.
 */
export function seatView(campaign: Campaign, state: GameState, nation: NationId): GameState {
  const world = WorldIndex.of(campaign, state);
  const seen = world.visibleHexes(nation);
  const lists = seatLists(state);
  const view: GameState = { turn: state.turn, seq: state.seq, nations: {}, units: {}, settlements: {}, externals: {}, builds: [...(lists.builds.get(nation) ?? [])] };
  const own = state.nations[nation];
  if (own) view.nations[nation] = own;
  for (const u of world.unitsOf(nation)) view.units[u.id] = u;
  for (const s of world.settlementsOf(nation)) view.settlements[s.id] = s;
  for (const e of world.externalsByNation.get(nation) ?? []) view.externals[e.id] = e;
  // One look per hex seen (a thousand nations plan in one turn): foreign things only, and who they belong to.
  const { unitsByHex, settlementByHex, externalsByHex } = world;
  const met = (id: NationId) => {
    if (view.nations[id]) return;
    const ns = state.nations[id];
    if (ns) view.nations[id] = publicPart(ns);
  };
  for (const hex of seen) {
    const here = unitsByHex.get(hex);
    if (here !== undefined) {
      for (const u of here) {
        if (u.nation === nation) continue;
        view.units[u.id] = u;
        met(u.nation);
      }
    }
    const s = settlementByHex.get(hex);
    if (s !== undefined && s.nation !== nation) {
      view.settlements[s.id] = s;
      met(s.nation);
    }
    if (externalsByHex.size === 0) continue;
    for (const e of externalsByHex.get(hex) ?? []) {
      if (e.nation === nation) continue;
      view.externals[e.id] = e;
      met(e.nation);
    }
  }
  // The routes touching a settlement in the view, in the state's order.
  const picked = new Set<number>();
  for (const id in view.settlements) for (const i of lists.routesAt.get(id) ?? []) picked.add(i);
  if (picked.size) view.tradeRoutes = [...picked].sort((a, b) => a - b).map((i) => state.tradeRoutes![i]!);
  return view;
}

/**
 * A state's builds by nation, and its trade routes (as places in state.tradeRoutes) by each end's settlement:
 * made once per state, since every seat of a thousand looking through every build and route of the world
 * grows with the square of it.
 */
const seatLists = perState((state) => {
  const builds = new Map<NationId, BuildState[]>();
  for (const b of state.builds) pushTo(builds, b.nation, b);
  const routesAt = new Map<string, number[]>();
  (state.tradeRoutes ?? []).forEach((r, i) => {
    pushTo(routesAt, r.from, i);
    if (r.to !== r.from) pushTo(routesAt, r.to, i);
  });
  return { builds, routesAt };
});

/** What anyone knows of another nation: its public indicators and whether it is still in the game. */
function publicPart(ns: NationState): NationState {
  return { id: ns.id, renown: 0, fate: 0, prosperity: ns.prosperity, happiness: ns.happiness, goals: [], battlesWon: 0, missedTurns: 0, unitSeq: 0, alive: ns.alive };
}
