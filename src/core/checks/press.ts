import type { TurnContext } from '../context.js';
import type { NationId } from '../ids.js';
import type { PressOrder } from '../orders.js';
import { reject, type Verdict } from './verdict.js';

/**
 * A letter to other nations (rules.md P1). Recipients must be nations in
 * play; rebels and fallen nations read no mail. Unsigned letters only where
 * the campaign allows them. The per-turn limit is a slot, so the receipt names
 * the letter that went over it.
 */
export function checkPress(ctx: TurnContext, nation: NationId, o: PressOrder): Verdict {
  const rules = ctx.rules.press;
  if (rules.perTurn === 0) return reject('this campaign carries no letters between nations', 'write to the GM with "note" instead');
  if (o.anonymous && !rules.anonymous) return reject('this campaign carries only signed letters', 'leave out "unsigned"; the recipients will see who wrote');
  if (o.text.length > rules.maxLength) return reject(`a letter is at most ${rules.maxLength} characters; this one has ${o.text.length}`, 'shorten it, or send two');
  const to: string[] = [];
  if (o.to !== 'all') {
    for (const id of o.to) {
      if (id === nation) return reject('a letter to your own nation goes nowhere', 'name another nation, or "all"');
      const def = ctx.campaign.nations[id];
      if (!def || def.rebels) return reject(`${def?.name ?? id} reads no letters`, 'write to a nation in play');
      if (!ctx.nationState(id).alive) return reject(def.breaksFrom !== undefined ? `${def.name} is not in play (a nation in waiting) and reads no letters` : `${def.name} has fallen and reads no letters`);
      to.push(def.name);
    }
  }
  const who = o.to === 'all' ? 'every nation' : to.join(', ');
  const excerpt = o.text.length > 50 ? `${o.text.slice(0, 49)}…` : o.text;
  return {
    ok: true,
    claims: [],
    slots: [{ key: 'press', limit: rules.perTurn, label: `${rules.perTurn} letter${rules.perTurn === 1 ? '' : 's'} a turn` }],
    summary: `${o.anonymous ? 'An unsigned letter' : 'A letter'} to ${who}: “${excerpt}”`,
  };
}
