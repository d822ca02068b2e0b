import { awaitingOf } from './awaiting.js';
import { allAspects } from './aspects-view.js';
import { leaderOf } from '../core/leaders.js';
import { leaderLines } from './leader-text.js';
import type { Campaign } from '../core/campaign.js';
import { orderNames, orderText } from '../core/order-text.js';
import type { LoggedEvent } from '../core/events.js';
import { compareIds, sortedKeys } from '../core/ids.js';
import type { TurnOrders } from '../core/orders.js';
import type { GameState, SettlementState, UnitState } from '../core/state.js';
import { describeEvent } from './describe.js';
import { Namer } from './namer.js';
import { battleView, siegeRollView, WARFARE_KEY, warfareView } from './battle-text.js';
import { capsOf, externalsOf, goalsOf, indicatorLedger, ledger, ownProjects, ownSettlements, ownUnits, turnHeader } from './facts.js';
import { sortedByHex, terrainGrid, wholeWindow } from './map-grid.js';
import { unitsOnMap } from './nation-sight.js';
import { ReportIndex } from './report-index.js';
import { rated } from './ladder.js';
import type { ForeignUnitView, GmNationRow, GmNationView, GmView } from './types.js';
import { orderOutcomes, tallyParts } from './order-outcomes.js';
import { WorkIndex, workText } from '../core/work.js';
import { allUnits } from '../core/world-index.js';

/**
 * The GM's whole picture of a turn: every nation's full state, every roll,
 * every rejected order, NMRs, the notes players sent, and the things the
 * rules leave to the GM's judgement. Kept apart from nationView so that no
 * nation's report is ever built from it.
 */
export interface GmViewOptions {
  deadline?: string;
  orders?: TurnOrders;
  legend?: Readonly<Record<string, string>>;
  /** Up to this many nations the page carries each in full (campaign.yaml `reports.gm.nationsInFull`). */
  nationsInFull?: number;
  /** Up to this many events the page carries every roll and the event log (`reports.gm.eventsInFull`). */
  eventsInFull?: number;
  /** The nation's own report the table links beyond the limit: "html", or "txt" in a campaign that makes no HTML. */
  nationReport?: 'html' | 'txt';
}

/**
 * A page of a few megabytes at most, which a browser opens and a mail server
 * takes: a hundred nations of a hundred units in full, twenty thousand events
 * (about 2,000 battles with their rolls).
 */
export const GM_IN_FULL = { nations: 100, events: 20_000 } as const;

