import { withArticle } from '../core/prose.js';
import type { Campaign } from '../core/campaign.js';
import type { LoggedEvent } from '../core/events.js';
import { compareIds, sortedKeys, type HexKey, type NationId, type UnitId } from '../core/ids.js';
import type { NationOrders, TurnOrders } from '../core/orders.js';
import { orderNames, orderText } from '../core/order-text.js';
import type { GameState, SettlementState, UnitState } from '../core/state.js';
import { perCampaignAndState } from '../core/memo.js';
import { WorldIndex } from '../core/world-index.js';
import { battleView, describeEvent, Namer, siegeRollView, warfareView } from './describe.js';
import { byId, capsOf, catalogueOf, externalsOf, goalsOf, indicatorLedger, ledger, ownProjects, ownSettlements, ownUnits, classRulesOf, turnHeader } from './facts.js';
import { rated } from './ladder.js';
import { ReportIndex, type Rumour } from './report-index.js';
import { areaOfInterest, compareHexes, sortedByHex, resourcesByHex, terrainGrid } from './map-grid.js';
import { mapChangesOf } from './map-changes.js';
import { orderOutcomes } from './order-outcomes.js';
import { glanceOf } from './glance.js';
import type { TradeRouteView, ForeignSettlementView, ForeignUnitView, LetterView, LogLine, NationSummary, NationView, PublicNationView, ResourceSite, UnrestView } from './types.js';
import { isMilitaryClass } from '../core/campaign.js';
import { leaderCostChange, leaderOf } from '../core/leaders.js';
import { leaderLines } from './leader-text.js';
import { revoltOrder } from '../core/phases/events.js';
import { revoltRisk } from '../core/world/odds.js';
import { awaitingOf } from './awaiting.js';
import { aspectsOf } from './aspects-view.js';
import { deckOf } from './deck-view.js';
import { readingOrder } from './letters.js';

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

/** Unit ids an event names. */
export function unitsNamedIn(e: LoggedEvent): UnitId[] {
  switch (e.type) {
    case 'unit_created':
    case 'unit_health':
    case 'unit_rested':
    case 'rest_interrupted':
    case 'attack_cancelled':
    case 'siege_roll':
    case 'work_abandoned':
      return [e.unit];
    case 'unit_moved':
      return [e.unit, ...(e.carried ?? [])];
    case 'unit_fled':
      return [e.unit, e.attacker];
    case 'pursuit':
      return [e.attacker, e.target];
    case 'siege_started':
      return [e.besieger];
    case 'settlement_captured':
    case 'external_captured':
      return [...e.by];
    case 'external_destroyed':
      return [...e.units];
    case 'settlement_revolted':
      return [...e.garrison];
    case 'civil_war':
      return [...e.units];
    case 'catch_roll':
    case 'catch_waived':
      return e.unit ? [e.unit] : [];
    case 'battle':
      return [...e.attacker.units, ...e.defender.units, ...e.casualties.map((c) => c.unit)];
    default:
      return [];
  }
}

/** Hexes a nation sees at the end of the turn (one definition, in core). */
export function sightOf(campaign: Campaign, state: GameState, nation: NationId): ReadonlySet<string> {
  return WorldIndex.of(campaign, state).visibleHexes(nation);
}

function nationsListed(
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
  for (const x of [...units, ...settlements]) met.add(x.nation);
  return { nations: all.filter((n) => met.has(n.id)), nationsAll: false, nationCount: all.length };
}

/**
 * The nations an event names to the reader. A letter names its addressees, and its sender only where it is
 * signed (or to the sender itself): "to every nation" names no one, and an unsigned letter's sender listed
 * among the nations met would give the sender away.
 */
function nationsNamed(e: LoggedEvent, reader: NationId): readonly NationId[] {
  if (e.type !== 'press') return e.nations;
  const to = e.to === 'all' ? [] : e.to;
  return e.anonymous && e.from !== reader ? to : [e.from, ...to];
}

