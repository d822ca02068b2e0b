import type { RuleSettings } from './settings.js';
import type { SiegeStep } from './orders.js';
import type { SettlementState, UnitState } from './state.js';

/**
 * The number a siege action must beat (rule S3): a battlement's bonus, or the
 * campaign's number for poisoning the water. A battlement named by no bonus is
 * the weakest one left; undefined when none is left.
 */
export function siegeStepNumber(ctx: { rules: RuleSettings }, s: SettlementState, step: SiegeStep): number | undefined {
  if (step.action === 'poison_water') return ctx.rules.siege.poisonTarget;
  if (step.battlement !== undefined) return s.battlements.includes(step.battlement) ? step.battlement : undefined;
  return s.battlements.length ? Math.min(...s.battlements) : undefined;
}

export function siegeStepText(step: SiegeStep): string {
  if (step.action === 'poison_water') return 'poison the water';
  return step.battlement === undefined ? 'destroy the weakest battlement' : `destroy a +${step.battlement} battlement`;
}

/** One thing a siege roll's success does: a battlement destroyed or a unit of the garrison bloodied. */
export type SiegeBlow = { kind: 'battlement'; level: number } | { kind: 'poison'; unit: UnitState };

/**
 * What a siege roll's successes do, in order (rule S3): the first action,
 * then the player's `then` list (an action no longer possible, or harder than
 * the first, is passed over), then more of the first action — the strongest
 * battlement no harder than the first, or another healthy unit poisoned.
 */
export interface SiegeField {
  /** The number the first action had to beat: no further action may be harder. */
  number: number;
  poisonTarget: number;
  battlements: readonly number[];
  /** The garrison's healthy units, in the order the water reaches them. */
  healthy: readonly UnitState[];
}

export function planSiegeBlows(first: SiegeStep, then: readonly SiegeStep[], successes: number, field: SiegeField): SiegeBlow[] {
  const { number } = field;
  const walls = [...field.battlements];
  const drinkers = [...field.healthy];
  const blows: SiegeBlow[] = [];
  const strike = (step: SiegeStep, pick: 'weakest' | 'strongest'): boolean => {
    if (step.action === 'poison_water') {
      if (field.poisonTarget > number) return false;
      const unit = drinkers.shift();
      if (!unit) return false;
      blows.push({ kind: 'poison', unit });
      return true;
    }
    const allowed = walls.filter((l) => l <= number && (step.battlement === undefined || l === step.battlement));
    if (!allowed.length) return false;
    const level = pick === 'weakest' ? Math.min(...allowed) : Math.max(...allowed);
    walls.splice(walls.indexOf(level), 1);
    blows.push({ kind: 'battlement', level });
    return true;
  };
  if (successes <= 0 || !strike(first, 'weakest')) return blows;
  for (const step of then) if (blows.length < successes) strike(step, 'strongest');
  while (blows.length < successes && strike(first.action === 'poison_water' ? first : { action: 'destroy_battlement' }, 'strongest'));
  return blows;
}
