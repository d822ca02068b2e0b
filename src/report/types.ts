import type { BattleView, SiegeRollView, WarfareView } from './battle-view-types.js';
import type { TerrainGrid, ResourceSite, MapChanges } from './map-view-types.js';

/**
 * The view models behind every report. A NationView is exactly what one
 * nation may know after a turn; the text, HTML, YAML, SVG and order template
 * are all rendered from it and from nothing else, so secrecy is decided once
 * (in nationView) and a leak can only come from there. The GmView is the
 * whole picture for the GM.
 *
 * Every field is always present (null when there is nothing), because the
 * templates run in Handlebars' strict mode: a misspelt field is an error, not
 * an empty hole in a player's report.
 */

// The fights, the map and the GM's page have files of their own; importers keep one address for every view type.
export type * from './battle-view-types.js';
export type * from './map-view-types.js';
export type * from './gm-view-types.js';

/** A number with its Fate ladder word where the ladder has one ("+2 Fair"). */
export interface Rated {
  value: number;
  /** "+2", "0", "-1". */
  signed: string;
  /** "Fair", or null off the ladder. */
  word: string | null;
  /** "+2 Fair", or just "-3" off the ladder. */
  text: string;
}

export interface LedgerItem {
  reason: string;
  delta: number;
  /** "+20", "-5". */
  signed: string;
}

/** One resource over the turn: where it started, every change, where it ended. */
export interface Ledger {
  start: number;
  income: LedgerItem[];
  spending: LedgerItem[];
  incomeTotal: number;
  spendingTotal: number;
  end: number;
}

export interface IndicatorLedger {
  start: Rated;
  changes: LedgerItem[];
  end: Rated;
}

/** A sentence from the turn log, in resolution order. */
export interface LogLine {
  seq: number;
  phase: string;
  type: string;
  text: string;
}

export interface RejectedOrder {
  line: number | null;
  order: string;
  reason: string;
}

/**
 * A nation's orders this turn, each counted once in one of four states
 * (order-outcomes.ts): carried out, carried out with a warning, accepted but
 * did not happen in the resolution, refused.
 */
export interface OrderTally {
  carriedOut: number;
  warned: number;
  unmet: number;
  refused: number;
}

export interface GoalView {
  id: string;
  text: string;
  done: boolean;
  doneTurn: number | null;
  reward: string;
  /** "done (turn 3)", "open", "open — judged by the GM". */
  status: string;
}

export interface OwnUnitView {
  id: string;
  name: string | null;
  label: string;
  type: string;
  typeName: string;
  class: string;
  hex: string;
  terrain: string;
  health: string;
  speed: number;
  /** Every bonus: the class's ("(class)"), the type's, the unit's own ("(trained)"). */
  bonuses: string[];
  /** The bonuses beyond its class's, which the reports list once (NationView.classRules). */
  ownBonuses: string[];
  aboard: string | null;
  besieging: string | null;
  /** Id of the settlement it besieges, for order lines. */
  besiegingId: string | null;
  /**
   * Work in progress the unit is tied to, one phrase each ("building Silver
   * mine at 9,4, 1 turn left", "besieging Ironhold"): moving it off gives the
   * work up, so reports and the order sheet show it.
   */
  doing: string[];
  builtTurn: number | null;
}

export interface ClassRuleView {
  class: string;
  bonuses: string[];
}

export interface QueueItem {
  build: string;
  kind: string;
  what: string;
  turnsLeft: number;
  startedTurn: number;
}

export interface OwnSettlementView {
  id: string;
  name: string;
  level: string;
  hex: string;
  terrain: string;
  home: boolean;
  captured: boolean;
  structures: string[];
  structureIds: string[];
  battlements: string[];
  queue: QueueItem[];
  besiegedBy: string[];
}

export interface ProjectView {
  build: string;
  what: string;
  at: string;
  builder: string | null;
  turnsLeft: number;
}

export interface ExternalView {
  id: string;
  name: string;
  nation: string;
  nationName: string;
  hex: string;
}

export interface ForeignUnitView {
  id: string;
  name: string | null;
  label: string;
  nation: string;
  nationName: string;
  typeName: string;
  class: string;
  hex: string;
  health: string;
  besieging: string | null;
  /** The GM's report only: builds the unit works on (a nation never sees another's work). */
  building?: string[];
}

export interface ForeignSettlementView {
  id: string;
  name: string;
  nation: string;
  nationName: string;
  level: string;
  hex: string;
  battlements: string[];
}

export interface PublicNationView {
  id: string;
  name: string;
  leader: string;
  prosperity: Rated;
  happiness: Rated;
  alive: boolean;
}

