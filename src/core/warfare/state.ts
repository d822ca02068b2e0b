import type { NationId } from '../ids.js';
import { signed } from '../ladder.js';
import type { ConsequenceLevel } from '../fate/stress.js';
import { distanceTable } from './battlefield.js';
import type { Draws } from './draws.js';
import type { Battlefield, BattleAspect, Catalogue, Commander, CommanderSkill, Rampart, Side, Unit, UnitSkill, WarHelp, WarInvoke } from './types.js';

/** One line of the battle's account: what happened, with the numbers behind it. */
export interface WarEvent {
  exchange: number;
  kind: 'move' | 'ranged' | 'clash' | 'outflank' | 'siege' | 'advantage' | 'overcome' | 'heroic' | 'stress' | 'novice' | 'withdraw' | 'end';
  side: Side;
  commander: string;
  /** The numbers: what was drawn, the skills, the shifts. */
  text: string;
  /** The same in plain words, for a reader following the battle (the report puts the numbers under it). */
  story?: string;
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
  /** Each side's fate points: the Fate its nation pledged (at most what it has), and how many its commanders spent (W20). */
  fate: Record<Side, { pool: number; spent: number }>;
  /** The nations' aspects each side may invoke here (W20); their free and ordered invokes count down as they are used. */
  nationAspects: Record<Side, BattleAspect[]>;
  /** Every invoke made, for the turn to pay and tell. */
  invoked: WarInvoke[];
  /** Other nations' teamwork and obstacle invokes still waiting for each side's first passive check (A10). */
  help: Record<Side, WarHelp[]>;
  /** Those taken, with the value each added; and those the teamwork cap left with nothing to add. */
  helped: { id: number; value: number }[];
  /** Consequences each side's commanders took (a concession earns a fate point each, W21). */
  consequencesTaken: Record<Side, number>;
  /** A side whose commanders play naively (the yardstick the automated commander is tested against, W13). */
  naive?: Partial<Record<Side, boolean>>;
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

/**
 * A novice steps up for a commander taken out (seed 001 lines 11–12): every
 * skill Mediocre, no stress boxes. Returns the line that tells it. A novice
 * after a novice keeps the name (never "a novice (after a novice …)").
 */
export function noviceStepsUp(c: Commander): string {
  const was = c.name;
  const again = c.novice;
  c.novice = true;
  c.skills = {};
  c.stress = { physical: 0, mental: 0 };
  c.filled = { physical: [], mental: [] };
  c.taken = [...NO_CONSEQUENCES];
  // Its consequences were the fallen commander's: they leave with him.
  delete c.consequences;
  if (!again) c.name = `a novice commander (after ${was})`;
  return `${was} is taken out; ${again ? 'another novice' : c.name} takes command`;
}

export function newWarState(input: Omit<WarState, 'distance' | 'exchange' | 'log' | 'fate' | 'nationAspects' | 'invoked' | 'consequencesTaken' | 'help' | 'helped'> & Partial<Pick<WarState, 'fate' | 'nationAspects' | 'help'>>): WarState {
  return {
    fate: { attacker: { pool: 0, spent: 0 }, defender: { pool: 0, spent: 0 } },
    nationAspects: { attacker: [], defender: [] },
    help: { attacker: [], defender: [] },
    ...input,
    invoked: [],
    helped: [],
    consequencesTaken: { attacker: 0, defender: 0 },
    distance: distanceTable(input.field),
    exchange: 0,
    log: [],
  };
}

/** A draw or total as the seed writes it: +0 for zero. */
export const sgn = (n: number): string => (n === 0 ? '+0' : signed(n));

/** One line of the account, in this exchange. */
export const logWar = (st: WarState, e: Omit<WarEvent, 'exchange'>): void => void st.log.push({ exchange: st.exchange, ...e });

export const cmdSkill = (c: Commander, s: CommanderSkill): number => c.skills[s] ?? 0;
/** The aspects of a unit's type that are its own, and its weaknesses (invoked against it, W20). */
export function unitAspects(st: WarState, u: Unit): { own: string[]; against: string[] } {
  const t = st.catalogue.units[u.type]!;
  const against = t.against ?? [];
  return { own: t.aspects.filter((a) => !against.includes(a)), against: t.aspects.filter((a) => against.includes(a)) };
}
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

const CONSEQUENCE_NAMES: Record<'physical' | 'mental', Record<ConsequenceLevel, string>> = {
  physical: { mild: 'Battered', moderate: 'Wounded', severe: 'Grievously Wounded' },
  mental: { mild: 'Rattled', moderate: 'Shaken', severe: 'Broken Nerve' },
};

/**
 * A consequence a commander takes is an aspect on him (seed 000 line 141),
 * with a free invoke for the side that dealt it, and open to paid invokes
 * against him (docs/rules.md W20). Returns its name, for the account.
 */
export function takeConsequence(st: WarState, c: Commander, track: 'physical' | 'mental', level: ConsequenceLevel): string {
  const name = `${CONSEQUENCE_NAMES[track][level]} (${c.name})`;
  (c.consequences ??= []).push({ name, free: 1, side: c.side === 'attacker' ? 'defender' : 'attacker' });
  st.consequencesTaken[c.side]++;
  return name;
}

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const count = (n: number, word: string) => `${NUMBER_WORDS[n] ?? String(n)} ${word}${n === 1 ? '' : 's'}`;

/** A zone as a reader pictures it: "the strategic zone", "two zones out, in the centre", "beside the strategic zone, on the left". */
export function zoneName(st: WarState, id: string): string {
  if (id === st.field.strategic) return 'the strategic zone';
  const [r, c] = id.slice(1).split(',').map(Number) as [number, number];
  const side = c < 1 ? (c < 0 ? 'on the far left' : 'on the left') : c > 1 ? (c > 2 ? 'on the far right' : 'on the right') : 'in the centre';
  return r === 0 ? `beside the strategic zone, ${side}` : `${count(r, 'zone')} out, ${side}`;
}

/** "Units of Argenta" as a side names itself in the story. */
export const sideName = (side: Side): string => (side === 'attacker' ? 'the attackers' : 'the defenders');

/** A story sentence starts with a capital. */
export const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** "the Knights and the Marines": units as the story names them. */
export function unitsNamed(st: WarState, us: readonly Unit[]): string {
  const names = us.map((u) => unitName(st, u));
  return names.length <= 1 ? (names[0] ?? 'no unit') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
