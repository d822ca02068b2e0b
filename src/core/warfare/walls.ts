import type { WarfareSettings } from '../settings.js';
import type { RampartType } from './types.js';

/** The catalogue key the settlement's walls go under for one battle (never a campaign's own rampart). */
export const WALLS = 'settlement walls';

/**
 * A settlement's battlements as the seed's ramparts (seed 001 lines 89–91;
 * docs/rules.md W18): one rampart on the strategic zone. Its Armor is the sum
 * of the battlement bonuses, as a d6 assault adds them all (S6) — full walls,
 * +1 +2 +3, are the keep's Fantastic (+6), line 105 — or, with
 * `walls.armor: strongest`, twice the strongest (again +6 at full walls). Its
 * Wall Strength is one box a battlement (three at full walls, the keep's and
 * the castle's three, lines 94, 103), with no consequences. No battlements:
 * no ramparts.
 */
export function wallsOf(name: string, battlements: readonly number[], walls: WarfareSettings['walls']): RampartType | undefined {
  if (!battlements.length) return undefined;
  const armor = walls.armor === 'sum' ? battlements.reduce((s, b) => s + b, 0) : 2 * Math.max(...battlements);
  return { name: `wall of ${name}`, armor, wallStrength: battlements.length, consequences: [], aspects: [] };
}
