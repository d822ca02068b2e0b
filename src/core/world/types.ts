import type { SettlementLevel, UnitClass } from '../campaign.js';
import type { HexKey } from '../ids.js';
import type { Health, LuckSkill } from '../state.js';

/**
 * The living world's vocabulary: conditions and effects a GM writes as data
 * (the event catalogue today; actions, abilities and rewards later), read by
 * one evaluator (conditions.ts) and one interpreter (effects.ts).
 */

/** What an event happens to: the nation itself, or one of its settlements, units or hexes. */
export const EVENT_SCOPES = ['nation', 'settlement', 'unit', 'hex'] as const;
export type EventScope = (typeof EVENT_SCOPES)[number];

export const EVENT_TONES = ['good', 'bad', 'neutral'] as const;
export type EventTone = (typeof EVENT_TONES)[number];

export interface Range {
  min?: number;
  max?: number;
}

/** Whose units a units_near condition counts. */
export type Whose = 'own' | 'foreign' | 'any';

export type Condition =
  | { kind: 'prosperity'; range: Range }
  | { kind: 'happiness'; range: Range }
  | { kind: 'renown'; range: Range }
  | { kind: 'fate'; range: Range }
  | { kind: 'season'; seasons: string[] }
  /** The nation is one of these (for entries written for some nations only). */
  | { kind: 'nation'; nations: string[] }
  | { kind: 'turn'; range: Range }
  /** Nation scope: owns a settlement of this level; settlement scope: the settlement is of it. */
  | { kind: 'has_level'; level: SettlementLevel }
  | { kind: 'lacks_level'; level: SettlementLevel }
  /** Nation scope: any settlement holds it; settlement scope: this one does. */
  | { kind: 'has_structure'; structure: string }
  | { kind: 'lacks_structure'; structure: string }
  /** How many battlements the settlement has (nation scope: any of its settlements), so walls cracked are walls there. */
  | { kind: 'battlements'; range: Range }
  /** `types`: unit type ids, any of which counts (a spymaster near the actor). */
  | { kind: 'units_near'; within: number; whose: Whose; class?: UnitClass; types?: string[]; min: number }
  /** The event's unit is of this health (a settlement's or hex's: one of the nation's units there; a nation's: any of its units). */
  | { kind: 'health'; health: Health }
  | { kind: 'terrain_near'; terrain: string; within: number }
  | { kind: 'at_war'; value: boolean }
  | { kind: 'captured'; value: boolean }
  | { kind: 'goal'; goal: string; done: boolean }
  /** An earlier event of this nation happened (within the last N turns), or not. */
  | { kind: 'happened'; event: string; within?: number; value: boolean }
  /** One of the nation's units stands on this hex (of the class, if named). */
  | { kind: 'unit_at'; hex: HexKey; class?: UnitClass }
  /** The nation holds this settlement. */
  | { kind: 'holds_settlement'; settlement: string }
  /** The nation owns an external structure of this type (a mine, a dig site). */
  | { kind: 'has_external'; structure: string }
  | { kind: 'all'; of: Condition[] }
  | { kind: 'any'; of: Condition[] }
  | { kind: 'not'; of: Condition };

export type ConditionKind = Condition['kind'];

/** When a new unit would break the cap: do without it, or replace the weakest unit of its kind. */
export type AtCap = 'forgo' | 'replace';

export type Effect =
  | { kind: 'renown'; amount: number }
  | { kind: 'fate'; amount: number }
  | { kind: 'prosperity'; amount: number }
  | { kind: 'happiness'; amount: number }
  | { kind: 'unit_lost'; class?: UnitClass }
  | { kind: 'unit_bloodied'; class?: UnitClass }
  /** A unit of a named type, or the nation's cheapest ordinary type of a class (no special structure, not locked). */
  | { kind: 'unit_gained'; unitType?: string; class?: UnitClass; atCap: AtCap; name?: string }
  | { kind: 'structure_destroyed'; structure?: string }
  | { kind: 'battlement_damaged' }
  | { kind: 'battlement_destroyed' }
  | { kind: 'resource_revealed'; within: number; resourceKind?: string }
  | { kind: 'unlock'; unitType?: string; structure?: string }
  | { kind: 'revolt' }
  /**
   * Civil war (rules.md L3): settlements of the struck nation (the `settlements` farthest from its capital, or
   * those named), with its units standing in them and the work under way there, break away as the nation in
   * waiting `into` (campaign.yaml `breaksFrom`). Its Prosperity and Happiness: the old nation's unless given.
   */
  | { kind: 'civil_war'; into: string; settlements: number | string[]; prosperity?: number; happiness?: number }
  | { kind: 'follow_up'; event: string; in: number }
  /** Sets a timed task (a catalogue's `task`, by id): the nation has `turns` turns to meet it. */
  | { kind: 'task'; task: string }
  | { kind: 'message'; text: string }
  /**
   * A Fate aspect placed where the event struck (the nation, its settlement,
   * unit or hex region; rules.fate.aspects). Its free invokes are the nation's
   * (`for: nation`) or anyone's (`for: anyone`: a misfortune others may use).
   */
  | { kind: 'aspect'; name: string; free: number; for: 'nation' | 'anyone'; boost?: true; secret?: true; helps?: LuckSkill; hinders?: LuckSkill }
  /**
   * A compel (seed 002 "Compelling Aspects"; docs/rules.md A9): the nation's
   * aspect `aspect` makes a complication (`text`) fitting; it answers in next
   * turn's orders — accept for a fate point, and the complication happens
   * (`then`: a catalogue event befalls it), or pay one to refuse.
   */
  | { kind: 'compel'; aspect: string; text: string; then?: string };

