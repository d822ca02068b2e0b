import type { UnitClass } from '../campaign.js';
import type { Condition, Effect, RollOutcome } from './types.js';

/**
 * Actions a unit takes instead of moving (rules: diplomatic units spy,
 * sabotage, spread religion and trade; special units have unique actions),
 * written as data in actions.yaml over the living world's one vocabulary:
 * who may take it, what it aims at and how far, a roll, and the effects of
 * each outcome on the acting side and on the target's side.
 */
export const ACTION_TARGETS = ['nation', 'settlement', 'hex', 'unit', 'route', 'structure'] as const;
/** `route`: two settlements, the first within range (a trade route between them); `structure`: an external structure (a mine, a dig site), measured to its hex. */
export type ActionTargetKind = (typeof ACTION_TARGETS)[number];

/** Whose target an action may aim at. */
export type ActionWhose = 'own' | 'foreign' | 'any';

/** What a successful spy may learn of the target (the `reveal` effect). */
export const SECRETS = ['renown_fate', 'units', 'work', 'goal'] as const;
export type Secret = (typeof SECRETS)[number];

/** The effects only an action has: they need both sides, the actor and the target. */
export type ActionEffect =
  | Effect
  /** The acting nation learns a secret of the target's nation, in its own report only. */
  | { kind: 'reveal'; what: Secret; within: number }
  /** Sabotage or bombardment: the aimed-at structure destroyed, battlement damaged, or work delayed `delay` turns; an external structure aimed at is razed. */
  | { kind: 'damage'; delay: number }
  /** A trade route opens between the two settlements of a `route` action. */
  | { kind: 'trade_route' }
  /** The target rolls at once to catch the acting unit (a d6 from `catch:<nation>:<unit>` above `beat`): caught, it is destroyed. */
  | { kind: 'catch'; beat: number };

/** The effects of one outcome, on each side. */
export interface ActionOutcome {
  /** On the acting nation (a unit effect falls on the acting unit). */
  actor: ActionEffect[];
  /** On the target's nation, at the target's place. */
  target: ActionEffect[];
}

/** A modifier to an action's roll while a condition holds, seen from the target (its defences) or from the actor. */
export interface ActionModifier {
  value: number;
  when: Condition;
  of: 'target' | 'actor';
  /** Words for the report; the target's modifiers are shown summed, never by name (they are its secrets). */
  label?: string;
}

export interface ActionRoll {
  /** The total (d6 + Fate + modifiers) must be above this. */
  beat: number;
  /** `great` when the total reaches beat + 1 + greatBy. */
  greatBy: number;
  modifiers: ActionModifier[];
}

export interface ActionDef {
  id: string;
  name: string;
  /** How a plain-text order names it after the unit: "spies on", "sabotages". */
  verb: string;
  /** Unit classes and unit types that may take it (either fits). */
  units: { classes: UnitClass[]; types: string[] };
  /** What it may aim at; a name in an order is tried as each, in this order. */
  targets: ActionTargetKind[];
  whose: ActionWhose;
  /** Hexes from the acting unit to the target (a nation: its nearest settlement or unit). */
  range: number;
  /** For a route: the most hexes between its two settlements. */
  length: number;
  /** Absent: the action always succeeds. */
  roll?: ActionRoll;
  outcomes: Partial<Record<RollOutcome, ActionOutcome>>;
  /** Outcomes after which the target's nation is told something was done to it. */
  noticed: RollOutcome[];
  /** Outcomes after which it is also told by whom. */
  named: RollOutcome[];
  /** Renown the route pays each of its two nations each turn (route actions). */
  income: number;
}

export interface ActionCatalogue {
  entries: Record<string, ActionDef>;
  source?: string;
}

/** An open trade route between two settlements, kept in the state until it is cut. */
export interface TradeRoute {
  id: string;
  from: string;
  to: string;
  /** The action that opened it (its income). */
  action: string;
  opened: number;
}
