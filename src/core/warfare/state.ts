import type { NationId } from '../ids.js';
import type { ConsequenceLevel } from '../fate/stress.js';
import { distanceTable } from './battlefield.js';
import type { Draws } from './draws.js';
import type { Battlefield, Catalogue, Commander, CommanderSkill, Rampart, Side, Unit, UnitSkill } from './types.js';

/** One line of the battle's account: what happened, with the numbers behind it. */
export interface WarEvent {
  exchange: number;
  kind: 'move' | 'ranged' | 'clash' | 'outflank' | 'siege' | 'advantage' | 'heroic' | 'stress' | 'novice' | 'withdraw' | 'end';
  side: Side;
  commander: string;
  text: string;
}

/** The battle as it stands; the actions change it in place (it is the engine's own, built per battle). */
export interface WarState {
  catalogue: Catalogue;
  field: Battlefield;
  distance: (a: string, b: string) => number;
  nations: Record<Side, NationId>;
  commanders: Commander[];
  units: Unit[];
  ramparts: Rampart[];
  draws: Draws;
  /** How much lower a bloodied unit's skills are, Movement aside (W17; 0: no penalty). */
  bloodiedPenalty?: number;
  exchange: number;
  log: WarEvent[];
}

export interface CommanderInput {
  id: string;
  name: string;
  side: Side;
  zone: string;
  skills?: Partial<Record<CommanderSkill, number>>;
  /** Stress boxes; the sample general's two physical, four mental by default (seed 001 lines 118–120). */
  stress?: { physical: number; mental: number };
  /** Omitted or true: a novice (no leader or lieutenant, seed 001 line 12). */
  novice?: boolean;
  /** A champion: no units of its own, it rides with this commander (seed 001 lines 140–141). */
  champion?: string;
}

const NO_CONSEQUENCES: ConsequenceLevel[] = ['mild', 'moderate', 'severe'];
/** A commander has one mild consequence, as the sample general (-2, seed 001 line 120). */
const ONE_MILD: ConsequenceLevel[] = ['moderate', 'severe'];

export function makeCommander(c: CommanderInput): Commander {
  const novice = c.novice ?? false;
  const stress = novice ? { physical: 0, mental: 0 } : (c.stress ?? { physical: 2, mental: 4 });
  return {
    id: c.id,
    name: c.name,
    side: c.side,
    zone: c.zone,
    moved: false,
    gone: false,
    skills: novice ? {} : { ...(c.skills ?? {}) },
    stress,
    novice,
    boosts: 0,
    filled: { physical: Array<boolean>(stress.physical).fill(false), mental: Array<boolean>(stress.mental).fill(false) },
    taken: novice ? [...NO_CONSEQUENCES] : [...ONE_MILD],
    out: false,
    ...(c.champion ? { champion: c.champion } : {}),
  };
}

/** A novice steps up for a commander taken out (seed 001 lines 11–12): every skill Mediocre, no stress boxes. */
export function noviceStepsUp(c: Commander): void {
  c.novice = true;
  c.skills = {};
  c.stress = { physical: 0, mental: 0 };
  c.filled = { physical: [], mental: [] };
  c.taken = [...NO_CONSEQUENCES];
  c.name = `a novice commander (after ${c.name})`;
}

export function newWarState(input: Omit<WarState, 'distance' | 'exchange' | 'log'>): WarState {
  return { ...input, distance: distanceTable(input.field), exchange: 0, log: [] };
}

export const cmdSkill = (c: Commander, s: CommanderSkill): number => c.skills[s] ?? 0;
export const commander = (st: WarState, id: string): Commander => st.commanders.find((c) => c.id === id)!;
export const unitsOf = (st: WarState, c: Commander): Unit[] => st.units.filter((u) => u.commander === c.id && !u.out);
export const zoneOf = (st: WarState, u: Unit): string => commander(st, u.commander).zone;
export const onField = (st: WarState, side: Side): Unit[] => st.units.filter((u) => u.side === side && !u.out && !commander(st, u.commander).gone);
export const standingRampart = (st: WarState, zone: string): Rampart | undefined => st.ramparts.find((r) => r.zone === zone && !r.fallen);

/**
 * A unit's skill now: its stat block's, raised by Aim when its commander has
 * not moved this exchange, by Charge! when it has, by Homeland Defense when
 * it defends (seed 001 lines 23, 68, 85). A raise never lowers a skill; a
 * bloodied unit's are lower by the campaign's penalty (W17).
 */
export function unitSkill(st: WarState, u: Unit, skill: UnitSkill): number {
  const type = st.catalogue.units[u.type]!;
  const moved = commander(st, u.commander).moved;
  let v = type.skills[skill] ?? 0;
  const { aim, charge, homeland } = type.stunts;
  if (aim && aim.skill === skill && !moved) v = Math.max(v, aim.to);
  if (charge && charge.skill === skill && moved) v = Math.max(v, charge.to);
  if (homeland && homeland.skill === skill && u.side === 'defender') v = Math.max(v, homeland.to);
  // A bloodied unit fights worse (W17): our reading of Fatecraft's bloodied, as units have no stress (line 8).
  if (u.bloodied && st.bloodiedPenalty && skill !== 'movement') v = Math.max(0, v - st.bloodiedPenalty);
  return v;
}

export const unitName = (st: WarState, u: Unit): string => (u.name ?? `${st.catalogue.units[u.type]?.name ?? u.type} (${u.id})`) + (u.bloodied && st.bloodiedPenalty ? ' (bloodied)' : '');