export type EffectKind = Effect['kind'];

/** A condition that scales an event's weight while it holds (grand-strategy `modifier` blocks). */
export interface WeightModifier {
  factor: number;
  when: Condition;
}

export interface EventDef {
  id: string;
  title: string;
  /** With {nation}, {leader}, {settlement}, {unit} and {hex} filled in. */
  text: string;
  scope: EventScope;
  tone: EventTone;
  weight: number;
  conditions: Condition[];
  modifiers: WeightModifier[];
  effects: Effect[];
  /** At most once per nation in a campaign. */
  once: boolean;
  /** Only as a follow-up or injected by the GM, never drawn. */
  drawn: boolean;
  /** A rumour every nation hears, worded without secrets. */
  public?: string;
  /** The roll the event asks of the nation, answered in next turn's orders. */
  roll?: RollDef;
}

/** The three rows of a roll's outcome table. */
export const ROLL_OUTCOMES = ['fail', 'success', 'great'] as const;
export type RollOutcome = (typeof ROLL_OUTCOMES)[number];

/** One way to meet a roll: a d6 (plus Fate) against a number to beat, with its own outcome table. */
export interface RollOption {
  id: string;
  /** What choosing it means, for the report. */
  text: string;
  /** The total must be above this. */
  beat: number;
  /** `great` when the total reaches beat + 1 + greatBy (a siege's extra action: rules S3). */
  greatBy: number;
  /** Effects by outcome; a missing `great` is a `success`. */
  outcomes: Partial<Record<RollOutcome, Effect[]>>;
}

export interface RollDef {
  /** The question put to the player, e.g. "Will you ride out, or pay them off?" (names filled in). */
  prompt: string;
  /** One option (written without `options`: its id is "roll") or a choice among several. */
  options: RollOption[];
  /** Taken when the player does not answer. */
  default: string;
}

/**
 * A timed task: met when its conditions hold (by the deadline; with `hold`,
 * at every check up to it) or, with `pay`, when the nation pays with an
 * `answer <task>` order; its effects follow either way.
 */
export interface TaskDef {
  id: string;
  /** What the nation is asked to do, for the report (names filled in). */
  text: string;
  turns: number;
  conditions: Condition[];
  /** Met only if the conditions hold at every check until the deadline (a place held), not as soon as they do. */
  hold: boolean;
  /** Renown the nation pays with `answer <task>` to meet it. */
  pay?: number;
  onMet: Effect[];
  onMissed: Effect[];
}

/** The campaign's knobs for random events and rebellion; docs/rules.md gives their sources. */
export interface EventSettings {
  /** Draws per nation per turn. */
  draws: number;
  /** Percent chance that a draw brings nothing. */
  quiet: number;
  /** Good events' weight is multiplied by mood^(Prosperity + Happiness), bad ones' by mood^-(P + H). */
  mood: number;
  rebellion: RebellionSettings;
  explore: ExploreSettings;
}

/** A unit's search for hidden resources (the `explore` order). */
export interface ExploreSettings {
  /** d6 + Fate must beat this to find something. */
  beat: number;
  /** How far from the unit's hex a find may lie. */
  within: number;
}

export interface RebellionSettings {
  enabled: boolean;
  /** Settlements risk revolt while Happiness is at or below this. */
  happinessAtOrBelow: number;
  /** Percent risk at the threshold. */
  base: number;
  /** Percent added per point of Happiness below the threshold and per point of negative Prosperity. */
  step: number;
  /** The nation revolted settlements pass to (declared in campaign.yaml as a nation). */
  nation?: string;
  /** Units raised in a revolted settlement, of the rebels' unit type. */
  garrison: { unitType?: string; count: number };
}

export interface EventCatalogue {
  settings: EventSettings;
  entries: Record<string, EventDef>;
  /** Every `task` the entries' effects set, by id. */
  tasks: Record<string, TaskDef>;
  /** The file it came from, for messages. */
  source?: string;
}

export const DEFAULT_EVENT_SETTINGS: EventSettings = {
  draws: 1,
  quiet: 50,
  mood: 1.25,
  rebellion: { enabled: false, happinessAtOrBelow: -2, base: 10, step: 10, garrison: { count: 1 } },
  explore: { beat: 3, within: 1 },
};

/** Where an event landed: its nation and, by scope, a settlement, unit or hex. */
export type EventTarget =
  | { scope: 'nation' }
  | { scope: 'settlement'; id: string; hex: HexKey }
  | { scope: 'unit'; id: string; hex: HexKey }
  | { scope: 'hex'; hex: HexKey };

/** A roll an event asked of a nation, rolled in the `turn` its answer is due (the turn after it was asked). */
export interface PendingRoll {
  event: string;
  turn: number;
  target: EventTarget;
}

/** A compel offered to a nation, answered with next turn's orders (docs/rules.md A9). */
export interface PendingCompel {
  /** The answer names it: `answer <id> accept|refuse`. */
  id: string;
  aspect: string;
  text: string;
  /** The catalogue event that befalls the nation if it accepts. */
  then?: string;
  turn: number;
  target: EventTarget;
}

/** A timed task under way: checked each turn after it was set, up to its deadline. */
export interface PendingTask {
  task: string;
  /** The event that set it. */
  event: string;
  title: string;
  text: string;
  set: number;
  deadline: number;
  target: EventTarget;
}

/** A past event of a nation, kept in its state for `happened` conditions and follow-ups. */
export interface EventRecord {
  event: string;
  turn: number;
}
