import { fateModifier } from './lookup.js';
import type { TurnContext } from '../context.js';
import type { NationId } from '../ids.js';
import type { HuntSpiesOrder } from '../orders.js';
import { reject, type Verdict } from './verdict.js';

/**
 * `hunt spies [fate N]` or `let spies go` (rules.md D2): the nation's choice for the catch rolls its guards
 * make this turn. The Fate is pledged like any order's and spent only if a catch roll comes.
 */
export function checkHuntSpies(ctx: TurnContext, _nation: NationId, o: HuntSpiesOrder): Verdict {
  const slots = [{ key: 'hunt_spies', limit: 1, label: 'one word to the guards a turn' }];
  if (o.letGo) {
    if (o.fate) return reject('letting spies go takes no Fate', 'write "let spies go", or "hunt spies fate 2" to hunt them');
    return { ok: true, claims: [], slots, summary: 'Lets any spy or saboteur caught failing this turn go: the guards make no catch roll' };
  }
  const fate = o.fate ?? 0;
  const bought = fateModifier(ctx.rules.fateTable, fate);
  const withFate = fate ? `, +${bought.modifier} for ${bought.cost} of the ${fate} Fate pledged (spent only if they roll)` : ', no Fate';
  return { ok: true, claims: [], slots, ...(fate ? { fate } : {}), summary: `Hunts any spy or saboteur whose action fails against you this turn${withFate}` };
}
