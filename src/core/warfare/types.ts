import type { DieRoll, LuckDraw } from '../events.js';
import type { NationId } from '../ids.js';
import type { ConsequenceLevel } from '../fate/stress.js';

/**
 * The Warfare battle mode (seed 001, docs/rules.md W1–W14): a battle fought
 * over zones by commanders and their units, exchange by exchange. Everything
 * here is plain data; the engine in this folder is pure.
 */
export type Side = 'attacker' | 'defender';
export const other = (s: Side): Side => (s === 'attacker' ? 'defender' : 'attacker');

/** The unit skills of seed 001 line 14 (and Lore, the battle mages' ranged skill, line 36). */
export type UnitSkill = 'fighting' | 'marksmanship' | 'armor' | 'movement' | 'siege' | 'lore';
export const UNIT_SKILLS: readonly UnitSkill[] = ['fighting', 'marksmanship', 'armor', 'movement', 'siege', 'lore'];

/** A skill raised to a value when a condition holds (Aim, Charge!, Homeland Defense). */
export interface SkillRaise {
  skill: UnitSkill;
  to: number;
}

/**
 * A unit's stat block (seed 001 lines 17–87) as data. Stunts are the
 * mechanical parts the engine knows; aspects are names a commander may invoke.
 */
export interface UnitType {
  name: string;
  skills: Partial<Record<UnitSkill, number>>;
  aspects: string[];
  /**
   * Which of its aspects are weaknesses ("Vulnerable to Charge"): the other
   * side's commanders invoke those against it, the rest its own commander
   * invokes for it (docs/rules.md W20).
   */
  against?: string[];
  stunts: {
    /** Raised when the unit has not moved this exchange (Aim). */
    aim?: SkillRaise;
    /** Raised when the unit moved this exchange (Charge!). */
    charge?: SkillRaise;
    /** Raised when defending (Homeland Defense). */
    homeland?: SkillRaise;
    /** May attack at range with this skill, up to maxRange zones (Longbows, Siege Weapon, Ranged Blast). */
    ranged?: { skill: UnitSkill; maxRange: number };
    /** May not attack at range with enemies in its zone (Pinned). */
    pinned?: boolean;
    /** Its ranged attacks can stress ramparts (Siege Weapon). */
    breaches?: boolean;
    /** May move its full Movement and still attack (seed 001 line 152: cavalry and infantry). */
    marchAndFight?: boolean;
  };
}

/** A rampart's stat block (seed 001 lines 88–109). */
export interface RampartType {
  name: string;
  armor: number;
  /** Wall Strength: the boxes of its stress track. */
  wallStrength: number;
  /** The consequences it may take, as the stress each soaks (2, 4). */
  consequences: number[];
  aspects: string[];
}

export interface Catalogue {
  units: Record<string, UnitType>;
  ramparts: Record<string, RampartType>;
}

export interface Unit {
  id: string;
  type: string;
  /** How the account names it (the turn's unit name); the type's name and id when absent. */
  name?: string;
  side: Side;
  /** Units move and act with their commander, in the commander's zone (seed 001 line 10). */
  commander: string;
  out: boolean;
  /** Came to the battle bloodied: its skills are lower (W17). */
  bloodied?: boolean;
}

export type CommanderSkill = 'command' | 'tactics' | 'engineering' | 'fighting' | 'athletics';

export interface Commander {
  id: string;
  name: string;
  side: Side;
  zone: string;
  /** Moved this exchange (Aim and Charge! read it for the units). */
  moved: boolean;
  /** Left the battlefield with its units (a withdrawal). */
  gone: boolean;
  skills: Partial<Record<CommanderSkill, number>>;
  /** Stress boxes, physical and mental (a novice has none, seed 001 line 12). */
  stress: { physical: number; mental: number };
  novice: boolean;
  /** Minor advantages held (boosts), each spent to draw again (seed 001 line 173). */
  boosts: number;
  /** Filled stress boxes per track, and the consequences it can no longer take. */
  filled: { physical: boolean[]; mental: boolean[] };
  taken: ConsequenceLevel[];
  out: boolean;
  /** A champion (seed 001 lines 140–141): leads no units, moves and acts with this commander; taken out, it is gone. */
  champion?: string;
  /**
   * Its consequences, as aspects (seed 000 line 141): each with a free invoke
   * for the side that inflicted it, and open to paid invokes against him.
   */
  consequences?: { name: string; free: number; side: Side }[];
}

export interface Zone {
  id: string;
  /** Terrain aspects and obstacles (seed 001 line 144); an obstacle costs one more to enter (line 155). */
  aspects: string[];
  obstacle: boolean;
  /** Situation aspects made in the battle, with their free invokes and whose they are. */
  advantages: { name: string; side: Side; invokes: number }[];
}

export interface Rampart {
  type: string;
  zone: string;
  /** Filled boxes (index i is box i+1) and consequences taken. */
  boxes: boolean[];
  taken: number[];
  fallen: boolean;
}

export interface Battlefield {
  zones: Zone[];
  /** Undirected adjacency, by zone id. */
  links: [string, string][];
  strategic: string;
  /** Zones from which a side may leave the battlefield (the edge, seed 001 line 193). */
  edge: string[];
}

/**
 * An aspect of a nation's that its commanders may invoke in the battle
 * (docs/rules.md W20): an aspect in play where the battle is fought — on
 * either nation, on the region, the settlement or a unit in the battle —
 * that the nation can see. `free` and `ordered` are the invokes its player
 * ordered for this battle (free ones, and ones paid with the nation's own
 * Fate); with `pool` the commanders may also pay for it from the side's
 * pledged Fate. Invoked against the other nation (`hostile`), a paid invoke
 * pays that nation the fate point (seed 002 "Earning Fate Points").
 */
export interface BattleAspect {
  /** The key the turn knows it by (it writes back what was spent). */
  ref: string;
  name: string;
  free: number;
  ordered: number;
  pool: boolean;
  hostile: boolean;
  /** The player asked for re-draws only ("reroll"). */
  redrawOnly?: boolean;
  /** A helpful aspect: fortune on checks with this skill, free (seed 000 lines 81–83). */
  helps?: string;
  /** A hindering aspect: misfortune on checks with this skill, free. */
  hinders?: string;
}

/** One invoke made in the battle, for the turn to pay and to tell. */
export interface WarInvoke {
  side: Side;
  name: string;
  /** A free invoke, a fate point from the side's pledge, or one its player ordered and pays from the nation's Fate. */
  pay: 'free' | 'pool' | 'ordered';
  effect: 'plus2' | 'redraw';
  /** Invoked against the other side's aspect: a paid invoke pays that nation. */
  hostile: boolean;
  /** A nation's aspect (BattleAspect.ref); absent for units', terrain and battle aspects. */
  ref?: string;
  exchange: number;
}

/**
 * Another nation's teamwork or obstacle invoke on the battle (docs/rules.md
 * A10), for the side it helps or hinders: taken on that side's first check
 * against a passive opposition (creating an advantage, overcoming an aspect).
 */
export interface WarHelp {
  /** The turn's key for it (it pays for what was taken). */
  id: number;
  role: 'team' | 'obstacle';
  /** The aspect invoked, and the nation that invoked it, as the account names them. */
  name: string;
  by: string;
}

/** Every draw of the battle, as recorded. */
export interface WarDraw {
  side: Side;
  nation: NationId;
  result: number;
  rolls: DieRoll[];
  /** Fortune or misfortune drawn on a check (seed 000 lines 23–28). */
  luck?: LuckDraw;
}
