import type { TurnContext } from '../context.js';
import type { NationId } from '../ids.js';
import type { HeirOrder } from '../orders.js';
import { reject, type Verdict } from './verdict.js';

/** An heir: a name, and an ability from the campaign's succession list (rules.md L2). */
export function checkHeir(ctx: TurnContext, nation: NationId, o: HeirOrder): Verdict {
  if (!o.name.trim() || o.name.length > 60) return reject('an heir has a name of 1 to 60 characters');
  const list = ctx.campaign.succession.abilities;
  if (o.ability !== undefined && !list.includes(o.ability)) {
    return reject(`an heir cannot bring the ability "${o.ability}"`, list.length ? `heirs may bring: ${list.join(', ')}` : 'this campaign has no abilities for heirs: leave the ability out');
  }
  const a = o.ability ? ctx.campaign.abilities[o.ability] : undefined;
  const when = ctx.start.nations[nation]?.leader?.name === null ? 'takes the throne at the end of this turn' : 'takes over when the leader dies';
  return { ok: true, claims: [], slots: [{ key: 'heir', limit: 1, label: 'one heir a turn' }], summary: `${o.name} is named heir${a ? `, bringing ${a.name}` : ''}, and ${when}` };
}
