import { isMilitaryClass, type Campaign } from '../core/campaign.js';
import type { LoggedEvent } from '../core/events.js';
import { sortedKeys, type NationId } from '../core/ids.js';
import { leaderOf } from '../core/leaders.js';
import { perCampaignAndState, perState } from '../core/memo.js';
import { pushTo } from '../core/multimap.js';
import { revoltOrder } from '../core/phases/events.js';
import type { GameState, NationState, SettlementState } from '../core/state.js';
import type { TradeRoute } from '../core/world/action-types.js';
import { revoltRisk } from '../core/world/odds.js';
import { indicatorLedger, ledger } from './facts.js';
import { rated } from './ladder.js';
import { nationsNamed } from './nation-events.js';
import type { ReportIndex } from './report-index.js';
import type { NationView, PublicNationView, TradeRouteView, UnrestView } from './types.js';

/**
 * A nation's report, the economy and standing part: its trade routes, the
 * unrest its Happiness risks, and the public indicators of the nations it
 * lists.
 */

/** Renown and Fate over the turn, item by item, and the public indicators' changes. */
export function ledgersOf(mine: readonly LoggedEvent[], nation: NationId, was: NationState | undefined, ns: NationState): Pick<NationView, 'renown' | 'fate' | 'prosperity' | 'happiness'> {
  return {
    renown: ledger(mine, nation, 'renown', was?.renown ?? ns.renown, ns.renown),
    fate: ledger(mine, nation, 'fate', was?.fate ?? ns.fate, ns.fate),
    prosperity: indicatorLedger(mine, nation, 'prosperity', was?.prosperity ?? ns.prosperity, ns.prosperity),
    happiness: indicatorLedger(mine, nation, 'happiness', was?.happiness ?? ns.happiness, ns.happiness),
  };
}

/** The nation's open trade routes, every turn they stand, each also said under Actions. */
export function tradeRoutesOf(campaign: Campaign, state: GameState, nation: NationId, actions: string[]): TradeRouteView[] {
  const tradeRoutes: TradeRouteView[] = [];
  for (const { route: r, a, b } of routesByNation(state).get(nation) ?? []) {
    const income = campaign.actions?.entries[r.action]?.income ?? 0;
    tradeRoutes.push({ from: a.name, to: b.name, fromHex: a.hex, toHex: b.hex, income, opened: r.opened });
    actions.push(`Open trade route: ${a.name} – ${b.name}${income ? `, ${income} Renown a turn` : ''} (since turn ${r.opened}).`);
  }
  return tradeRoutes;
}

interface RouteEnds {
  route: TradeRoute;
  a: SettlementState;
  b: SettlementState;
}

/**
 * The routes with both ends standing, by each end's nation, in the state's order: made once per state, since
 * a thousand reports each looking through every route of the world was a third of a second of a big turn.
 */
const routesByNation = perState((state) => {
  const byNation = new Map<NationId, RouteEnds[]>();
  for (const route of state.tradeRoutes ?? []) {
    const a = state.settlements[route.from as SettlementState['id']];
    const b = state.settlements[route.to as SettlementState['id']];
    if (!a || !b) continue;
    pushTo(byNation, a.nation, { route, a, b });
    if (b.nation !== a.nation) pushTo(byNation, b.nation, { route, a, b });
  }
  return byNation;
});

/** The revolt risk a nation's report warns of: what the next turn's roll will use, if Happiness stays. */
export function unrestOf(campaign: Campaign, index: ReportIndex, nation: NationId, prosperity: number, happiness: number, name: (id: string) => string): UnrestView | null {
  const rebellion = campaign.events?.settings.rebellion;
  const chance = rebellion ? revoltRisk(rebellion, prosperity, happiness) : 0;
  if (!chance) return null;
  const held = (s: SettlementState) =>
    index.world.unitsAt(s.hex).some((u) => u.nation === nation && isMilitaryClass(campaign.nations[nation]?.unitTypes[u.type]?.class ?? 'diplomatic'));
  const order = revoltOrder(index.world.settlementsOf(nation));
  return {
    chance,
    happiness: rated(happiness).text,
    settlements: order.filter((s) => !held(s)).map((s) => name(s.id)),
    garrisoned: order.filter(held).map((s) => name(s.id)),
  };
}

/** Every nation's public indicators, made once per state: every report needs them. */
export const publicIndicators: (campaign: Campaign, state: GameState) => readonly PublicNationView[] = perCampaignAndState((campaign, state) =>
  // The rebels are the GM's, not a realm with indicators of its own; a nation in waiting out of play (before
  // its civil war, or fallen after it) is no realm either: listed, it would change the nations' list of every
  // turn before the GM declared it, which must render again as first written (rules.md L3).
  sortedKeys(campaign.nations).filter((id) => !campaign.nations[id]?.rebels && !(campaign.nations[id]?.breaksFrom !== undefined && !state.nations[id]?.alive)).map((id) => {
    const def = campaign.nations[id];
    const ns = state.nations[id];
    return { id, name: def?.name ?? id, leader: ns ? (leaderOf(campaign, ns).name ?? 'no ruler') : (def?.leader ?? ''), prosperity: rated(ns?.prosperity ?? 0), happiness: rated(ns?.happiness ?? 0), alive: ns?.alive ?? false };
  }),
);

/** The nations a report lists: every one up to `inlineUpTo`, else those the nation met (its events, the units and settlements it sees). */
export function nationsListed(
  campaign: Campaign,
  state: GameState,
  nation: NationId,
  mine: readonly LoggedEvent[],
  units: readonly { nation: string }[],
  settlements: readonly { nation: string }[],
  inlineUpTo: number,
): Pick<NationView, 'nations' | 'nationsAll' | 'nationCount'> {
  const all = publicIndicators(campaign, state);
  if (all.length <= inlineUpTo) return { nations: [...all], nationsAll: true, nationCount: all.length };
  const met = new Set<string>([nation]);
  for (const e of mine) for (const n of nationsNamed(e, nation)) met.add(n);
  for (const x of units) met.add(x.nation);
  for (const x of settlements) met.add(x.nation);
  // The nations met, in the list's order: a few dozen places looked up, not the thousand nations walked.
  const place = placesOf(campaign, state);
  const at: number[] = [];
  for (const id of met) {
    const i = place.get(id);
    if (i !== undefined) at.push(i);
  }
  return { nations: at.sort((a, b) => a - b).map((i) => all[i]!), nationsAll: false, nationCount: all.length };
}

/** Each listed nation's place in publicIndicators' list, by id. */
const placesOf = perCampaignAndState((campaign, state): ReadonlyMap<string, number> => new Map(publicIndicators(campaign, state).map((n, i) => [n.id, i])));