export interface CapView {
  kind: 'military' | 'diplomatic';
  units: number;
  building: number;
  cap: number;
  text: string;
}

export interface UnitTypeOffer {
  id: string;
  name: string;
  class: string;
  speed: number;
  cost: number;
  bonuses: string[];
  requires: string | null;
}

export interface StructureOffer {
  id: string;
  name: string;
  cost: number;
  turns: number;
  effect: string;
}

/** What the nation can build: its own catalogue, with prices. */
export interface Catalogue {
  unitTypes: UnitTypeOffer[];
  structures: StructureOffer[];
  externals: StructureOffer[];
  battlements: { level: number; cost: number }[];
  upgrade: { town: number; city: number };
  newSettlement: number;
  fateTable: string[];
}

export interface TurnHeader {
  campaign: string;
  title: string;
  turn: number;
  /** "Summer of 412", or "the starting position" for turn 0. */
  when: string;
  season: string | null;
  year: number | null;
  next: { turn: number; season: string; year: number; when: string; deadline: string };
}

export interface NationSummary {
  battles: BattleView[];
  /** Warfare battles; absent when there were none. */
  warfare?: WarfareView[];
  sieges: SiegeRollView[];
  siegeNews: string[];
  buildsFinished: string[];
  buildsStarted: string[];
  buildsLost: string[];
  settlementNews: string[];
  goalNews: string[];
  rejected: RejectedOrder[];
  /** Orders carried out with a warning (a supporter left out): they went ahead. */
  warned: RejectedOrder[];
  /** Orders accepted that did not happen in the resolution, in whole or in part, with why. */
  unmet: RejectedOrder[];
  /** Older turns' logs: attacks and rests that came to nothing, as those turns told them. */
  cancelled: string[];
  /** Events that befell the nation this turn (random, follow-ups, the GM's), with what each brought. */
  events: EventView[];
  /** What the events and unrest did: units, structures, discoveries, unlocks, messages. */
  eventNews: string[];
  /** The units' actions: the nation's own rolls and what they bought (secrets for its eyes only), what others did to it, its trade routes. */
  actions: string[];
  other: LogLine[];
}

export interface LetterView {
  /** The sender's name; null when unsigned and not the reader's own. */
  from: string | null;
  to: string;
  /** The letter line by line (every value of a view is one printable line). */
  lines: string[];
  /** The reader wrote it. */
  sent: boolean;
  unsigned: boolean;
}

export interface EventView {
  id: string;
  title: string;
  text: string;
  tone: string;
  how: string;
}

/** A roll an event asked this turn, answered in the next turn's orders. */
export interface AwaitedRollView {
  event: string;
  title: string;
  prompt: string;
  /** The roll offers named options to choose from. */
  choice: boolean;
  options: { id: string; text: string; beat: number; /** The number to beat in words: "Good (+3)" (or "3", ladder words off). */ beatText: string; need: number; isDefault: boolean }[];
  /** What the roll is thrown with: "a d6", "four Fate dice on 3"… */
  die: string;
  default: string;
  /** The turn whose orders carry the answer. */
  turn: number;
  /** An exact order line that answers it, and one with Fate. */
  answer: string;
  answerWithFate: string;
}

/** A timed task under way, with what meets it and the turns left. */
export interface TaskView {
  id: string;
  title: string;
  text: string;
  deadline: number;
  /** "2 turns left". */
  left: string;
  /** What meets it, in words. */
  what: string;
  /** The order line that pays it, for a task met by a payment. */
  answer?: string;
}

/** A nation's Deck of Fate discard pile, by result (docs/rules.md F4). */
export interface DeckView {
  discarded: number;
  left: number;
  /** "Fair (+2): 3 — a sun; 2 suns; a moon". */
  lines: string[];
}

export interface AwaitingView {
  rolls: AwaitedRollView[];
  tasks: TaskView[];
  /** Compels offered this turn, answered next (docs/rules.md A9). */
  compels?: CompelView[];
}

export interface CompelView {
  id: string;
  aspect: string;
  text: string;
  turn: number;
  cost: number;
  accept: string;
  refuse: string;
}

/** The risk of revolt the nation's settlements run next turn, should Happiness stay where it is. */
export interface UnrestView {
  chance: number;
  happiness: string;
  /** The settlements at risk, in the order they would roll: captured first, then the newest. */
  settlements: string[];
  /** Settlements a garrison of the nation's own keeps in order. */
  garrisoned: string[];
}

