import type { Bonus, SettlementLevel } from './campaign.js';
import type { ExternalId, HexKey, NationId, SettlementId, UnitId } from './ids.js';
import type { SeatPolicy } from './orders.js';
import type { TradeRoute } from './world/action-types.js';
import type { EventRecord, EventTarget, PendingCompel, PendingRoll, PendingTask } from './world/types.js';

/**
 * The changing side of a campaign: one snapshot per resolved turn
 * (turns/NNNN/state.yaml). Records are keyed by id; writers sort keys so the
 * file is stable and diffable.
 */
export type Health = 'healthy' | 'bloodied';

export interface UnitState {
  id: UnitId;
  nation: NationId;
  type: string;
  name?: string;
  hex: HexKey;
  health: Health;
  /** Bonuses bought at build time on top of the type's own. */
  extraBonuses?: Bonus[];
  /** Naval unit carrying it, while at sea. */
  aboard?: UnitId;
  /** Settlement this unit is besieging (locks it in place). */
  besieging?: SettlementId;
  /** Turn the unit was completed, for reports. */
  builtTurn?: number;
}

export interface SettlementState {
  id: SettlementId;
  name: string;
  nation: NationId;
  level: SettlementLevel;
  hex: HexKey;
  /** A home settlement was the nation's own (start sheet or founded), not captured. */
  home: boolean;
  /** Captured settlements pay full tax, without structure relief. */
  captured: boolean;
  structures: string[];
  /** Bonus of each battlement, e.g. [1, 2]. */
  battlements: number[];
  /** Turn the nation gained it (founded, captured or risen); absent for start sheets. */
  gainedTurn?: number;
  /** The nation whose own (home) settlement this was until it was taken; cleared when that nation takes it back. */
  takenFrom?: NationId;
}

export interface ExternalState {
  id: ExternalId;
  type: string;
  nation: NationId;
  hex: HexKey;
  /** The nation that built it, once another has captured it (goals count what a nation built; docs/rules.md X4). */
  builtBy?: NationId;
}

export type Project =
  | { kind: 'unit'; unitType: string; name?: string; extraBonuses?: Bonus[] }
  | { kind: 'structure'; structure: string }
  | { kind: 'battlement'; level: number }
  | { kind: 'upgrade'; to: SettlementLevel }
  | { kind: 'settlement'; settlementId: SettlementId; name: string }
  | { kind: 'external'; externalId: ExternalId; structure: string };

/** Work paid for and under way; completes when turnsLeft reaches 0. */
export interface BuildState {
  id: string;
  nation: NationId;
  hex: HexKey;
  /** The settlement building it, when built inside one. */
  settlement?: SettlementId;
  /** The diplomatic unit doing the work, for settlements and externals. */
  builder?: UnitId;
  project: Project;
  turnsLeft: number;
  startedTurn: number;
}

export interface GoalProgress {
  id: string;
  done: boolean;
  doneTurn?: number;
}

export interface NationState {
  id: NationId;
  renown: number;
  fate: number;
  prosperity: number;
  happiness: number;
  goals: GoalProgress[];
  battlesWon: number;
  /** Consecutive turns without orders. */
  missedTurns: number;
  /** Counter for new unit ids, so ids never repeat. */
  unitSeq: number;
  /** False once the nation holds no settlement and no unit. */
  alive: boolean;
  /** Events that befell the nation, oldest first (written only once there is one). */
  history?: EventRecord[];
  /** Follow-up events waiting for their turn. */
  followUps?: FollowUp[];
  /** Unit types and structures the campaign marks `locked`, unlocked by events. */
  unlocked?: { unitTypes?: string[]; structures?: string[] };
  /** Hidden map resources this nation has found. */
  revealed?: HexKey[];
  /** Rolls events asked of the nation, awaiting its answer. */
  rolls?: PendingRoll[];
  /** Compels offered to the nation, awaiting its answer (docs/rules.md A9). */
  compels?: PendingCompel[];
  /** Timed tasks under way. */
  tasks?: PendingTask[];
  /** The leader since the first succession (before it, the campaign's); name null: no one rules. */
  leader?: LeaderState;
  /** The heir the player named, who takes over when the leader dies. */
  heir?: { name: string; ability?: string };
  /** Who plays the nation while its player is silent (a caretaker, or civil disorder), since which turn. */
  seat?: { policy: SeatPolicy; since: number };
  /**
   * The nation's Deck of Fate (campaigns with `rules.fate.randomiser: deck`):
   * the cards (ids 0..80, src/core/fate/deck.ts) in its discard pile; the
   * draw pile is every other card. Absent: a full deck.
   */
  deck?: { discards: number[] };
}

export interface LeaderState {
  name: string | null;
  ability?: string;
  unit?: UnitId;
  since: number;
}

export interface FollowUp {
  event: string;
  turn: number;
  target: EventTarget;
}

export interface GameState {
  /** The last resolved turn; 0 is the starting position. */
  turn: number;
  nations: Record<NationId, NationState>;
  units: Record<UnitId, UnitState>;
  settlements: Record<SettlementId, SettlementState>;
  externals: Record<ExternalId, ExternalState>;
  builds: BuildState[];
  /** Counter for ids of settlements, externals and builds. */
  seq: number;
  /** Open trade routes between settlements (actions.yaml `trade_route`); written only once there is one. */
  tradeRoutes?: TradeRoute[];
  /** Fate aspects in play (rules.fate.aspects); absent while there are none. */
  aspects?: AspectState[];
}

/**
 * Where an aspect sits: on a nation, a settlement, a unit, or a region of the
 * map (a hex and the hexes within `radius` of it).
 */
/**
 * The skills a helpful or hindering aspect may work on (seed 000 line 82:
 * "each aspect only works with one particular skill"): a nation's rolls of
 * the Fatecraft rules — `battle` (its side of a battle or an assault),
 * `siege` (siege actions and sorties), `roll` (its answers to events),
 * `explore`, `advantage` (create advantage and overcome) — and the Warfare
 * skills its commanders and units check (docs/rules.md A8, W20).
 */
export const LUCK_SKILLS = ['battle', 'siege', 'roll', 'explore', 'advantage', 'fighting', 'marksmanship', 'armor', 'lore', 'tactics', 'athletics'] as const;
export type LuckSkill = (typeof LUCK_SKILLS)[number];

export type AspectPlace = { nation: NationId } | { settlement: SettlementId } | { unit: UnitId } | { hex: HexKey; radius?: number };

/**
 * A Fate aspect (seed 002 "Aspect Types", seed 000 "Aspects"): a readable
 * name on a place, with the free invokes its owner may spend. A boost is
 * gone after one use. A secret aspect is seen by its owner only (no owner:
 * by the nation it sits on), and by the GM.
 */
export interface AspectState {
  name: string;
  on: AspectPlace;
  /** The nation whose free invokes these are; absent: anyone's (the GM's or the world's aspect). */
  owner?: NationId;
  /**
   * A failed create advantage brought it into play (seed 000 line 107): its
   * free invokes are anyone's but this nation's, the one whose attempt backfired.
   */
  backfired?: NationId;
  /**
   * A helpful or hindering aspect (seed 000 lines 81–83): free fortune, or
   * misfortune, on its holder's checks of one skill (LUCK_SKILLS), with no
   * fate point or free invoke spent.
   */
  helps?: string;
  hinders?: string;
  free: number;
  boost?: true;
  secret?: true;
  /** The turn it came into play. */
  since: number;
}
