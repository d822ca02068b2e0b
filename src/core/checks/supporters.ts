import type { TurnContext } from '../context.js';
import type { NationId, UnitId } from '../ids.js';
import type { AttackOrder } from '../orders.js';
import type { UnitState } from '../state.js';
import { isRejected, ownUnit, unitLabel } from './lookup.js';
import { reject, type Rejected } from './verdict.js';

/** How one supporter stands: it refuses the whole order, it cannot get there (and why), or it joins (undefined). */
export type SupporterJudgement = Rejected | { outOfReach: string } | undefined;

/**
 * The supporters that join an attack, for open attacks and fights for structures alike (docs/rules.md C2, X1).
 * One that cannot reach `where` is left out with a warning and the attack goes ahead with the rest; one that is
 * not the player's, or that `judge` refuses, refuses the order.
 */
export function checkSupporters(
  ctx: TurnContext,
  nation: NationId,
  ids: readonly UnitId[] | undefined,
  where: string,
  judge: (supporter: UnitState) => SupporterJudgement,
): { kept: UnitId[]; warnings: string[] } | Rejected {
  const list = ids ?? [];
  if (list.length > ctx.rules.maxSupportUnits) return reject(`at most ${ctx.rules.maxSupportUnits} units can support an attack`);
  const kept: UnitId[] = [];
  const warnings: string[] = [];
  for (const id of list) {
    const s = ownUnit(ctx, nation, id);
    if (isRejected(s)) return s;
    const judged = judge(s);
    if (judged && isRejected(judged)) return judged;
    if (judged) {
      warnings.push(`supporting unit ${unitLabel(ctx, s)} cannot reach ${where} this turn, so it is left out and the attack goes ahead without it: ${judged.outOfReach}`);
      continue;
    }
    kept.push(s.id);
  }
  return { kept, warnings };
}

/** The attack as carried out when supporters were left out (the receipt shows it), else undefined. */
export function attackCarriedOut(o: AttackOrder, supporters: { kept: UnitId[]; warnings: string[] }): AttackOrder | undefined {
  if (!supporters.warnings.length) return undefined;
  const { support: _written, ...rest } = o;
  return { ...rest, ...(supporters.kept.length ? { support: supporters.kept } : {}) };
}
