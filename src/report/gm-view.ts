import type { Campaign } from '../core/campaign.js';
import { describeOrder } from '../core/checks/index.js';
import type { LoggedEvent } from '../core/events.js';
import { compareIds, sortedKeys } from '../core/ids.js';
import type { TurnOrders } from '../core/orders.js';
import type { GameState } from '../core/state.js';
import { battleView, describeEvent, Namer, siegeRollView } from './describe.js';
import {
  byId,
  capsOf,
  externalsOf,
  goalsOf,
  indicatorLedger,
  ledger,
  ownProjects,
  ownSettlements,
  ownUnits,
  turnHeader,
} from './facts.js';
import { compareHexes, terrainGrid, wholeWindow } from './map-grid.js';
import { unitsOnMap } from './nation-view.js';
import { ReportIndex } from './report-index.js';
import type { GmNationView, GmView } from './types.js';

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
}

export function gmView(campaign: Campaign, before: GameState, state: GameState, events: readonly LoggedEvent[], opts: GmViewOptions = {}): GmView {
  const names = new Namer(campaign, before, state, () => true, null);
  const orders = opts.orders;
  const attention: string[] = [];

  const index = ReportIndex.of(campaign, before, state, events);
  const nations: GmNationView[] = sortedKeys(campaign.nations).map((nation) => {
    const theirs = index.eventsOf(nation);
    const def = campaign.nations[nation];
    const ns = state.nations[nation];
    const was = before.nations[nation];
    if (!def || !ns) throw new Error(`nation ${nation} has no state`);
    const sent = orders?.nations[nation];
    const besiegers = (settlement: string) => index.besiegers(settlement).map((u) => names.unit(u.id));
    const caps = capsOf(index, nation);
    const nmrFlagged = ns.alive && ns.missedTurns >= campaign.rules.nmrFlagAfter;

    if (nmrFlagged) attention.push(`${def.name} has sent no orders for ${ns.missedTurns} turns in a row (the flag is at ${campaign.rules.nmrFlagAfter}): contact the player or decide what the nation does.`);
    for (const c of caps) if (c.units + c.building > c.cap) attention.push(`${def.name} is over its ${c.kind} cap (${c.text}): the rules say a unit must be replaced or forgone.`);
    for (const g of goalsOf(campaign, ns, nation)) {
      const goal = def.goals.find((x) => x.id === g.id);
      if (!g.done && goal?.condition.kind === 'gm') attention.push(`${def.name}'s goal "${g.text}" is judged by the GM (complete it with a complete_goal action in the next _gm.yaml).`);
    }
    for (const ind of ['prosperity', 'happiness'] as const) {
      if (ns[ind] <= campaign.rules.indicatorMin + 1) attention.push(`${def.name}'s ${ind === 'prosperity' ? 'Prosperity' : 'Happiness'} is ${ns[ind]}: the rules say the people lose faith and may rebel — a random event is the GM's call.`);
    }
    if (def.ability) attention.push(`${def.name}'s leader ability is applied by the GM: ${def.leader} — ${def.ability}`);

    return {
      id: nation,
      name: def.name,
      leader: def.leader,
      ability: def.ability,
      alive: ns.alive,
      missedTurns: ns.missedTurns,
      nmrFlagged,
      battlesWon: ns.battlesWon,
      renown: ledger(theirs, nation, 'renown', was?.renown ?? ns.renown, ns.renown),
      fate: ledger(theirs, nation, 'fate', was?.fate ?? ns.fate, ns.fate),
      prosperity: indicatorLedger(theirs, nation, 'prosperity', was?.prosperity ?? ns.prosperity, ns.prosperity),
      happiness: indicatorLedger(theirs, nation, 'happiness', was?.happiness ?? ns.happiness, ns.happiness),
      goals: goalsOf(campaign, ns, nation),
      units: ownUnits(campaign, state, nation, names),
      settlements: ownSettlements(index, nation, names, besiegers),
      projects: ownProjects(index, nation, names),
      externals: externalsOf(campaign, index.world.externalsByNation.get(nation) ?? []),
      caps,
      sentOrders: sent !== undefined,
      orders: (sent?.orders ?? []).map((o, i) => `${sent?.lines?.[i] ? `line ${sent.lines[i]}: ` : ''}${describeOrder(o)}`),
      notes: (sent?.orders ?? []).flatMap((o) => (o.kind === 'note' ? [o.text] : [])),
      rejected: theirs.flatMap((e) => (e.type === 'order_rejected' && e.nation === nation ? [{ line: e.line ?? null, order: e.order, reason: e.reason }] : [])),
    };
  });

  for (const e of events) {
    if (e.type === 'battle' && e.overkill > 0) {
      attention.push(`Battle ${e.battle} at ${e.at} had an overkill of ${e.overkill} (the loser ran out of units): the rules leave any further consequence to the GM.`);
    }
    if (e.type === 'siege_roll') attention.push(`Siege action at ${names.settlement(e.settlement)} (${e.action}): the rules ask the GM to check the outcome is fair.`);
    if (e.type === 'nation_fallen') attention.push(`${names.nationName(e.nation)} has fallen: its player may take a new leader or another nation.`);
  }

  const log = events.map((e) => ({ seq: e.seq, phase: e.phase, type: e.type, text: describeEvent(e, names) }));

  return {
    kind: 'gm',
    header: turnHeader(campaign, state.turn, opts.deadline),
    nations,
    battles: events.flatMap((e) => (e.type === 'battle' ? [battleView(e, names, () => true)] : [])),
    sieges: events.flatMap((e) => (e.type === 'siege_roll' ? [siegeRollView(e, names)] : [])),
    pursuits: events.flatMap((e) => (e.type === 'pursuit' || e.type === 'unit_fled' ? [describeEvent(e, names)] : [])),
    log,
    nmr: events.flatMap((e) => (e.type === 'nmr' ? [describeEvent(e, names)] : [])),
    gmActions: events.flatMap((e) => (e.phase === 'gm' ? [describeEvent(e, names)] : [])),
    attention,
    world: {
      units: unitsOnMap(campaign, Object.values(state.units), names),
      settlements: Object.values(state.settlements)
        .sort((a, b) => compareHexes(a.hex, b.hex) || compareIds(a.id, b.id))
        .map((s) => ({ id: s.id, name: s.name, nation: s.nation, nationName: names.nationName(s.nation), level: s.level, hex: s.hex, battlements: [...s.battlements].sort((a, b) => a - b).map((b) => `+${b}`) })),
      externals: externalsOf(campaign, Object.values(state.externals)),
      resources: [...campaign.map.resources].sort((a, b) => compareHexes(a.hex, b.hex)).map((r) => ({ hex: r.hex, kind: r.kind, name: r.name })),
    },
    map: terrainGrid(campaign, wholeWindow(campaign), opts.legend),
  };
}
