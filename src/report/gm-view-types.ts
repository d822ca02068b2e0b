import type { Rated, LogLine, RejectedOrder, NationStanding, OwnSettlementView, ProjectView, ExternalView, ForeignUnitView, ForeignSettlementView, CapView, TurnHeader, AwaitingView, TradeRouteView } from './types.js';
import type { BattleView, SiegeRollView, WarfareView } from './battle-view-types.js';
import type { TerrainGrid, ResourceSite } from './map-view-types.js';

/**
 * The GM's page (types.ts gathers every view type): every nation in full, the table of nations, every
 * aspect, and what the page leaves out beyond its limits.
 */

/** An aspect on the GM's page: every one, secret or not. */
export interface GmAspectView {
  name: string;
  place: string;
  /** Whose free invokes: a nation's name, or "anyone". */
  owner: string;
  free: number;
  boost: boolean;
  secret: boolean;
  since: number;
}

export interface GmNationView extends NationStanding {
  /** Rolls and tasks awaiting the nation, as its own report shows them; absent when none. */
  awaiting?: AwaitingView;
  id: string;
  name: string;
  leader: string;
  ability: string;
  alive: boolean;
  missedTurns: number;
  nmrFlagged: boolean;
  battlesWon: number;
  settlements: OwnSettlementView[];
  projects: ProjectView[];
  externals: ExternalView[];
  caps: CapView[];
  sentOrders: boolean;
  orders: string[];
  notes: string[];
  rejected: RejectedOrder[];
  warned: RejectedOrder[];
  unmet: RejectedOrder[];
}

/** A nation at a glance: one row of the GM's table of nations. */
export interface GmNationRow {
  id: string;
  name: string;
  leader: string;
  alive: boolean;
  nmrFlagged: boolean;
  missedTurns: number;
  renown: { start: number; end: number };
  fate: { start: number; end: number };
  prosperity: Rated;
  happiness: Rated;
  battlesWon: number;
  units: number;
  settlements: number;
  goalsDone: number;
  goals: number;
  /** Orders received this turn, each counted once (refused ones too); null when the nation sent none. */
  orders: number | null;
  refused: number;
  /** Carried out with a warning, and accepted but not carried out in the resolution. */
  warned: number;
  unmet: number;
  /** The orders by state in words ("2 carried out, 1 refused"); null with `orders`. */
  ordersText: string | null;
  /** Where the GM reads more: the nation's section of this page, or beyond the limit its own report beside it ("argenta.html"). */
  link: string;
}

/**
 * What the GM's page carries in full. Beyond the campaign's limits
 * (`reports.gm` in campaign.yaml) a 1,000-nation turn would be a page of
 * seventy megabytes that no browser or mail server takes: the nations'
 * sections and every unit give way to the table of nations (each row linking
 * the nation's own report), the rolls and the event log to events.yaml.
 */
export interface GmDetail {
  nations: boolean;
  events: boolean;
  nationsInFull: number;
  eventsInFull: number;
}

export interface GmView {
  kind: 'gm';
  header: TurnHeader;
  detail: GmDetail;
  /** Every nation, one row each. */
  table: GmNationRow[];
  /** Every nation in full, or none when the campaign is beyond `detail.nationsInFull`. */
  nations: GmNationView[];
  /** How many events of each type the turn had, most frequent first. */
  eventCounts: { type: string; count: number }[];
  totals: { events: number; battles: number; units: number; nations: number };
  /** Every battle with its rolls; empty beyond `detail.eventsInFull` (events.yaml has them). */
  battles: BattleView[];
  /** Every Warfare battle told in full; absent when there were none. */
  warfare?: WarfareView[];
  /** Siege actions are always listed: the rules ask the GM to judge each. */
  sieges: SiegeRollView[];
  /** Empty beyond `detail.eventsInFull`. */
  pursuits: string[];
  /** The turn event by event; empty beyond `detail.eventsInFull`. */
  log: LogLine[];
  nmr: string[];
  /** Every player's notes to the GM, by nation. */
  notes: { nation: string; name: string; text: string }[];
  gmActions: string[];
  attention: string[];
  /** Seats played by a caretaker or in disorder, and (from the schedule) who holds each seat, the standby list. */
  seats: string[];
  /** Every Fate aspect in play (rules.fate.aspects); absent when none. */
  aspects?: GmAspectView[];
  world: {
    /** Every unit (on the map always; listed on the page up to `detail.nationsInFull` nations). */
    units: ForeignUnitView[];
    settlements: ForeignSettlementView[];
    externals: ExternalView[];
    resources: ResourceSite[];
    /** Every open trade route, drawn on the GM's map. */
    tradeRoutes: TradeRouteView[];
  };
  map: TerrainGrid;
}
