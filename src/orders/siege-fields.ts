import { UNIT_CLASSES, type Bonus, type BonusTarget, type UnitClass } from '../core/campaign.js';
import type { SiegeAction, SiegeStep } from '../core/orders.js';
import { clip } from './names.js';
import { didYouMean } from '../text/suggest.js';
import { Refusal } from './fields.js';

/**
 * A siege's order fields (interpret.ts): the siege actions in order, and the bonuses a player names
 * ("+2 vs cavalry (open)").
 */

/** Siege actions as players write them ("destroy battlement", "poison the water"). */
const SIEGE_ACTIONS: Record<string, SiegeAction> = {
  destroy_battlement: 'destroy_battlement',
  destroy_battlements: 'destroy_battlement',
  destroy_a_battlement: 'destroy_battlement',
  destroy_the_battlement: 'destroy_battlement',
  destroy: 'destroy_battlement',
  battlement: 'destroy_battlement',
  battlements: 'destroy_battlement',
  poison_water: 'poison_water',
  poison_the_water: 'poison_water',
  poison_the_water_supply: 'poison_water',
  poison_water_supply: 'poison_water',
  poison: 'poison_water',
  water: 'poison_water',
};

/**
 * One siege action as written: "destroy battlement +2", "+1 battlement",
 * "poison the water". A battlement's bonus is optional (the weakest one left).
 */
export function siegeStep(written: string): SiegeStep {
  const words = written.toLowerCase().trim().split(/[\s_-]+/).filter((w) => !['another', 'a', 'the', 'one', 'of', 'level'].includes(w));
  const levels = words.filter((w) => /^\+?\d{1,3}$/.test(w));
  const word = words.filter((w) => !levels.includes(w)).join('_') || 'battlement';
  const action = SIEGE_ACTIONS[word];
  if (!action) throw new Refusal(`unknown siege action "${clip(written)}"`, didYouMean(word, ['destroy_battlement', 'poison_water']) ?? 'siege actions are "destroy battlement" (name its bonus, "+2", or the weakest is taken) and "poison water"');
  if (levels.length > 1) throw new Refusal(`one battlement per action, not "${clip(written)}"`, 'e.g. "destroy battlement +2 then battlement +1"');
  const level = levels[0] === undefined ? undefined : Number(levels[0].replace(/^\+/, ''));
  if (level !== undefined && action !== 'destroy_battlement') throw new Refusal(`poisoning the water takes no bonus ("${clip(written)}")`);
  if (level !== undefined && level < 1) throw new Refusal(`a battlement is +1, +2 or +3, not "${clip(written)}"`);
  return level === undefined ? { action } : { action, battlement: level };
}

export const unquote = (s: string) => s.replace(/^["“”]+|["“”]+$/g, '').trim();

export function bonuses(value: unknown): Bonus[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/\s*,\s*|\s+and\s+/i).filter(Boolean) : [value];
  if (items.length > 8) throw new Refusal('a unit can have at most a few bonuses');
  return items.map((b) => {
    if (typeof b === 'string') return bonusFromText(b);
    if (typeof b !== 'object' || b === null || typeof (b as Bonus).value !== 'number') {
      throw new Refusal('each bonus is written like "+2 vs cavalry" (or {value: 2, vs: {classes: [cavalry]}})');
    }
    return b as Bonus;
  });
}

const BONUS_TEXT = /^(?:bonus\s+)?([+-]?\d{1,2})(?:\s+(?:vs\.?|versus|against)\s+([^()]+?))?(?:\s*\(\s*(open|siege)\s*\))?$/i;

/**
 * "+2 vs cavalry", "+1 vs infantry/cavalry (open)", "+1 vs dwarven": the way
 * the engine prints bonuses, read back. Words that are unit classes (or
 * "structure") are classes; any other word is an affiliation.
 */
export function bonusFromText(raw: string): Bonus {
  const m = BONUS_TEXT.exec(raw.trim());
  if (!m) throw new Refusal(`cannot read the bonus "${clip(raw)}"`, 'write it like "+2 vs cavalry" or "+1 vs infantry/cavalry (open)"');
  const value = Number(m[1]);
  const bonus: Bonus = { value };
  if (m[2]) {
    const vs: BonusTarget = {};
    const classes: (UnitClass | 'structure')[] = [];
    for (const word of m[2].split(/\s*(?:\/|\s+or\s+)\s*/i).map((w) => w.trim().toLowerCase()).filter(Boolean)) {
      const cls = word.replace(/s$/, '');
      if ((UNIT_CLASSES as readonly string[]).includes(word) || word === 'structure') classes.push(word as UnitClass | 'structure');
      else if ((UNIT_CLASSES as readonly string[]).includes(cls) || cls === 'structure') classes.push(cls as UnitClass | 'structure');
      else if (!vs.affiliation) vs.affiliation = word;
      else throw new Refusal(`a bonus applies against one affiliation, not "${vs.affiliation}" and "${clip(word)}"`);
    }
    if (classes.length) vs.classes = classes;
    bonus.vs = vs;
  }
  if (m[3]) bonus.situation = m[3].toLowerCase() as Bonus['situation'] & string;
  return bonus;
}
