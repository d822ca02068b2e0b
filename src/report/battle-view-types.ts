/**
 * How a report tells a fight (types.ts gathers every view type): rolls with their modifiers, battles
 * and their sides, sieges, and Warfare battles told in full.
 */

export interface ModifierView {
  value: number;
  signed: string;
  source: string;
}

/** One die as a report tells it: what was rolled, whether the GM forced it, and what was added to it. */
export interface DieRollView {
  die: string;
  value: number;
  forced: boolean;
  /** A Fate draw in words ("rolled + + 0 − (+1) on 3"); null for a plain die. */
  draw: string | null;
  modifiers: ModifierView[];
  total: number;
}

export interface RollView extends DieRollView {
  unit: string;
  label: string;
  health: string;
  /** False for a diplomatic unit: it is in the battle to be protected and rolls nothing. */
  fights: boolean;
}

export interface BattleSideView {
  nation: string;
  nationName: string;
  role: 'attacker' | 'defender';
  rolls: RollView[];
  /** The modifier the side bought with Fate, as every side saw it. */
  fateModifier: number;
  /** Fate points spent: only for the nation's own side (null for the enemy). */
  fateSpent: number | null;
  sideModifiers: ModifierView[];
  /** How an invoke's re-roll changed the side's dice, when it did. */
  rerolled?: string;
  total: number;
}

export interface CasualtyView {
  unit: string;
  label: string;
  result: string;
}

export interface BattleView {
  id: string;
  at: string;
  kind: 'open' | 'assault';
  /** "open battle" / "assault". */
  kindText: string;
  headline: string;
  attacker: BattleSideView;
  defender: BattleSideView;
  winner: 'attacker' | 'defender' | 'draw';
  outcome: string;
  deficit: number;
  casualties: CasualtyView[];
  overkill: number;
}

export interface SiegeRollView extends DieRollView {
  headline: string;
  action: string;
  unit: string;
  settlement: string;
  target: number;
  successes: number;
  effects: string[];
}

/** A Warfare battle told in full (docs/rules.md W16): its headline, then each exchange's zone map and actions. */
export interface WarfareView {
  headline: string;
  /** The terms, explained once a report: on the first Warfare battle told. */
  key?: string[];
  lines: string[];
}
