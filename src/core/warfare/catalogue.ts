import type { Catalogue, RampartType, UnitType } from './types.js';

/**
 * The default unit and rampart listing (seed 001 lines 17–109), in our own
 * data shape. `against` marks the aspects that are weaknesses (our reading
 * of the stat blocks: the other side invokes them against the unit, W20). A
 * campaign may override any entry or add its own under
 * `rules.warfare.catalogue` (schema: src/campaign/warfare-schema.ts); what it
 * gives replaces the default entry of that name whole.
 */
const unit = (u: UnitType): UnitType => u;

export const DEFAULT_UNITS: Readonly<Record<string, UnitType>> = {
  // Lines 17–26. Aim raises Marksmanship to Decent (+2); Longbows: range four.
  archers: unit({
    name: 'Archers',
    skills: { fighting: 2, armor: 2, movement: 2, marksmanship: 1 },
    aspects: ['Out of arrows!', 'Vulnerable to Charge'],
    against: ['Out of arrows!', 'Vulnerable to Charge'],
    stunts: { aim: { skill: 'marksmanship', to: 2 }, ranged: { skill: 'marksmanship', maxRange: 4 }, pinned: true },
  }),
  // Lines 28–38. The seed gives Ranged Blast no range; we read two zones (docs/rules.md W3).
  battleMages: unit({
    name: 'Battle Mages',
    skills: { lore: 3, movement: 2, fighting: 1, armor: 0 },
    aspects: ['Rain of Fire', 'Incompetent Fighters'],
    against: ['Incompetent Fighters'],
    stunts: { ranged: { skill: 'lore', maxRange: 2 }, pinned: true },
  }),
  // Lines 40–48.
  cannons: unit({
    name: 'Cannons',
    skills: { armor: 6, movement: 2, siege: 2 },
    aspects: ['Castle Smasher', 'Tricky to Maneuver'],
    against: ['Tricky to Maneuver'],
    stunts: { ranged: { skill: 'siege', maxRange: 3 }, breaches: true, aim: { skill: 'siege', to: 3 } },
  }),
  // Lines 50–59.
  catapults: unit({
    name: 'Catapults',
    skills: { armor: 5, movement: 2, siege: 0 },
    aspects: ['Fires Over Walls', 'Tricky to Maneuver'],
    against: ['Tricky to Maneuver'],
    stunts: { ranged: { skill: 'siege', maxRange: 3 }, breaches: true, aim: { skill: 'siege', to: 1 } },
  }),
  // Lines 61–69. Charge! raises Fighting to Good (+3) when the cavalry moved.
  cavalry: unit({
    name: 'Cavalry',
    skills: { armor: 5, movement: 3, fighting: 2 },
    aspects: ['Crashing Wave of Steel and Hoof', 'Vulnerable to Set Defense'],
    against: ['Vulnerable to Set Defense'],
    stunts: { charge: { skill: 'fighting', to: 3 }, marchAndFight: true },
  }),
  // Lines 71–77.
  infantry: unit({
    name: 'Infantry',
    skills: { armor: 4, fighting: 2, movement: 2 },
    aspects: ['The War is Won or Lost With Us!', 'Most Important Piece'],
    stunts: { marchAndFight: true },
  }),
  // Lines 79–86. Homeland Defense: Fighting Decent (+2) when defending.
  militia: unit({
    name: 'Militia',
    skills: { movement: 2, armor: 2, fighting: 1 },
    aspects: ['I will defend my home!', 'Disorganized'],
    against: ['Disorganized'],
    stunts: { homeland: { skill: 'fighting', to: 2 } },
  }),
  // Not in the seed: our extension for Fatecraft's naval class (docs/rules.md W2). A fleet's marines board and
  // its hulls take blows like cavalry's armour; it moves as far as cavalry and still attacks, and has no ranged attack.
  warships: unit({
    name: 'Warships',
    skills: { armor: 4, fighting: 2, movement: 3 },
    aspects: ['Masters of the Water', 'Helpless Aground'],
    against: ['Helpless Aground'],
    stunts: { marchAndFight: true },
  }),
};

export const DEFAULT_RAMPARTS: Readonly<Record<string, RampartType>> = {
  // Lines 92–100: Wall Strength 3, consequences -2 and -4, Armor Impenetrable (+10).
  castle: { name: 'Castle', armor: 10, wallStrength: 3, consequences: [2, 4], aspects: ['Fire From the Ramparts!', 'Thick Walls of Stone'] },
  // Lines 101–109: Wall Strength 3, consequence -2, Armor Fantastic (+6).
  keep: { name: 'Keep', armor: 6, wallStrength: 3, consequences: [2], aspects: ['Boiling Oil', 'Take Cover!'] },
};

/** The defaults with a campaign's entries laid over them, entry by entry. */
export function catalogue(overrides?: Partial<Catalogue>): Catalogue {
  return {
    units: { ...DEFAULT_UNITS, ...(overrides?.units ?? {}) },
    ramparts: { ...DEFAULT_RAMPARTS, ...(overrides?.ramparts ?? {}) },
  };
}