export function gmView(campaign: Campaign, before: GameState, state: GameState, events: readonly LoggedEvent[], opts: GmViewOptions = {}): GmView {
  const names = new Namer(campaign, before, state, () => true, null);
  const orders = opts.orders;
  const attention: string[] = [];
  const seats: string[] = [];
  const ids = sortedKeys(campaign.nations);
  const nationsInFull = opts.nationsInFull ?? GM_IN_FULL.nations;
  const eventsInFull = opts.eventsInFull ?? GM_IN_FULL.events;
  const detail = { nations: ids.length <= nationsInFull, events: events.length <= eventsInFull, nationsInFull, eventsInFull };

  const index = ReportIndex.of(campaign, before, state, events);
  const table: GmNationRow[] = [];
  const nations: GmNationView[] = [];
  const notes: GmView['notes'] = [];
  for (const nation of ids) {
    const theirs = index.eventsOf(nation);
    const def = campaign.nations[nation];
    const ns = state.nations[nation];
    const was = before.nations[nation];
    if (!def || !ns) throw new Error(`nation ${nation} has no state`);
    const sent = orders?.nations[nation];
    const sheetNames = orderNames(campaign, before, nation);
    const caps = capsOf(index, nation);
    const goals = goalsOf(campaign, ns, nation);
    const nmrFlagged = ns.alive && ns.missedTurns >= campaign.rules.nmrFlagAfter;
    const theirNotes = (sent?.orders ?? []).flatMap((o) => (o.kind === 'note' ? [o.text] : []));
    for (const text of theirNotes) notes.push({ nation, name: def.name, text });
    const outcomes = orderOutcomes(theirs, nation, sent);

    // A seat its policy plays is in the seats list, not asked of the GM again every turn.
    if (nmrFlagged && !ns.seat) attention.push(`${def.name} has sent no orders for ${ns.missedTurns} turns in a row (the flag is at ${campaign.rules.nmrFlagAfter}): contact the player or decide what the nation does.`);
    if (ns.seat) seats.push(`${def.name}: played by ${ns.seat.policy === 'disorder' ? 'civil disorder' : 'the caretaker'} since turn ${ns.seat.since} (${ns.missedTurns} turn${ns.missedTurns === 1 ? '' : 's'} without its player's orders).`);
    for (const c of caps) if (c.units + c.building > c.cap) attention.push(`${def.name} is over its ${c.kind} cap (${c.text}): the rules say a unit must be replaced or forgone.`);
    for (const g of goals) {
      const goal = def.goals.find((x) => x.id === g.id);
      if (!g.done && goal?.condition.kind === 'gm') attention.push(`${def.name}'s goal "${g.text}" is judged by the GM (complete it with a complete_goal action in the next _gm.yaml).`);
    }
    for (const ind of ['prosperity', 'happiness'] as const) {
      if (ns[ind] <= campaign.rules.indicatorMin + 1) attention.push(`${def.name}'s ${ind === 'prosperity' ? 'Prosperity' : 'Happiness'} is ${ns[ind]}: the rules say the people lose faith and may rebel — a random event is the GM's call.`);
    }
    const lines = leaderLines(campaign, ns);
    const ruler = leaderOf(campaign, ns);
    if (def.ability && !ruler.ability && !ns.leader) attention.push(`${def.name}'s leader ability has no rules data (leaderAbility in campaign.yaml), so it is the GM's to apply: ${def.leader} — ${def.ability}`);
    if (ruler.name === null) attention.push(`${def.name} has no leader: an heir order (or an heir action in _gm.yaml) crowns one.`);

    table.push({
      id: nation,
      name: def.name,
      leader: lines.leader,
      alive: ns.alive,
      nmrFlagged,
      missedTurns: ns.missedTurns,
      renown: { start: was?.renown ?? ns.renown, end: ns.renown },
      fate: { start: was?.fate ?? ns.fate, end: ns.fate },
      prosperity: rated(ns.prosperity),
      happiness: rated(ns.happiness),
      battlesWon: ns.battlesWon,
      units: index.world.unitsOf(nation).length,
      settlements: index.world.settlementsOf(nation).length,
      goalsDone: goals.filter((g) => g.done).length,
      goals: goals.length,
      orders: outcomes.tally ? outcomes.tally.carriedOut + outcomes.tally.warned + outcomes.tally.unmet + outcomes.tally.refused : null,
      refused: outcomes.tally?.refused ?? 0,
      warned: outcomes.tally?.warned ?? 0,
      unmet: outcomes.tally?.unmet ?? 0,
      ordersText: outcomes.tally ? tallyParts(outcomes.tally) : null,
      link: detail.nations ? `#nation-${nation}` : `${nation}.${opts.nationReport ?? 'html'}`,
    });
    if (!detail.nations) continue;

    const besiegers = (settlement: string) => index.besiegers(settlement).map((u) => names.unit(u.id));
    const awaiting = awaitingOf(campaign, ns, theirs, state.turn);
    nations.push({
      ...(awaiting ? { awaiting } : {}),
      id: nation,
      name: def.name,
      leader: lines.leader,
      ability: lines.ability,
      alive: ns.alive,
      missedTurns: ns.missedTurns,
      nmrFlagged,
      battlesWon: ns.battlesWon,
      renown: ledger(theirs, nation, 'renown', was?.renown ?? ns.renown, ns.renown),
      fate: ledger(theirs, nation, 'fate', was?.fate ?? ns.fate, ns.fate),
      prosperity: indicatorLedger(theirs, nation, 'prosperity', was?.prosperity ?? ns.prosperity, ns.prosperity),
      happiness: indicatorLedger(theirs, nation, 'happiness', was?.happiness ?? ns.happiness, ns.happiness),
      goals,
      units: ownUnits(campaign, state, nation, names),
      settlements: ownSettlements(index, nation, names, besiegers),
      projects: ownProjects(index, nation, names),
      externals: externalsOf(campaign, index.world.externalsByNation.get(nation) ?? []),
      caps,
      sentOrders: sent !== undefined,
      orders: (sent?.orders ?? []).map((o, i) => `${sent?.lines?.[i] ? `line ${sent.lines[i]}: ` : ''}${orderText(o, sheetNames)}`),
      notes: theirNotes,
      rejected: outcomes.refused,
      warned: outcomes.warned,
      unmet: outcomes.unmet,
    });
  }

  for (const e of events) {
    if (e.type === 'battle' && e.overkill > 0) {
      attention.push(`Battle ${e.battle} at ${e.at} had an overkill of ${e.overkill} (the loser ran out of units): the rules leave any further consequence to the GM.`);
    }
    if (e.type === 'siege_roll') attention.push(`Siege action at ${names.settlement(e.settlement)} (${e.action}): the rules ask the GM to check the outcome is fair.`);
    if (e.type === 'nation_fallen') attention.push(`${names.nationName(e.nation)} has fallen: its player may take a new leader or another nation.`);
  }

  // Beyond the limit these are the page's bulk and events.yaml carries them whole.
  const inFull = <T>(make: () => T[]): T[] => (detail.events ? make() : []);
  const counts = new Map<string, number>();
  for (const e of events) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);

  const aspects = allAspects(campaign, state);
  // Warfare battles are listed only when there were some, so a campaign without them reads as before.
  const warfare = events.flatMap((e) => (e.type === 'warfare' ? [warfareView(e, names)] : [])).map((w, i) => (i === 0 ? { ...w, key: [...WARFARE_KEY] } : w));
  return {
    kind: 'gm',
    header: turnHeader(campaign, state.turn, opts.deadline),
    detail,
    table,
    nations,
    eventCounts: [...counts].map(([type, count]) => ({ type, count })).sort((a, b) => b.count - a.count || compareIds(a.type, b.type)),
    totals: { events: events.length, battles: counts.get('battle') ?? 0, units: allUnits(state).length, nations: ids.length },
    battles: inFull(() => events.flatMap((e) => (e.type === 'battle' ? [battleView(e, names, () => true)] : []))),
    sieges: events.flatMap((e) => (e.type === 'siege_roll' ? [siegeRollView(e, names)] : [])),
    pursuits: inFull(() => events.flatMap((e) => (e.type === 'pursuit' || e.type === 'unit_fled' ? [describeEvent(e, names)] : []))),
    log: inFull(() => events.map((e) => ({ seq: e.seq, phase: e.phase, type: e.type, text: describeEvent(e, names) }))),
    nmr: events.flatMap((e) => (e.type === 'nmr' ? [describeEvent(e, names)] : [])),
    notes,
    gmActions: events.flatMap((e) => (e.phase === 'gm' ? [describeEvent(e, names)] : [])),
    attention,
    seats,
    ...(aspects ? { aspects } : {}),
    ...(warfare.length ? { warfare } : {}),
    world: {
      units: unitsOnMap(campaign, allUnits(state), names, withBuilds(campaign, state)),
      settlements: sortedByHex(Object.values(state.settlements), (s) => s.hex, (a, b) => compareIds(a.id, b.id))
        .map((s) => ({ id: s.id, name: s.name, nation: s.nation, nationName: names.nationName(s.nation), level: s.level, hex: s.hex, battlements: [...s.battlements].sort((a, b) => a - b).map((b) => `+${b}`) })),
      externals: externalsOf(campaign, Object.values(state.externals)),
      resources: sortedByHex(campaign.map.resources, (r) => r.hex).map((r) => ({ hex: r.hex, kind: r.kind, name: r.name })),
      tradeRoutes: (state.tradeRoutes ?? []).flatMap((r) => {
        const a = state.settlements[r.from as SettlementState['id']];
        const b = state.settlements[r.to as SettlementState['id']];
        return a && b ? [{ from: a.name, to: b.name, fromHex: a.hex, toHex: b.hex, income: campaign.actions?.entries[r.action]?.income ?? 0, opened: r.opened }] : [];
      }),
    },
    map: terrainGrid(campaign, wholeWindow(campaign), opts.legend),
  };
}

/** The GM sees every unit's builds beside it in the world's list (sieges are shown already). */
function withBuilds(campaign: Campaign, state: GameState): (unit: UnitState, view: ForeignUnitView) => ForeignUnitView {
  const work = WorkIndex.of(campaign, state);
  return (unit, view) => {
    const building = work.workOf(unit).flatMap((w) => (w.kind === 'build' ? [workText(w)] : []));
    return building.length ? { ...view, building } : view;
  };
}
