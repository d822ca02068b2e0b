import type { TurnContext } from '../context.js';
import type { NationId } from '../ids.js';
import type { BattlePlanOrder } from '../orders.js';
import { reject, type Verdict } from './verdict.js';

const TIE = { boost: 'a tie is bought with a minor advantage to the other side', stress: 'a tie is bought with a stress card', fail: 'a tie is left as a failure' } as const;

/** A battle plan (docs/rules.md W13): only where Warfare is on; one a turn. */
export function checkBattlePlan(ctx: TurnContext, _nation: NationId, o: BattlePlanOrder): Verdict {
  if (!ctx.rules.warfare.enabled) return reject('Warfare is off in this campaign: no battle follows a plan', 'leave the plan out');
  const stance = o.stance === 'aggressive' ? 'your commanders seek the enemy (attacking: the strategic zone)' : 'your commanders hold the strategic zone (attacking: advance on it)';
  const withdraw = o.withdrawAt ? `they withdraw with ${o.withdrawAt} unit${o.withdrawAt === 1 ? '' : 's'} or fewer left` : 'they fight to the last';
  return { ok: true, claims: [], slots: [{ key: 'battle_plan', limit: 1, label: 'one battle plan a turn' }], summary: `Battle plan for your Warfare battles this turn: ${o.stance} — ${stance}; ${withdraw}; ${TIE[o.onTie ?? 'boost']}` };
}
