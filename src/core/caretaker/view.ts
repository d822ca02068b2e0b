import type { Campaign } from '../campaign.js';
import type { NationId } from '../ids.js';
import type { GameState, NationState } from '../state.js';
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
  const view: GameState = { turn: state.turn, seq: state.seq, nations: {}, units: {}, settlements: {}, externals: {}, builds: state.builds.filter((b) => b.nation === nation) };
  const own = state.nations[nation];
  if (own) view.nations[nation] = own;
  for (const u of world.unitsOf(nation)) view.units[u.id] = u;
  for (const s of world.settlementsOf(nation)) view.settlements[s.id] = s;
  for (const e of world.externalsByNation.get(nation) ?? []) view.externals[e.id] = e;
  for (const hex of seen) {
    for (const u of world.unitsAt(hex)) if (u.nation !== nation) view.units[u.id] = u;
    const s = world.settlementByHex.get(hex);
    if (s && s.nation !== nation) view.settlements[s.id] = s;
    for (const e of world.externalsByHex.get(hex) ?? []) if (e.nation !== nation) view.externals[e.id] = e;
  }
  // Other nations as far as they are seen (and no more: a thousand nations need not be copied for each).
  const met = (id: NationId) => {
    const ns = state.nations[id];
    if (ns && !view.nations[id]) view.nations[id] = publicPart(ns);
  };
  for (const x of [...Object.values(view.units), ...Object.values(view.settlements), ...Object.values(view.externals)]) met(x.nation);
  const mine = new Set(Object.keys(view.settlements));
  const routes = (state.tradeRoutes ?? []).filter((r) => mine.has(r.from) || mine.has(r.to));
  if (routes.length) view.tradeRoutes = routes;
  return view;
}

/** What anyone knows of another nation: its public indicators and whether it is still in the game. */
function publicPart(ns: NationState): NationState {
  return { id: ns.id, renown: 0, fate: 0, prosperity: ns.prosperity, happiness: ns.happiness, goals: [], battlesWon: 0, missedTurns: 0, unitSeq: 0, alive: ns.alive };
}
