import type { SettlementLevel } from './campaign.js';
import type { ExternalId, HexKey, NationId, SettlementId, UnitId } from './ids.js';
import type { SeatPolicy } from './orders.js';
import type { Health } from './state.js';
import type { UnmetWhy } from './unmet.js';
import type { EventScope, EventTone, RollOutcome } from './world/types.js';

/**
 * Everything that happens in a turn, in resolution order. The log is the audit
 * trail: every lost unit, spent Renown point and changed owner has an event,
 * and every die roll is written down with its modifiers.
 *
 * `nations` lists who took part; reports decide visibility from it (plus sight).
 */
export type Resource = 'renown' | 'fate';
export type Indicator = 'prosperity' | 'happiness';

export interface DieRoll {
  /** `4dF` and `card` stand in for a d6 or d3 in campaigns with a Fate randomiser (docs/rules.md F2). */
  die: 'd6' | 'd3' | 'coin' | 'd100' | '4dF' | 'card';
  /** What counts towards the total: for `4dF` and `card`, the Fate draw's base plus its result. */
  value: number;
  /** Forced rolls (tests, GM overrides) are marked so an audit can tell. */
  forced?: boolean;
  /** The Fate draw behind a `4dF` or `card` value. */
  fate?: FateDraw;
}

/** A Fate draw: the dice thrown or the card drawn, and how it maps onto the die the rules ask for. */
export interface FateDraw {
  /** The die of the rules this draw stands for, and the base added to the result (docs/rules.md F2). */
  replaces: 'd6' | 'd3';
  base: number;
  /** -4..+4: the dice's sum, or the card's result. */
  result: number;
  /** The four dice thrown ("+", "0", "-"); absent for a card or a forced result. */
  faces?: ('+' | '0' | '-')[];
  /** The card drawn (src/core/fate/deck.ts) and whose deck it came from. */
  card?: number;
  deck?: NationId;
}

/** Fortune or misfortune on a check (docs/rules.md F5): what was drawn or thrown for it and what it added. */
export interface LuckDraw {
  kind: 'fortune' | 'misfortune';
  /** What it adds to the check (negative for misfortune). */
  delta: number;
  /** The d6s thrown for it in a d6 campaign (5–6 help, 1–2 hinder). */
  dice?: number[];
  /** The three helping dice (4dF campaigns). */
  faces?: ('+' | '0' | '-')[];
  card?: number;
  deck?: NationId;
  eclipse?: boolean;
  forced?: boolean;
}

export interface Modifier {
  value: number;
  source: string;
}

export interface UnitRoll {
  unit: UnitId;
  nation: NationId;
  health: Health;
  roll: DieRoll;
  modifiers: Modifier[];
  total: number;
}

export interface BattleSide {
  nation: NationId;
  units: UnitId[];
  rolls: UnitRoll[];
  fateSpent: number;
  fateModifier: number;
  sideModifiers: Modifier[];
  /** Aspects invoked for this side (rules.fate.aspects): +2 each, or a boost's fortune. */
  invokes?: Modifier[];
  /** The side's first dice, when an invoke re-rolled them. */
  firstRolls?: DieRoll[];
  total: number;
}

/** How an invoke was paid: a free invoke, a boost used up, or Fate. */
export type InvokePay = 'free' | 'boost' | 'fate';

export type Casualty = { unit: UnitId; result: 'bloodied' | 'destroyed' };