/** Units as a map shows them, by hex then id: the units a nation sees, or every unit for the GM. */
export function unitsOnMap(campaign: Campaign, units: readonly UnitState[], names: Namer): ForeignUnitView[] {
  return sortedByHex(units, (u) => u.hex, (a, b) => compareIds(a.id, b.id))
    .map((u) => ({
      id: u.id,
      name: u.name ?? null,
      label: names.unit(u.id),
      nation: u.nation,
      nationName: names.nationName(u.nation),
      typeName: names.typeName(u),
      class: campaign.nations[u.nation]?.unitTypes[u.type]?.class ?? 'unknown',
      hex: u.hex,
      health: u.health,
      besieging: u.besieging ? names.settlement(u.besieging) : null,
    }));
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

/**
 * Word of events elsewhere: who fought whom, which city fell, who founded
 * what. No units, numbers or places in the text; the place only decides who
 * hears it (see ReportIndex.rumoursFor).
 */
function rumourOf(e: LoggedEvent, names: Namer, state: GameState): Rumour | undefined {
  const n = (id: string) => names.nationName(id);
  const rumour = (text: string, hex?: HexKey): Rumour => ({ seq: e.seq, text, nations: e.nations, ...(hex ? { hex } : {}) });
  switch (e.type) {
    case 'leader_died':
      return rumour(`Heralds cry that ${e.name}, who ruled ${n(e.nation)}, is dead.`);
    case 'leader_succeeded':
      return rumour(`${e.name} now rules ${n(e.nation)}.`);
    case 'battle': {
      const a = n(e.attacker.nation);
      const d = n(e.defender.nation);
      const how = e.winner === 'draw' ? 'neither side prevailed' : `${e.winner === 'attacker' ? a : d} carried the day`;
      return rumour(`Word reaches you of ${e.kind === 'assault' ? 'an assault on the walls of a settlement' : 'a battle'} between ${a} and ${d}; ${how}.`, e.at);
    }
    case 'warfare': {
      // A Warfare battle is heard of like any battle (docs/rules.md W16); its account is for the two sides.
      const a = n(e.attacker);
      const d = n(e.defender);
      return rumour(`Word reaches you of a great battle between ${a} and ${d}; ${e.winner === 'attacker' ? a : d} carried the day.`, e.at);
    }
    case 'settlement_captured':
      return rumour(`Travellers say ${names.settlement(e.settlement)} has fallen: ${n(e.to)} took it from ${n(e.from)}.`, state.settlements[e.settlement]?.hex);
    case 'external_captured':
      return rumour(`Travellers say ${n(e.to)} has taken ${withArticle(names.campaign.externals[e.structure]?.name ?? 'structure')} from ${n(e.from)}.`, e.at);
    case 'external_destroyed':
      if (!e.by) return rumour(`Travellers say ${withArticle(names.campaign.externals[e.structure]?.name ?? 'structure')} of ${n(e.nation)} has been razed.`, e.at);
      return rumour(`Travellers say ${n(e.by)} has razed ${withArticle(names.campaign.externals[e.structure]?.name ?? 'structure')} of ${n(e.nation)}.`, e.at);
    case 'settlement_founded':
      return rumour(`It is said that ${n(e.nation)} has founded a new settlement, ${e.name}.`, e.at);
    case 'nation_fallen':
      return rumour(`Grim news: ${n(e.nation)} has fallen.`);
    case 'event_fired':
      // Only what the GM wrote for all to hear; the event itself stays its nation's.
      return e.public ? rumour(e.public) : undefined;
    case 'civil_war':
      return rumour(`Word spreads of civil war: ${n(e.into)} has broken away from ${n(e.from)}.`);
    case 'seat_changed':
      // Who plays a nation is public news; nothing of its state is in it.
      if (e.to === 'caretaker') return rumour(`It is said that the court of ${n(e.nation)} has fallen silent: stewards keep its lands and only defend them.`);
      if (e.to === 'disorder') return rumour(`Word spreads that ${n(e.nation)} has fallen into disorder: no one rules there.`);
      if (e.to === 'player') return rumour(`${n(e.nation)} is heard from again: its ruler has returned.`);
      return undefined;
    case 'settlement_revolted':
      return rumour(`Word spreads that ${names.settlement(e.settlement)} has risen against ${n(e.from)}.`, state.settlements[e.settlement]?.hex);
    default:
      return undefined;
  }
}

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
  const foreignUnitsSeen = index.world.foreignUnitsSeenBy(nation);
  const known = new Set<string>();
  for (const w of [index.worldBefore, index.world]) for (const u of w.unitsOf(nation)) known.add(u.id);
  for (const u of foreignUnitsSeen) known.add(u.id);
  for (const e of mine) for (const id of unitsNamedIn(e)) known.add(id);
  const names = new Namer(campaign, before, state, (id) => known.has(id), nation);

  const summary: NationSummary = {
    battles: [],
    sieges: [],
    siegeNews: [],
    buildsFinished: [],
    buildsStarted: [],
    buildsLost: [],
    settlementNews: [],
    goalNews: [],
    rejected: [],
    warned: [],
    unmet: [],
    cancelled: [],
    events: [],
    eventNews: [],
    actions: [],
    other: [],
  };
  const own = (n: NationId) => n === nation;
  const letters: LetterView[] = [];
  // Each event's sentence, made once: the map's marks repeat some of them.
  const told = new Map<LoggedEvent, string>();
  for (const e of mine) {
    if (e.type === 'press') {
      letters.push(letterView(e, nation, names));
      continue;
    }
    const text = describeEvent(e, names);
    told.set(e, text);
    if (e.type === 'event_fired') {
      summary.events.push({ id: e.event, title: e.title, text: e.text, tone: e.tone, how: e.how });
      continue;
    }
    if (e.phase === 'events' && e.type !== 'resource' && e.type !== 'indicator') {
      summary.eventNews.push(text);
      continue;
    }
    if ((e.phase === 'actions' || e.phase === 'trade') && e.type !== 'resource' && e.type !== 'indicator') {
      summary.actions.push(text);
      continue;
    }
    switch (e.type) {
      case 'battle':
        summary.battles.push(battleView(e, names, own));
        break;
      case 'warfare':
        (summary.warfare ??= []).push(warfareView(e, names, !summary.warfare?.length));
        break;
      case 'siege_roll':
        summary.sieges.push(siegeRollView(e, names));
        break;
      case 'siege_started':
      case 'siege_lifted':
      case 'battlement_destroyed':
        summary.siegeNews.push(text);
        break;
      case 'build_completed':
        summary.buildsFinished.push(text);
        break;
      case 'build_started':
        summary.buildsStarted.push(text);
        break;
      case 'work_abandoned':
        (e.work === 'siege' ? summary.siegeNews : summary.buildsLost).push(text);
        break;
      case 'build_lost':
        summary.buildsLost.push(text);
        break;
      case 'settlement_founded':
      case 'settlement_captured':
      case 'settlement_upgraded':
      case 'external_built':
      case 'external_captured':
      case 'external_destroyed':
      case 'external_held':
        summary.settlementNews.push(text);
        break;
      case 'goal_completed':
        summary.goalNews.push(text);
        break;
      case 'order_rejected':
      case 'order_warned':
      case 'order_unmet':
        break; // order-outcomes.ts
      case 'attack_cancelled':
        summary.cancelled.push(text);
        break;
      case 'resource':
      case 'indicator':
        break; // itemised in the ledgers
      default:
        summary.other.push({ seq: e.seq, phase: e.phase, type: e.type, text } satisfies LogLine);
    }
  }
  // The nation's open trade routes, every turn they stand (one pass over the routes, only when there are any).
  const tradeRoutes: TradeRouteView[] = [];
  for (const r of state.tradeRoutes ?? []) {
    const a = state.settlements[r.from as SettlementState['id']];
    const b = state.settlements[r.to as SettlementState['id']];
    if (!a || !b || (a.nation !== nation && b.nation !== nation)) continue;
    const income = campaign.actions?.entries[r.action]?.income ?? 0;
    tradeRoutes.push({ from: a.name, to: b.name, fromHex: a.hex, toHex: b.hex, income, opened: r.opened });
    summary.actions.push(`Open trade route: ${a.name} – ${b.name}${income ? `, ${income} Renown a turn` : ''} (since turn ${r.opened}).`);
  }

  let worldNames: Namer | undefined;
  const rumours = index.rumoursFor(nation, (e) => rumourOf(e, (worldNames ??= new Namer(campaign, before, state, () => false, null)), state)).map((r) => r.text);

  const besiegers = (settlement: string) =>
    foreignUnitsSeen
      .filter((u) => u.besieging === settlement)
      .sort(byId)
      .map((u) => names.unit(u.id));

  const foreignUnits: ForeignUnitView[] = unitsOnMap(campaign, foreignUnitsSeen, names);
  const foreignSettlements: ForeignSettlementView[] = [...seen]
    .map((h) => index.world.settlementByHex.get(h))
    .filter((s): s is SettlementState => s !== undefined && s.nation !== nation)
    .sort((a, b) => compareHexes(a.hex, b.hex) || compareIds(a.id, b.id))
    .map((s) => ({
      id: s.id,
      name: s.name,
      nation: s.nation,
      nationName: names.nationName(s.nation),
      level: s.level,
      hex: s.hex,
      battlements: [...s.battlements].sort((a, b) => a - b).map((b) => `+${b}`),
    }));

  const notes = (opts.orders?.nations[nation]?.orders ?? []).flatMap((o) => (o.kind === 'note' ? [o.text] : []));
  const given = givenInYourName(campaign, before, nation, opts.orders?.nations[nation]);
  const hexes = sortedByHex(seen, (h) => h);
  const changes = mapChangesOf(mine, nation, before, state, names, (e) => told.get(e) ?? describeEvent(e, names));
  const ownHexes = [...index.world.unitsOf(nation).map((u) => u.hex), ...index.world.settlementsOf(nation).map((s) => s.hex)];
  const area = areaOfInterest(campaign, [hexes, ownHexes, changes.marks.map((m) => m.hex), ...changes.moves.map((m) => m.hexes)], ownHexes);
  const settlements = ownSettlements(index, nation, names, besiegers);
  const myUnits = ownUnits(campaign, state, nation, names);
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
    renown: ledger(mine, nation, 'renown', was?.renown ?? ns.renown, ns.renown),
    fate: ledger(mine, nation, 'fate', was?.fate ?? ns.fate, ns.fate),
    prosperity: indicatorLedger(mine, nation, 'prosperity', was?.prosperity ?? ns.prosperity, ns.prosperity),
    happiness: indicatorLedger(mine, nation, 'happiness', was?.happiness ?? ns.happiness, ns.happiness),
    goals: goalsOf(campaign, ns, nation),
    units: myUnits,
    classRules: classRulesOf(campaign, myUnits),
    settlements,
    projects: ownProjects(index, nation, names),
    externals: externalsOf(campaign, index.world.externalsByNation.get(nation) ?? []),
    caps: capsOf(index, nation),
    catalogue: catalogueOf(campaign, nation, ns.unlocked, (of, cls) => leaderCostChange(campaign, state, nation, of, cls)),
    notes,
    ...(given ? { givenInYourName: given } : {}),
    letters: readingOrder(letters, { seed: campaign.seed, turn: state.turn, reader: nation }),
    sight: {
      unitRange: campaign.rules.sight.unit,
      settlementRange: campaign.rules.sight.settlement,
      hexes,
      units: foreignUnits,
      settlements: foreignSettlements,
      externals: externalsOf(campaign, [...seen].flatMap((h) => index.world.externalsByHex.get(h) ?? []), (e) => e.nation !== nation),
      resources: resourcesIn(campaign, seen)
        .sort((a, b) => compareHexes(a.hex, b.hex))
        .map((r) => ({ hex: r.hex, kind: r.kind, name: r.name })),
    },
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
      settlements,
      unrest,
      mine,
      names,
    }),
  };
}

