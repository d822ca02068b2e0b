import type { HexKey, NationId, SettlementId, UnitId } from './ids.js';
import type { RuleSettings } from './settings.js';
import type { ActionCatalogue } from './world/action-types.js';
import type { CaretakerCatalogue } from './caretaker/types.js';
import type { Effect, EventCatalogue } from './world/types.js';

/**
 * The static side of a campaign: everything in campaign.yaml that the engine
 * reads but never changes (map, catalogues, nations' identities, rule knobs).
 * The changing side lives in GameState.
 */

export const UNIT_CLASSES = ['infantry', 'cavalry', 'siege', 'naval', 'diplomatic'] as const;
export type UnitClass = (typeof UNIT_CLASSES)[number];
export const isMilitaryClass = (c: UnitClass): boolean => c !== 'diplomatic';

export const SETTLEMENT_LEVELS = ['village', 'town', 'city', 'capital'] as const;
export type SettlementLevel = (typeof SETTLEMENT_LEVELS)[number];

/** Where a circumstantial bonus applies: open field, or siege/assault of a settlement. */
export type Situation = 'open' | 'siege';

/**
 * A combat modifier. Without `vs` it is global (always applies); with `vs` it is
 * circumstantial and applies when some opposing unit matches (or, for
 * `structure`, when attacking battlements and settlements).
 */
export interface Bonus {
  value: number;
  vs?: BonusTarget;
  situation?: Situation;
  label?: string;
}

export interface BonusTarget {
  classes?: (UnitClass | 'structure')[];
  affiliation?: string;
}

export interface UnitType {
  id: string;
  name: string;
  class: UnitClass;
  speed: number;
  affiliation: string;
  bonuses: Bonus[];
  /** Special units are built only in home settlements holding this structure. */
  requiresStructure?: string;
  /** Renown cost override; otherwise class cost + bonusCost per point of bonus. */
  cost?: number;
  /** Diplomatic units that may found settlements. */
  canFound?: boolean;
  /** External structure ids this unit may construct. */
  canConstruct?: string[];
  /** Land units a naval unit can carry. */
  capacity?: number;
  /** Built only once an event has unlocked it for the nation ("technology"). */
  locked?: boolean;
}

export interface Yield {
  renown?: number;
  fate?: number;
  prosperity?: number;
  happiness?: number;
}

/** A structure built inside a settlement. */
export interface StructureType {
  id: string;
  name: string;
  cost: number;
  turns: number;
  /** Bonus granted to units built here (circumstantial) or to every unit of the nation (global). */
  grants?: { scope: 'circumstantial' | 'global'; bonus: Bonus; classes: UnitClass[] };
  /** Indicator change once, when completed. */
  onComplete?: Yield;
  perTurn?: Yield;
  /** Lightens the indicator tax of the settlement holding it (settlement-tax.ts; captured ones only with captureTaxRelief). */
  taxRelief?: number;
  extraBuilds?: { military?: number; diplomatic?: number };
  /** Built only once an event has unlocked it for the nation ("technology"). */
  locked?: boolean;
  /** Actions of actions.yaml a nation may take only while it holds one of the structures listing them (docs/rules.md X6). */
  unlocksActions?: string[];
}

/** A structure out in the world (mine, dig site), built by a diplomatic unit's action. */
export interface ExternalType {
  id: string;
  name: string;
  cost: number;
  turns: number;
  /** The hex must carry this resource (e.g. silver). */
  requiresResource?: string;
  onComplete?: Yield;
  perTurn?: Yield;
  /** More units a turn in the owner's settlement nearest to it (docs/rules.md X5). */
  extraBuilds?: { military?: number; diplomatic?: number };
  /** Actions it unlocks for its owner, as a settlement structure's (docs/rules.md X6). */
  unlocksActions?: string[];
}

export interface Resource {
  hex: HexKey;
  kind: string;
  name: string;
}

export interface MapDefinition {
  width: number;
  height: number;
  /** terrain id per hex, row-major (index = row * width + col). */
  terrain: string[];
  resources: Resource[];
  /** Resources nobody sees until an event reveals them to a nation. */
  hiddenResources?: Resource[];
  /** Named places players can use instead of coordinates. */
  places: Record<string, HexKey>;
}

export type GoalCondition =
  | { kind: 'gm' }
  | { kind: 'hold_settlements'; count: number }
  | { kind: 'control_hex'; hex: HexKey }
  | { kind: 'build_external'; structure: string }
  | { kind: 'win_battles'; count: number }
  | { kind: 'capture_settlement'; settlement?: SettlementId };

export interface Goal {
  id: string;
  text: string;
  condition: GoalCondition;
  reward: Yield;
  /** Further rewards in the living world's vocabulary: units, unlocks, discoveries, messages. */
  effects?: Effect[];
}

/**
 * A leader's ability as data (rules.md L1): bonuses for the nation's units of
 * some classes (the shape of a global structure grant), Renown off or on its
 * builds, and income each turn. `text` is the flavour the reports print.
 */
export interface Ability {
  id: string;
  name: string;
  text?: string;
  bonuses?: { bonus: Bonus; classes: UnitClass[] }[];
  costs?: { of: 'unit' | 'structure'; classes?: UnitClass[]; change: number }[];
  income?: Yield;
  /** Added to the rolls of the nation's units' actions (all, or those named). */
  actions?: { value: number; actions?: string[] }[];
}

export interface NationDefinition {
  id: NationId;
  name: string;
  leader: string;
  /** Free text: the start sheet's flavour. */
  ability: string;
  /** The ability the engine applies (campaign.yaml `abilities`). */
  leaderAbility?: string;
  /** The start unit the leader rides with: the leader dies when it is destroyed. */
  leaderUnit?: UnitId;
  unitTypes: Record<string, UnitType>;
  caps: { military: number; diplomatic: number };
  goals: Goal[];
  /** The independents risen settlements pass to: sends no orders, never falls. */
  rebels?: boolean;
  /** A nation in waiting: out of play until a `civil_war` effect splits it off this nation (rules.md L3). */
  breaksFrom?: NationId;
  /** Names for units raised without one, taken in order (unit-name.ts nameForRaised). */
  unitNames?: string[];
}

export interface Calendar {
  seasons: string[];
  startYear: number;
}

export interface Campaign {
  name: string;
  title: string;
  seed: string;
  calendar: Calendar;
  map: MapDefinition;
  nations: Record<NationId, NationDefinition>;
  structures: Record<string, StructureType>;
  externals: Record<string, ExternalType>;
  rules: RuleSettings;
  /** The event catalogue (events.yaml beside campaign.yaml); none means no random events. */
  events?: EventCatalogue;
  /** The units' actions (actions.yaml, over the built-in ones); none: no unit may act. */
  actions?: ActionCatalogue;
  /** Who plays a silent player's nation (caretakers.yaml, over the built-in ones; docs/events.md "Caretakers"). */
  caretakers?: CaretakerCatalogue;
  /** Leaders' abilities by id. */
  abilities: Record<string, Ability>;
  /** The abilities an heir may bring (default: every ability). */
  succession: { abilities: string[] };
}

/**
 * The nations players play, in id order: every nation but the rebels (the
 * GM's independents, who send no orders and get no reports by mail).
 */
export function playedNations(campaign: Pick<Campaign, 'nations'>): NationId[] {
  return (Object.keys(campaign.nations) as NationId[]).filter((id) => !campaign.nations[id]?.rebels).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
