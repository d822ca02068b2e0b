import type { Campaign } from '../core/campaign.js';
import type { LoggedEvent } from '../core/events.js';
import type { NationId } from '../core/ids.js';
import type { NationOrders, TurnOrders } from '../core/orders.js';
import { orderNames, orderText } from '../core/order-text.js';
import type { GameState, SettlementState } from '../core/state.js';
import { describeEvent } from './describe.js';
import { Namer } from './namer.js';
import { turnHeader } from './facts.js';
import { ReportIndex } from './report-index.js';
import { areaOfInterest, sortedByHex, terrainGrid } from './map-grid.js';
import { mapChangesOf } from './map-changes.js';
import { orderOutcomes } from './order-outcomes.js';
import { glanceOf } from './glance.js';
import type { NationView } from './types.js';
import { leaderLines } from './leader-text.js';
import { awaitingOf } from './awaiting.js';
import { aspectsOf } from './aspects-view.js';
import { deckOf } from './deck-view.js';
import { readingOrder } from './letters.js';
import { eventSummary, rumoursHeard } from './nation-events.js';
import { discoveriesOf, foreignSettlementsSeen, sightView, thingsSeen, unitsOnMap } from './nation-sight.js';
import { ledgersOf, nationsListed, tradeRoutesOf, unrestOf } from './nation-economy.js';
import { besiegersSeen, knownUnits, ownPart } from './nation-own.js';

// The parts' own names, where other modules and the tests look for them.
export { unitsNamedIn } from './nation-events.js';
export { sightOf, unitsOnMap } from './nation-sight.js';
export { publicIndicators } from './nation-economy.js';

const optional = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

/**
 * THE place where secrecy is decided. Everything a nation's reports show —
 * text, HTML, the YAML for players' tools, the SVG map and the order template —
 * is rendered from the NationView built here, and from nothing else.
 *
 * A nation sees:
 *  - all of its own state (Renown, Fate, goals, units, settlements, builds, notes);
 *  - the hexes within sight of its units and settlements at the end of the
 *    turn (ranges from rules.sight), and the foreign units, settlements and
 *    external structures standing there;
 *  - the events it took part in (`event.nations`), battles with every roll
 *    (both sides saw the dice), but the price in Fate only of its own side;
 *  - the public indicators (Prosperity, Happiness) of every nation;
 *  - rumours: vague word of some events elsewhere (a battle, a fallen city),
 *    never a unit, a number or a place.
 * Never another nation's Renown, Fate, goals, orders or unseen units.
 *
 * Its parts are made in nation-own.ts (the nation's own affairs and the units
 * it may name), nation-sight.ts (what it sees), nation-events.ts (its events,
 * letters and rumours) and nation-economy.ts (ledgers, trade, unrest, the
 * nations listed); this function decides what each is given.
 */
export interface ViewOptions {
  /** The deadline for the next orders, as the GM wants it printed. */
  deadline?: string;
  /** The turn's orders as read from disk (for the nation's own notes to the GM). */
  orders?: TurnOrders;
  /** campaign.yaml's map legend (character → terrain), so maps use the GM's own symbols. */
  legend?: Readonly<Record<string, string>>;
  /**
   * Up to this many nations, every report lists them all; beyond it, only the
   * nations met, and the turn's gazette (reports/nations.txt) has them all —
   * listing a thousand nations in a thousand reports would be a million lines.
   */
  inlineNationsUpTo?: number;
}

export const INLINE_NATIONS_UP_TO = 30;

/** What a caretaker or civil disorder ordered in the nation's name, as the nation's own order lines. */
function givenInYourName(campaign: Campaign, before: GameState, nation: NationId, sent: NationOrders | undefined): NationView['givenInYourName'] {
  if (!sent?.seat) return undefined;
  const names = orderNames(campaign, before, nation);
  const by = sent.seat.policy === 'disorder' ? 'civil disorder: your forces only defend' : `a caretaker (${campaign.caretakers?.entries[sent.seat.caretaker ?? 'steward']?.name ?? 'a steward'})`;
  return { by, orders: sent.orders.map((o) => orderText(o, names)) };
}