/** A letter as its reader may see it: an unsigned one keeps its sender from everyone but the sender. */
function letterView(e: Extract<LoggedEvent, { type: 'press' }>, reader: NationId, names: Namer): LetterView {
  const sent = e.from === reader;
  return {
    from: e.anonymous && !sent ? null : names.nationName(e.from),
    to: e.to === 'all' ? 'every nation' : e.to.map((id) => names.nationName(id)).join(', '),
    lines: e.text.split(/\r?\n/).map((l) => l.trimEnd()),
    sent,
    unsigned: e.anonymous,
  };
}

/** The revolt risk a nation's report warns of: what the next turn's roll will use, if Happiness stays. */
function unrestOf(campaign: Campaign, index: ReportIndex, nation: NationId, prosperity: number, happiness: number, name: (id: string) => string): UnrestView | null {
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

function discoveriesOf(campaign: Campaign, revealed: readonly string[]): ResourceSite[] {
  const found = new Set(revealed);
  return (campaign.map.hiddenResources ?? [])
    .filter((r) => found.has(r.hex))
    .sort((a, b) => compareHexes(a.hex, b.hex))
    .map((r) => ({ hex: r.hex, kind: r.kind, name: r.name }));
}

/** Map resources standing in the given hexes. */
function resourcesIn(campaign: Campaign, hexes: ReadonlySet<string>): Campaign['map']['resources'] {
  const byHex = resourcesByHex(campaign);
  const out: Campaign['map']['resources'] = [];
  for (const h of hexes) out.push(...(byHex.get(h) ?? []));
  return out;
}
