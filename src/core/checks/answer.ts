import { ladderValue, rollName } from '../fate/words.js';
import type { TurnContext } from '../context.js';
import type { NationId } from '../ids.js';
import type { AnswerOrder } from '../orders.js';
import type { PendingCompel, RollDef } from '../world/types.js';
import { fateModifier } from './lookup.js';
import { reject, type Slot, type Verdict } from './verdict.js';

/**
 * `answer <event> [choice] [fate N]`: the nation's answer to a roll an event
 * asked of it last turn (rolled in this turn's events phase), or its payment
 * of a task's price (`answer <task>`, paid up front like any costly order).
 * Checked against what awaits the nation at the start of the turn, so a
 * wrong id or choice is refused with what would be valid.
 */
export function checkAnswer(ctx: TurnContext, nation: NationId, o: AnswerOrder): Verdict {
  const ns = ctx.start.nations[nation];
  const roll = ns?.rolls?.find((r) => r.event === o.event && r.turn === ctx.turn);
  const once = [{ key: `answer:${o.event}`, limit: 1, label: `one answer to "${o.event}" a turn` }];
  if (roll) {
    const def = ctx.campaign.events?.entries[o.event];
    if (!def?.roll) return reject(`the event "${o.event}" no longer asks for a roll (the GM changed the catalogue)`);
    return answerRoll(ctx, def.title, def.roll, o, once);
  }
  const compel = ns?.compels?.find((c) => c.id === o.event && c.turn === ctx.turn);
  if (compel) return answerCompel(ctx, compel, o, once, ns?.fate ?? 0);
  const task = ns?.tasks?.find((t) => t.task === o.event && t.deadline >= ctx.turn);
  const taskDef = task && ctx.campaign.events?.tasks[task.task];
  if (task && taskDef?.pay !== undefined) {
    if (o.choice !== undefined || o.fate !== undefined) return reject(`paying for "${task.title}" takes no choice and no Fate`, `answer ${o.event}`);
    return { ok: true, claims: [], slots: once, renown: taskDef.pay, summary: `Pays ${taskDef.pay} Renown: ${task.title}` };
  }
  return reject(task ? `"${o.event}" is a task met by deeds, not by an answer` : `nothing awaits an answer named "${o.event}"`, awaiting(ctx, nation));
}

function answerRoll(ctx: TurnContext, title: string, roll: RollDef, o: AnswerOrder, slots: Slot[]): Verdict {
  const choices = roll.options.map((x) => x.id);
  const named = roll.options.length > 1;
  if (o.choice !== undefined && !named) return reject(`"${title}" offers no choice: answer with the event alone, and Fate if you wish`, `answer ${o.event} [fate N]`);
  const option = o.choice === undefined ? roll.options.find((x) => x.id === roll.default) : roll.options.find((x) => x.id === o.choice);
  if (!option) return reject(`"${o.choice}" is not a choice of "${title}"`, `choose one of: ${choices.join(', ')} (e.g. "answer ${o.event} ${choices[0]}")`);
  const fate = o.fate ?? 0;
  const bought = fateModifier(ctx.rules.fateTable, fate);
  const chosen = named ? `${option.id}${o.choice === undefined ? ' (the default)' : ''}, ` : '';
  const withFate = fate ? `, +${bought.modifier} for ${bought.cost} of the ${fate} Fate pledged` : ', no Fate';
  return { ok: true, claims: [], slots, ...(fate ? { fate } : {}), summary: `Answers "${title}": ${chosen}${rollName(ctx.rules)} to beat ${ladderValue(ctx.rules, option.beat)}${withFate}` };
}

/**
 * A compel's answer (docs/rules.md A9): `accept` (the default) gains a fate
 * point and lets the complication happen; `refuse` pays one, reserved now.
 */
function answerCompel(ctx: TurnContext, c: PendingCompel, o: AnswerOrder, slots: Slot[], fate: number): Verdict {
  const cost = ctx.rules.fate.invokeCost;
  if (o.fate !== undefined) return reject(`a compel is answered with "accept" or "refuse", not with Fate`, `answer ${c.id} refuse`);
  const choice = o.choice ?? 'accept';
  if (choice !== 'accept' && choice !== 'refuse') return reject(`a compel is accepted or refused, not "${choice}"`, `answer ${c.id} accept — or: answer ${c.id} refuse (${cost} Fate)`);
  if (choice === 'accept') return { ok: true, claims: [], slots, summary: `Accepts the compel of "${c.aspect}" (${c.text}): a fate point, and it happens` };
  if (fate < cost) return reject(`refusing the compel of "${c.aspect}" costs ${cost} Fate; you have ${fate}`, `answer ${c.id} accept`);
  return { ok: true, claims: [], slots, ...(cost ? { fate: cost } : {}), summary: `Refuses the compel of "${c.aspect}" (${c.text}): ${cost} Fate` };
}

/** What the nation may answer this turn, for a refusal's hint. */
function awaiting(ctx: TurnContext, nation: NationId): string {
  const ns = ctx.start.nations[nation];
  const out: string[] = [];
  for (const r of ns?.rolls ?? []) {
    if (r.turn !== ctx.turn) continue;
    const def = ctx.campaign.events?.entries[r.event]?.roll;
    out.push(def && def.options.length > 1 ? `${r.event} (choices: ${def.options.map((x) => x.id).join(', ')})` : r.event);
  }
  for (const c of ns?.compels ?? []) if (c.turn === ctx.turn) out.push(`${c.id} (accept or refuse the compel of "${c.aspect}")`);
  for (const t of ns?.tasks ?? []) {
    const pay = ctx.campaign.events?.tasks[t.task]?.pay;
    if (pay !== undefined && t.deadline >= ctx.turn) out.push(`${t.task} (pay ${pay} Renown)`);
  }
  return out.length ? `awaiting your answer: ${out.join('; ')}` : 'nothing awaits your answer this turn';
}