export function nationView(campaign: Campaign, before: GameState, state: GameState, events: readonly LoggedEvent[], nation: NationId, opts: ViewOptions = {}): NationView {
  const def = campaign.nations[nation];
  const ns = state.nations[nation];
  const was = before.nations[nation];
  if (!def || !ns) throw new Error(`no nation "${nation}" in this campaign`);

  // What the nation took part in, and what it sees at the end of the turn.
  const index = ReportIndex.of(campaign, before, state, events);
  const mine = index.eventsOf(nation);
  const seen = index.world.visibleHexes(nation);
  const things = thingsSeen(index, nation, seen);
  const foreignUnitsSeen = things.units;
  const names = new Namer(campaign, before, state, knownUnits(index, nation, foreignUnitsSeen, mine), nation);

  // Each event's sentence, made once: the map's marks repeat some of them.
  const told = new Map<LoggedEvent, string>();
  const tell = (e: LoggedEvent) => {
    let text = told.get(e);
    if (text === undefined) told.set(e, (text = describeEvent(e, names)));
    return text;
  };
  const { summary, letters } = eventSummary(mine, nation, names, tell);
  const tradeRoutes = tradeRoutesOf(campaign, state, nation, summary.actions);
  const rumours = rumoursHeard(index, nation);

  const foreignUnits = unitsOnMap(campaign, foreignUnitsSeen, names);
  const foreignSettlements = foreignSettlementsSeen(things.settlements, names);

  const notes = (opts.orders?.nations[nation]?.orders ?? []).flatMap((o) => (o.kind === 'note' ? [o.text] : []));
  const given = givenInYourName(campaign, before, nation, opts.orders?.nations[nation]);
  const hexes = sortedByHex(seen, (h) => h);
  const changes = mapChangesOf(mine, nation, before, state, names, tell);
  const ownHexes = [...index.world.unitsOf(nation).map((u) => u.hex), ...index.world.settlementsOf(nation).map((s) => s.hex)];
  const area = areaOfInterest(campaign, [hexes, ownHexes, changes.marks.map((m) => m.hex), ...changes.moves.map((m) => m.hexes)], ownHexes);
  const own = ownPart(index, state, nation, ns, names, besiegersSeen(foreignUnitsSeen, names));
  const unrest = unrestOf(campaign, index, nation, ns.prosperity, ns.happiness, (id) => names.settlement(id as SettlementState['id']));
  const header = turnHeader(campaign, state.turn, opts.deadline);
  const outcomes = orderOutcomes(mine, nation, opts.orders?.nations[nation]);
  summary.rejected = outcomes.refused;
  summary.warned = outcomes.warned;
  summary.unmet = outcomes.unmet;

  return {
    kind: 'nation',
    header,
    // Filled in by the report job when the campaign shows the GM's log (gm-log.ts).
    gmLog: [],
    // Filled in by the report job for a player back after missed turns (since-view.ts).
    since: null,
    nation: { id: nation, name: def.name, ...leaderLines(campaign, ns), alive: ns.alive, missedTurns: ns.missedTurns, battlesWon: ns.battlesWon },
    summary,
    tradeRoutes,
    ...ledgersOf(mine, nation, was, ns),
    ...own,
    notes,
    ...(given ? { givenInYourName: given } : {}),
    letters: readingOrder(letters, { seed: campaign.seed, turn: state.turn, reader: nation }),
    sight: sightView(campaign, things, hexes, foreignUnits, foreignSettlements),
    ...nationsListed(campaign, state, nation, mine, foreignUnitsSeen, foreignSettlements, opts.inlineNationsUpTo ?? INLINE_NATIONS_UP_TO),
    unrest,
    discoveries: discoveriesOf(campaign, ns.revealed ?? []),
    ...optional('awaiting', awaitingOf(campaign, ns, mine, state.turn)),
    ...optional('aspects', aspectsOf(campaign, state, nation)),
    ...optional('deck', deckOf(campaign, ns)),
    rumours,
    map: terrainGrid(campaign, area, opts.legend),
    changes,
    glance: glanceOf({
      nation,
      alive: ns.alive,
      missedTurns: ns.missedTurns,
      renown: [was?.renown ?? ns.renown, ns.renown],
      fate: [was?.fate ?? ns.fate, ns.fate],
      deadline: header.next.deadline,
      orders: outcomes.tally,
      unitsLost: index.worldBefore.unitsOf(nation).filter((u) => state.units[u.id] === undefined).length,
      settlements: own.settlements,
      unrest,
      mine,
      names,
    }),
  };
}