/** The top of the report: where the nation stands and what needs its attention. */
export interface GlanceView {
  renown: number;
  fate: number;
  /** This turn's change, signed ("+12", "-3", "0"). */
  renownChange: string;
  fateChange: string;
  deadline: string;
  /** Orders refused (as `orders.refused`; kept for templates that print it). */
  refused: number;
  /** The orders of this turn by state; null when none were received. */
  orders: OrderTally | null;
  /** The same in words: "Orders: 4 carried out, 1 carried out with a warning, 1 refused." */
  ordersText: string;
  /** Without the heading, for a table cell: "4 carried out, 1 refused", "none received". */
  ordersWords: string;
  unitsLost: number;
  /** Sentences on what the player should not miss, most urgent first; empty when all is quiet. */
  alerts: string[];
}

/** What befell a nation over the turns its player sent no orders (since-view.ts): at the top of the report of the turn they are back. */
export interface SinceView {
  /** "turns 3–5", "turn 4". */
  turns: string;
  /** Turns missed in a row before this one. */
  missed: number;
  /** One sentence each: battles, losses, gains, sieges, builds, events. */
  lines: string[];
}

/** A Fate aspect as a nation's report lists it (aspects-view.ts). */
export interface AspectView {
  name: string;
  /** Where it is, in words: a nation, settlement, unit or region. */
  place: string;
  free: number;
  /** The free invokes in words, with whose they are. */
  text: string;
  boost: boolean;
  /** Seen by this nation alone (and the GM). */
  secret: boolean;
  /** Its free invokes are this nation's. */
  yours: boolean;
  /** It is on this nation, its settlement or unit: invoked against it, it pays this nation. */
  onYou: boolean;
}

/** An open trade route of the nation's, for the text and the map. */
export interface TradeRouteView {
  from: string;
  to: string;
  fromHex: string;
  toHex: string;
  income: number;
  opened: number;
}

/** A nation's standing as its own report and the GM's page both show it: its ledgers, goals and units. */
export interface NationStanding {
  renown: Ledger;
  fate: Ledger;
  prosperity: IndicatorLedger;
  happiness: IndicatorLedger;
  goals: GoalView[];
  units: OwnUnitView[];
}

export interface NationView extends NationStanding {
  kind: 'nation';
  header: TurnHeader;
  nation: { id: string; name: string; leader: string; ability: string; alive: boolean; missedTurns: number; battlesWon: number };
  summary: NationSummary;
  /** The nation's open trade routes (drawn on the map, listed under Actions and intelligence). */
  tradeRoutes: TradeRouteView[];
  /** The class bonuses of the classes among the nation's units, said once rather than on every unit. */
  classRules: ClassRuleView[];
  settlements: OwnSettlementView[];
  projects: ProjectView[];
  externals: ExternalView[];
  caps: CapView[];
  catalogue: Catalogue;
  notes: string[];
  /** The orders a caretaker (or civil disorder) gave in the nation's name this turn, its player being silent. */
  givenInYourName?: { by: string; orders: string[] };
  /** Letters this turn, sent and received; an unsigned one names no sender to its readers. */
  letters: LetterView[];
  sight: {
    unitRange: number;
    settlementRange: number;
    hexes: string[];
    units: ForeignUnitView[];
    settlements: ForeignSettlementView[];
    externals: ExternalView[];
    resources: ResourceSite[];
  };
  /** Unrest, when Happiness is low enough for settlements to rise (null otherwise). */
  unrest: UnrestView | null;
  /** Hidden resources the nation has found (events), wherever they are. */
  discoveries: ResourceSite[];
  /** Rolls awaiting the nation's answer and its timed tasks; absent when there are none. */
  awaiting?: AwaitingView;
  /** The Fate aspects it can see (rules.fate.aspects); absent when none. */
  aspects?: AspectView[];
  /** Its Deck of Fate's discard pile (rules.fate.randomiser: deck); absent in other campaigns. */
  deck?: DeckView;
  /** Public indicators: of every nation in small campaigns, else of the nations this one has met. */
  nations: PublicNationView[];
  /** True when `nations` lists every nation; otherwise the full list is in the turn's gazette. */
  nationsAll: boolean;
  nationCount: number;
  rumours: string[];
  /** The area of interest: the window of terrain every map of this report draws. */
  map: TerrainGrid;
  /** With campaign.yaml `reports.gmLog`: the GM's operations outside the rules this turn (gm-log.ts). */
  gmLog: string[];
  /** This turn's moves, battles, sieges, losses and new works, for the map. */
  changes: MapChanges;
  glance: GlanceView;
  /** For a player back after missed turns: what befell the nation since it last sent orders; null otherwise. */
  since: SinceView | null;
}
