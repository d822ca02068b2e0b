import { withArticle } from '../core/prose.js';
import type { LoggedEvent } from '../core/events.js';
import type { HexKey, NationId, UnitId } from '../core/ids.js';
import type { GameState } from '../core/state.js';
import { battleView, siegeRollView, warfareView } from './battle-text.js';
import { Namer } from './namer.js';
import type { ReportIndex, Rumour } from './report-index.js';
import type { LetterView, LogLine, NationSummary } from './types.js';

/**
 * A nation's report, the events part: what it took part in, sorted into the
 * summary's sections, its letters, and the rumours it hears of the rest.
 */

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

/**
 * The nations an event names to the reader. A letter names its addressees, and its sender only where it is
 * signed (or to the sender itself): "to every nation" names no one, and an unsigned letter's sender listed
 * among the nations met would give the sender away.
 */
export function nationsNamed(e: LoggedEvent, reader: NationId): readonly NationId[] {
  if (e.type !== 'press') return e.nations;
  const to = e.to === 'all' ? [] : e.to;
  return e.anonymous && e.from !== reader ? to : [e.from, ...to];
}

/**
 * The nation's events sorted into the summary's sections, and its letters (in log order; readingOrder orders them).
 * An event's sentence is asked of `told` only where the summary prints it: a battle, a siege roll or a Warfare
 * battle has a view of its own, a ledger item or an order's outcome is itemised elsewhere.
 */
export function eventSummary(mine: readonly LoggedEvent[], nation: NationId, names: Namer, told: (e: LoggedEvent) => string): { summary: NationSummary; letters: LetterView[] } {
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
  for (const e of mine) {
    if (e.type === 'press') {
      letters.push(letterView(e, nation, names));
      continue;
    }
    if (e.type === 'event_fired') {
      summary.events.push({ id: e.event, title: e.title, text: e.text, tone: e.tone, how: e.how });
      continue;
    }
    if (e.phase === 'events' && e.type !== 'resource' && e.type !== 'indicator') {
      summary.eventNews.push(told(e));
      continue;
    }
    if ((e.phase === 'actions' || e.phase === 'trade') && e.type !== 'resource' && e.type !== 'indicator') {
      summary.actions.push(told(e));
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
        summary.siegeNews.push(told(e));
        break;
      case 'build_completed':
        summary.buildsFinished.push(told(e));
        break;
      case 'build_started':
        summary.buildsStarted.push(told(e));
        break;
      case 'work_abandoned':
        (e.work === 'siege' ? summary.siegeNews : summary.buildsLost).push(told(e));
        break;
      case 'build_lost':
        summary.buildsLost.push(told(e));
        break;
      case 'settlement_founded':
      case 'settlement_captured':
      case 'settlement_upgraded':
      case 'external_built':
      case 'external_captured':
      case 'external_destroyed':
      case 'external_held':
        summary.settlementNews.push(told(e));
        break;
      case 'goal_completed':
        summary.goalNews.push(told(e));
        break;
      case 'order_rejected':
      case 'order_warned':
      case 'order_unmet':
        break; // order-outcomes.ts
      case 'attack_cancelled':
        summary.cancelled.push(told(e));
        break;
      case 'resource':
      case 'indicator':
        break; // itemised in the ledgers
      default:
        summary.other.push({ seq: e.seq, phase: e.phase, type: e.type, text: told(e) } satisfies LogLine);
    }
  }
  return { summary, letters };
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

/** The rumours a nation hears this turn, as sentences (ReportIndex.rumoursFor decides which). */
export function rumoursHeard(index: ReportIndex, nation: NationId): string[] {
  let worldNames: Namer | undefined;
  const { campaign, before, state } = index;
  return index.rumoursFor(nation, (e) => rumourOf(e, (worldNames ??= new Namer(campaign, before, state, () => false, null)), state)).map((r) => r.text);
}

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
