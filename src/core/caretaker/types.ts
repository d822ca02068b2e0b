import type { UnitClass } from '../campaign.js';
import type { Condition } from '../world/types.js';

/**
 * A caretaker: what plays a nation whose player is silent (or a nation nobody
 * joined), written as data over the living world's vocabulary
 * (docs/events.md, "Caretakers"). It is a list of steps in priority order, in
 * the shape of Wesnoth's candidate actions: each step takes the units the
 * steps above it left free and gives them orders; a step runs only while its
 * conditions hold (`when`, at the nation; `where`, at each settlement a
 * settlement step looks at) and, with `chance`, when the caretaker's own d100
 * comes up. The orders go through the same checker as a player's.
 */
export const CARETAKER_STEPS = ['keep_work', 'defend', 'garrison', 'retake', 'raise', 'rest'] as const;
export type CaretakerStepKind = (typeof CARETAKER_STEPS)[number];

interface StepCommon {
  /** Conditions at the nation, all of which must hold for the step to run. */
  when: Condition[];
  /** Percent chance the step runs this turn (the caretaker's own d100); absent: always. */
  chance?: number;
}

export type CaretakerStep =
  /** Units building a settlement or an external structure, and besiegers, stay at their work. */
  | (StepCommon & { kind: 'keep_work' })
  /**
   * At each of the nation's settlements where `where` holds (by default: a foreign unit seen within 2
   * hexes), its military units hold and the first pledges `fate` Fate; with `support`, free units that can
   * reach it stand ready to defend it, up to the rules' defenders of a settlement.
   */
  | (StepCommon & { kind: 'defend'; where: Condition[]; fate: number; support: boolean })
  /** Every settlement keeps one military unit: the nearest free land unit that can reach an empty one moves in. */
  | (StepCommon & { kind: 'garrison'; where: Condition[] })
  /**
   * A settlement that was the nation's own and another took (seen): free units that can reach it attack it
   * with support and `fate` Fate, when at least `min` of them can (or it stands undefended and one is infantry).
   * The only attack a caretaker makes: it never starts a war.
   */
  | (StepCommon & { kind: 'retake'; where: Condition[]; min: number; fate: number })
  /** Raises units up to the nation's caps, by class in the order given (its cheapest ordinary type), keeping `keep` Renown. */
  | (StepCommon & { kind: 'raise'; classes: UnitClass[]; keep: number })
  /** Bloodied units left free rest to heal. */
  | (StepCommon & { kind: 'rest' });

export interface CaretakerDef {
  id: string;
  /** How reports name it ("a steward"). */
  name: string;
  steps: CaretakerStep[];
}

export interface CaretakerCatalogue {
  entries: Record<string, CaretakerDef>;
  /** The file it was read from; absent: the built-in caretakers. */
  source?: string;
}

/** The built-in caretakers' ids: the one that keeps a silent nation, and civil disorder's. */
export const DEFAULT_CARETAKER = 'steward';
export const DISORDER_CARETAKER = 'disorder';
