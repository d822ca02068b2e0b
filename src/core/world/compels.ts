import { aspectKey, holderOf } from '../aspects/places.js';
import type { TurnContext } from '../context.js';
import type { NationId } from '../ids.js';
import { takeDue } from './due.js';
import type { AnswerOrder } from '../orders.js';
import { fireEvent, targetStands } from './fire.js';
import type { EventScene } from './scene.js';
import type { EventCatalogue, EventTarget, PendingCompel } from './types.js';

/**
 * Compels (seed 002 "Compelling Aspects", "Spending" and "Earning Fate
 * Points"; docs/rules.md A9). The GM (a `compel` action in _gm.yaml) or an
 * event (the `compel` effect) compels one of a nation's aspects: given that
 * aspect and the situation, a complication befalls it. Play by mail cannot
 * haggle at the table, so the nation answers in next turn's orders as it
 * answers a roll: `answer <id> accept` — it gains a fate point and the
 * complication happens (`then`, a catalogue event, befalls it) — or
 * `answer <id> refuse`, paying a fate point. Unanswered, a compel is
 * accepted: the story goes on, and the nation is paid for it. A refusal
 * the nation can no longer pay for is accepted.
 */

/** The nation's aspects a compel may name: those on it, its settlements or its units (holderOf), in play. */
function nationsAspect(ctx: TurnContext, nation: NationId, name: string) {
  const key = aspectKey(name);
  return (ctx.state.aspects ?? []).find((a) => !a.boost && aspectKey(a.name) === key && holderOf(ctx.state, a.on) === nation);
}

export function offerCompel(ctx: TurnContext, nation: NationId, c: { id: string; aspect: string; text: string; then?: string }, target: EventTarget, by: 'gm' | 'event'): void {
  const n = ctx.nationState(nation);
  const aspect = nationsAspect(ctx, nation, c.aspect);
  const void_ = (reason: string) => ctx.emit({ type: 'compel_void', nations: [], nation, id: c.id, aspect: c.aspect, reason });
  if (!ctx.rules.fate.aspects) return void_('aspects are off in this campaign');
  if (!aspect) return void_(`${ctx.nationDef(nation).name} has no aspect "${c.aspect}" in play`);
  if (n.compels?.some((p) => p.id === c.id)) return void_(`a compel "${c.id}" already awaits its answer`);
  const turn = ctx.turn + 1;
  const pending: PendingCompel = { id: c.id, aspect: aspect.name, text: c.text, ...(c.then ? { then: c.then } : {}), turn, target };
  n.compels = [...(n.compels ?? []), pending];
  ctx.emit({ type: 'compel_offered', nations: [nation], nation, id: c.id, aspect: aspect.name, text: c.text, by, turn, cost: ctx.rules.fate.invokeCost });
}

/** The compels due this turn, in the order offered: each answered (or accepted by default), paid for, and its complication made to happen. */
export function resolveCompels(ctx: TurnContext, scene: EventScene, catalogue: EventCatalogue | undefined, nation: NationId, answers: ReadonlyMap<string, AnswerOrder> | undefined): void {
  const n = ctx.nationState(nation);
  const due = takeDue(n, 'compels', ctx.turn);
  if (!due.length) return;
  const cost = ctx.rules.fate.invokeCost;
  for (const c of due) {
    const answer = answers?.get(c.id);
    const refuse = answer?.choice === 'refuse';
    const told = { nations: [nation], nation, id: c.id, aspect: c.aspect, text: c.text, answered: answer !== undefined };
    if (refuse && n.fate >= cost) {
      ctx.changeResource(nation, 'fate', -cost, `refused the compel of "${c.aspect}"`);
      ctx.emit({ type: 'compel_answered', ...told, accepted: false });
      continue;
    }
    const reason = refuse ? `there was not the ${cost} Fate to refuse it` : undefined;
    ctx.changeResource(nation, 'fate', 1, `accepted the compel of "${c.aspect}"`);
    ctx.emit({ type: 'compel_answered', ...told, accepted: true, ...(reason ? { reason } : {}) });
    const def = c.then ? catalogue?.entries[c.then] : undefined;
    const target = def ? (targetStands(ctx, nation, c.target) ?? (def.scope === 'nation' ? { scope: 'nation' as const } : undefined)) : undefined;
    if (def && target) fireEvent(ctx, scene, nation, def, target, 'follow-up');
  }
}