export type TurnEvent =
  | { type: 'order_rejected'; nations: NationId[]; nation: NationId; index?: number; line?: number; order: string; reason: string }
  /** An order carried out, but not quite as written: a supporter left out, work given up (the receipt's warnings). */
  | { type: 'order_warned'; nations: NationId[]; nation: NationId; index: number; line?: number; order: string; reason: string }
  /**
   * An order accepted in the orders phase that did not happen in the resolution, in whole or in part: a move
   * caught by a pursuer, an attack whose target got away (src/core/unmet.ts has every reason, `why`).
   */
  | { type: 'order_unmet'; nations: NationId[]; nation: NationId; index: number; line?: number; order: string; why: UnmetWhy; reason: string }
  /** No orders from the nation's player; `policy`: a caretaker or civil disorder gave orders in its name. */
  | { type: 'nmr'; nations: NationId[]; nation: NationId; missedTurns: number; policy?: SeatPolicy }
  /** Who plays a silent nation changed: a caretaker or civil disorder took over, or its player is back (`player`), or it holds again (`hold`). */
  | { type: 'seat_changed'; nations: NationId[]; nation: NationId; to: SeatPolicy | 'player' | 'hold'; since?: number }
  | { type: 'resource'; nations: NationId[]; nation: NationId; resource: Resource; delta: number; balance: number; reason: string }
  | { type: 'indicator'; nations: NationId[]; nation: NationId; indicator: Indicator; delta: number; value: number; reason: string }
  | { type: 'build_started'; nations: NationId[]; nation: NationId; build: string; what: string; at: HexKey; turnsLeft: number }
  | { type: 'build_completed'; nations: NationId[]; nation: NationId; build: string; what: string; at: HexKey }
  | { type: 'build_lost'; nations: NationId[]; nation: NationId; build: string; what: string; reason: string }
  /** A unit left work in progress (a build on its site, a siege); `lost` says what went with it. */
  | { type: 'work_abandoned'; nations: NationId[]; nation: NationId; unit: UnitId; work: 'build' | 'siege'; lost: string }
  | { type: 'unit_created'; nations: NationId[]; nation: NationId; unit: UnitId; unitType: string; at: HexKey }
  | { type: 'unit_moved'; nations: NationId[]; unit: UnitId; from: HexKey; to: HexKey; path: HexKey[]; carried?: UnitId[] }
  | { type: 'unit_fled'; nations: NationId[]; unit: UnitId; attacker: UnitId; from: HexKey; to: HexKey; coin?: DieRoll }
  | { type: 'pursuit'; nations: NationId[]; attacker: UnitId; target: UnitId; caught: boolean; reason: string; coin?: DieRoll }
  | { type: 'battle'; nations: NationId[]; battle: string; at: HexKey; kind: 'open' | 'assault'; attacker: BattleSide; defender: BattleSide; winner: 'attacker' | 'defender' | 'draw'; deficit: number; casualties: Casualty[]; overkill: number; external?: ExternalId }
  /** A battle fought as Warfare (docs/rules.md W15–W16): the whole account, exchange by exchange, and every draw. */
  | { type: 'warfare'; nations: NationId[]; battle: string; at: HexKey; attacker: NationId; defender: NationId; winner: 'attacker' | 'defender'; reason: string; exchanges: number; account: string[]; story?: string[]; draws: DieRoll[]; luck?: LuckDraw[]; casualties: Casualty[] }
  | { type: 'attack_cancelled'; nations: NationId[]; unit: UnitId; reason: string }
  | { type: 'unit_health'; nations: NationId[]; unit: UnitId; from: Health | 'alive'; to: Health | 'destroyed'; reason: string }
  | { type: 'unit_rested'; nations: NationId[]; unit: UnitId }
  | { type: 'rest_interrupted'; nations: NationId[]; unit: UnitId; reason: string }
  | { type: 'siege_started'; nations: NationId[]; settlement: SettlementId; besieger: UnitId }
  | { type: 'siege_lifted'; nations: NationId[]; settlement: SettlementId; reason: string }
  | { type: 'siege_roll'; nations: NationId[]; action: 'destroy_battlement' | 'poison_water' | 'sortie'; unit: UnitId; settlement: SettlementId; target: number; roll: DieRoll; modifiers: Modifier[]; fateSpent: number; total: number; successes: number; effects: string[]; firstRoll?: DieRoll }
  | { type: 'battlement_destroyed'; nations: NationId[]; settlement: SettlementId; level: number }
  | { type: 'settlement_captured'; nations: NationId[]; settlement: SettlementId; from: NationId; to: NationId; by: UnitId[] }
  | { type: 'settlement_founded'; nations: NationId[]; nation: NationId; settlement: SettlementId; name: string; at: HexKey }
  | { type: 'settlement_upgraded'; nations: NationId[]; settlement: SettlementId; from: SettlementLevel; to: SettlementLevel }
  | { type: 'external_built'; nations: NationId[]; nation: NationId; external: ExternalId; structure: string; at: HexKey }
  /** An external structure fell to an attack (docs/rules.md X3): it is now the taker's; `battle` names the fight, if one was fought. */
  | { type: 'external_captured'; nations: NationId[]; external: ExternalId; structure: string; at: HexKey; from: NationId; to: NationId; by: UnitId[]; battle?: string }
  /** An external structure razed by an attack (no infantry to take it, or the attacker ordered it destroyed). */
  /** Razed by an attack (`by` the attacker), or by an action's damage (`reason` its name; `by` only when the action names its actor). */
  | { type: 'external_destroyed'; nations: NationId[]; external: ExternalId; structure: string; at: HexKey; nation: NationId; by?: NationId; units: UnitId[]; battle?: string; reason?: string }
  /** An attack on an external structure beaten off: it stays its owner's. */
  | { type: 'external_held'; nations: NationId[]; external: ExternalId; structure: string; at: HexKey; nation: NationId; by: NationId; battle: string }
  | { type: 'goal_completed'; nations: NationId[]; nation: NationId; goal: string }
  | { type: 'nation_fallen'; nations: NationId[]; nation: NationId }
  | { type: 'gm_note'; nations: NationId[]; nation: NationId; text: string }
  | { type: 'heir_named'; nations: NationId[]; nation: NationId; name: string; ability?: string; by: 'player' | 'gm' }
  | { type: 'leader_died'; nations: NationId[]; nation: NationId; name: string; reason: string }
  | { type: 'leader_succeeded'; nations: NationId[]; nation: NationId; name: string; ability?: string; after: string | null }
  | { type: 'leader_vacant'; nations: NationId[]; nation: NationId }
  /** A letter between nations; `nations` are the sender and every recipient. */
  | { type: 'press'; nations: NationId[]; from: NationId; to: NationId[] | 'all'; anonymous: boolean; text: string }
  | { type: 'season'; nations: NationId[]; turn: number; season: string; year: number }
  // The living world (src/core/world, phases/events.ts).
  /** A nation's draw from its events stream; for the log only (nations: []). */
  | { type: 'event_draw'; nations: NationId[]; nation: NationId; draw: number; quiet: DieRoll; quietChance: number; pick?: DieRoll; event?: string; candidates: number }
  | { type: 'event_fired'; nations: NationId[]; nation: NationId; event: string; title: string; text: string; tone: EventTone; scope: EventScope; target?: string; at?: HexKey; how: 'drawn' | 'follow-up' | 'gm'; public?: string }
  | { type: 'event_message'; nations: NationId[]; nation: NationId; event: string; text: string }
  | { type: 'structure_destroyed'; nations: NationId[]; settlement: SettlementId; structure: string; reason: string }
  | { type: 'battlement_damaged'; nations: NationId[]; settlement: SettlementId; from: number; to: number; reason: string }
  | { type: 'resource_revealed'; nations: NationId[]; nation: NationId; hex: HexKey; kind: string; name: string }
  | { type: 'unlocked'; nations: NationId[]; nation: NationId; what: 'unit_type' | 'structure'; id: string; name: string }
  | { type: 'unit_forgone'; nations: NationId[]; nation: NationId; unitType: string; reason: string }
  | { type: 'follow_up_set'; nations: NationId[]; nation: NationId; event: string; turn: number }
  | { type: 'revolt_roll'; nations: NationId[]; nation: NationId; settlement: SettlementId; chance: number; roll: DieRoll; revolted: boolean }
  | { type: 'settlement_revolted'; nations: NationId[]; settlement: SettlementId; from: NationId; to: NationId; garrison: UnitId[] }
  /** A civil war: settlements and the units in them broke away from `from` as the nation in waiting `into` (rules.md L3). */
  | { type: 'civil_war'; nations: NationId[]; from: NationId; into: NationId; leader: string; settlements: SettlementId[]; units: UnitId[]; builds: number; event: string }
  /** An event asks the nation for a roll, answered in the orders of `turn`. */
  | { type: 'roll_asked'; nations: NationId[]; nation: NationId; event: string; title: string; prompt: string; options: { id: string; text: string; beat: number }[]; default: string; turn: number }
  /** The roll made: with the nation's answer, or at the deadline with the default and no Fate. */
  | { type: 'event_roll'; nations: NationId[]; nation: NationId; event: string; title: string; option: string; answered: boolean; beat: number; roll: DieRoll; fateSpent: number; modifier: number; total: number; outcome: RollOutcome; invokes?: Modifier[]; firstRoll?: DieRoll }
  /** A unit searched its surroundings for hidden resources (the find, if any, follows as resource_revealed). */
  | { type: 'explore_roll'; nations: NationId[]; nation: NationId; unit: UnitId; at: HexKey; beat: number; roll: DieRoll; fateSpent: number; modifier: number; luck?: number; total: number; found: boolean }
  | { type: 'task_set'; nations: NationId[]; nation: NationId; task: string; event: string; title: string; text: string; deadline: number }
  | { type: 'task_met'; nations: NationId[]; nation: NationId; task: string; title: string; how: string }
  | { type: 'task_missed'; nations: NationId[]; nation: NationId; task: string; title: string; why: string }
  // Units' actions (actions.yaml, phases/actions.ts).
  /** A unit took an action: its roll (none for an action without one), the target's defences summed; `void` says why it came to nothing. */
  | { type: 'action_taken'; nations: NationId[]; nation: NationId; unit: UnitId; action: string; name: string; target: string; at: HexKey; beat?: number; roll?: DieRoll; modifiers: Modifier[]; fateSpent: number; total?: number; outcome?: RollOutcome; void?: string }
  /** What a spy's success bought: for its own nation's eyes only. */
  | { type: 'secret_learned'; nations: NationId[]; nation: NationId; about?: NationId; action: string; what: string; text: string }
  /** The target's nation learns that something was done to it (and, if `by`, by whom). */
  | { type: 'action_noticed'; nations: NationId[]; nation: NationId; action: string; name: string; place: string; at: HexKey; outcome: RollOutcome; by?: NationId }
  /** A sabotage or bombardment set work in progress back. */
  | { type: 'work_delayed'; nations: NationId[]; nation: NationId; build: string; what: string; by: number; turnsLeft: number; reason: string }
  /** The target of an action tried to catch the unit that took it. */
  | { type: 'catch_roll'; nations: NationId[]; nation: NationId; unit?: UnitId; action: string; place: string; beat: number; roll: DieRoll; caught: boolean; /** The target's `hunt spies fate N` (rules.md D2). */ fateSpent?: number; modifiers?: Modifier[]; total?: number }
  /** The target's `let spies go`: no catch roll, the agent goes free (rules.md D2). */
  | { type: 'catch_waived'; nations: NationId[]; nation: NationId; unit?: UnitId; action: string; place: string }
  | { type: 'trade_route_opened'; nations: NationId[]; route: string; from: SettlementId; to: SettlementId; income: number }
  | { type: 'trade_route_cut'; nations: NationId[]; route: string; from: SettlementId; to: SettlementId; reason: string }
  // The Fate layer (src/core/aspects, rules.fate.aspects).
  /** An aspect came into play, or gained free invokes (`refreshed`). `place` is in words. */
  | { type: 'aspect_created'; nations: NationId[]; aspect: string; place: string; owner?: NationId; backfired?: NationId; free: number; boost: boolean; secret: boolean; by: 'gm' | 'event' | 'order'; refreshed: boolean }
  | { type: 'aspect_removed'; nations: NationId[]; aspect: string; place: string; reason: string }
  /** A create-advantage or overcome roll: 4dF (from d3s) + skill against the difficulty. */
  | { type: 'aspect_roll'; nations: NationId[]; nation: NationId; action: 'create_advantage' | 'overcome'; aspect: string; by: string; dice: DieRoll[]; faces: number[]; skill: number; luck?: number; difficulty: number; total: number; shifts: number; outcome: FateOutcome }
  /** One invoke of an aspect on a roll, with what it cost and whom it paid. */
  | { type: 'aspect_invoked'; nations: NationId[]; nation: NationId; aspect: string; roll: string; effect: 'plus2' | 'reroll' | 'fortune'; value: number; pay: InvokePay; cost: number; paidTo?: NationId; freeLeft: number; fortune?: DieRoll[]; luck?: LuckDraw; for?: NationId; against?: NationId }
  /** A create-advantage or overcome order that could not be rolled (its actor or aspect gone), and why. */
  | { type: 'aspect_action_void'; nations: NationId[]; nation: NationId; action: 'create_advantage' | 'overcome'; aspect: string; reason: string }
  /** An invoke ordered but not made, and why (nothing was spent). */
  | { type: 'invoke_unused'; nations: NationId[]; nation: NationId; aspect: string; roll: string; reason: string }
  /** Fortune or misfortune from a nation's helpful or hindering aspects on one of its rolls (docs/rules.md A8). */
  | { type: 'aspect_luck'; nations: NationId[]; nation: NationId; roll: string; kind: 'fortune' | 'misfortune'; aspects: string[]; draws: LuckDraw[]; value: number }
  /** A compel offered: the nation answers next turn (docs/rules.md A9). */
  | { type: 'compel_offered'; nations: NationId[]; nation: NationId; id: string; aspect: string; text: string; by: 'gm' | 'event'; turn: number; cost: number }
  /** A compel the aspect named is not there for (no such aspect of the nation's in play): nothing is offered; the GM's log says why. */
  | { type: 'compel_void'; nations: NationId[]; nation: NationId; id: string; aspect: string; reason: string }
  /** A compel answered (or not, and so accepted): accepted for a fate point, or refused for one. */
  | { type: 'compel_answered'; nations: NationId[]; nation: NationId; id: string; aspect: string; text: string; accepted: boolean; answered: boolean; reason?: string }
  /** What a nation's commanders did with the Fate it pledged on a Warfare battle (docs/rules.md W20): told to that nation alone. */
  | { type: 'warfare_fate'; nations: NationId[]; nation: NationId; battle: string; at: HexKey; pledged: number; pool: number; spent: number; invokes: number }
  /** Something the player wrote that did not apply where it met (a loss order in a Warfare battle, a plan with no Warfare battle). */
  | { type: 'order_not_applied'; nations: NationId[]; nation: NationId; what: string; reason: string };

/** The four outcomes (seed 002 "Four Outcomes"). */
export type FateOutcome = 'fail' | 'tie' | 'success' | 'style';

/** An event as written to events.yaml: numbered in resolution order, with its phase. */
export type LoggedEvent = TurnEvent & { seq: number; phase: string };
