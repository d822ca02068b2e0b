import { applyInvokes } from '../aspects/invoke.js';
import { sumModifiers } from '../bonuses.js';
import { fateModifier } from '../checks/lookup.js';
import type { Modifier } from '../events.js';
import type { TurnContext } from '../context.js';
import { asSettlementId, asUnitId, type NationId } from '../ids.js';
import type { AnswerOrder } from '../orders.js';
import { holds } from './conditions.js';
import { applyEffect, type Struck } from './effects.js';
import { takeDue } from './due.js';
import { filler, targetStands } from './fire.js';
import type { EventScene } from './scene.js';
import type { Effect, EventCatalogue, EventDef, EventTarget, PendingTask, RollOption, RollOutcome, TaskDef } from './types.js';

/**
 * What the living world carries from one turn to the next for a nation: the
 * rolls its events asked (rolled this turn, with its answer or the default)
 * and its timed tasks (met, missed, or still running). Both live in the
 * nation's state, so a nation with none costs one look at two empty fields.
 */

/** The turn's accepted `answer` orders, by nation and by event or task id (one pass over the accepted orders). */
export function answersOf(ctx: TurnContext): Map<NationId, Map<string, AnswerOrder>> {
  const out = new Map<NationId, Map<string, AnswerOrder>>();
  for (const a of ctx.acceptedOf('answer')) {
    let mine = out.get(a.nation);
    if (!mine) out.set(a.nation, (mine = new Map<string, AnswerOrder>()));
    mine.set(a.order.event, a.order);
  }
  return out;
}

function struckBy(ctx: TurnContext, scene: EventScene, nation: NationId, target: EventTarget, event: string, title: string): Struck {
  const where = targetStands(ctx, nation, target) ?? { scope: 'nation' };
  return { scene, nation, target: where, event, title, fill: filler(ctx, scene, nation, where) };
}

function applyAll(ctx: TurnContext, s: Struck, effects: readonly Effect[]): void {
  for (const e of effects) applyEffect(ctx, s, e);
}

/** An event asks its nation for a roll, due with next turn's orders (once: a roll already waiting is not asked twice). */
export function askRoll(ctx: TurnContext, nation: NationId, def: EventDef, target: EventTarget, fill: (text: string) => string): void {
  if (!def.roll) return;
  const n = ctx.nationState(nation);
  if (n.rolls?.some((r) => r.event === def.id)) return;
  const turn = ctx.turn + 1;
  n.rolls = [...(n.rolls ?? []), { event: def.id, turn, target }];
  const options = def.roll.options.map((o) => ({ id: o.id, text: fill(o.text), beat: o.beat }));
  ctx.emit({ type: 'roll_asked', nations: [nation], nation, event: def.id, title: fill(def.title), prompt: fill(def.roll.prompt), options, default: def.roll.default, turn });
}

export function outcomeOf(option: RollOption, total: number): RollOutcome {
  const need = option.beat + 1;
  if (total < need) return 'fail';
  return total >= need + option.greatBy ? 'great' : 'success';
}

/** The rolls due this turn, in the order they were asked: each with the nation's answer, or the default and no Fate. */
export function resolveRolls(ctx: TurnContext, scene: EventScene, catalogue: EventCatalogue, nation: NationId, answers: ReadonlyMap<string, AnswerOrder> | undefined): void {
  const n = ctx.nationState(nation);
  const due = takeDue(n, 'rolls', ctx.turn);
  if (!due.length) return;
  for (const pending of due) {
    const def = catalogue.entries[pending.event];
    if (!def?.roll) continue;
    const answer = answers?.get(def.id);
    const option = def.roll.options.find((o) => o.id === (answer?.choice ?? def.roll!.default)) ?? def.roll.options[0]!;
    const s = struckBy(ctx, scene, nation, pending.target, def.id, '');
    const title = s.fill(def.title);
    let roll = ctx.dice.stream(`roll:${nation}:${def.id}`).roll('d6', nation);
    const bought = fateModifier(ctx.rules.fateTable, Math.min(answer?.fate ?? 0, n.fate));
    if (bought.cost > 0) ctx.changeResource(nation, 'fate', -bought.cost, `Fate spent for +${bought.modifier} on the roll: ${title}`);
    let invokes: Modifier[] = [];
    let firstRoll: typeof roll | undefined;
    if (ctx.rules.fate.aspects) {
      // Aspects are invoked after the roll (seed 000): +2s first, then a re-roll while it still fails.
      const stream = ctx.dice.stream(`invoke:roll:${nation}:${def.id}`);
      const t = pending.target;
      const scene = { nations: [nation], ...(t.scope !== 'nation' ? { hex: t.hex } : {}), ...(t.scope === 'settlement' ? { settlement: asSettlementId(t.id) } : {}), units: t.scope === 'unit' ? [asUnitId(t.id)] : [] };
      const invoked = applyInvokes(ctx, { nation, key: `roll:${def.id}`, what: `the roll "${title}"`, scene, stream, skill: 'roll' });
      invokes = invoked.modifiers;
      for (const r of invoked.rerolls) {
        if (outcomeOf(option, roll.value + bought.modifier + sumModifiers(invokes)) !== 'fail' || !r.take()) continue;
        firstRoll ??= roll;
        roll = stream.roll('d6', nation);
      }
    }
    const total = roll.value + bought.modifier + sumModifiers(invokes);
    const outcome = outcomeOf(option, total);
    ctx.emit({ type: 'event_roll', nations: [nation], nation, event: def.id, title, option: option.id, answered: answer !== undefined, beat: option.beat, roll, fateSpent: bought.cost, modifier: bought.modifier, total, outcome, ...(invokes.length ? { invokes } : {}), ...(firstRoll ? { firstRoll } : {}) });
    const effects = option.outcomes[outcome] ?? (outcome === 'great' ? option.outcomes.success : undefined) ?? [];
    applyAll(ctx, { ...s, title }, effects);
  }
}

/** Sets a task on a nation (an effect's doing); a task already under way is not set twice. */
export function setTask(ctx: TurnContext, s: Struck, def: TaskDef): void {
  const n = ctx.nationState(s.nation);
  if (n.tasks?.some((t) => t.task === def.id)) return;
  const task: PendingTask = { task: def.id, event: s.event, title: s.title, text: s.fill(def.text), set: ctx.turn, deadline: ctx.turn + def.turns, target: s.target };
  n.tasks = [...(n.tasks ?? []), task];
  ctx.emit({ type: 'task_set', nations: [s.nation], nation: s.nation, task: def.id, event: s.event, title: s.title, text: task.text, deadline: task.deadline });
}

type Verdict = { met: true; how: string } | { met: false; why: string } | undefined;

function judge(ctx: TurnContext, scene: EventScene, nation: NationId, def: TaskDef, t: PendingTask, paid: boolean): Verdict {
  const last = ctx.turn >= t.deadline;
  if (def.pay !== undefined) {
    if (paid) return { met: true, how: `${def.pay} Renown paid` };
    return last ? { met: false, why: `${def.pay} Renown was not paid by turn ${t.deadline}` } : undefined;
  }
  const target = targetStands(ctx, nation, t.target) ?? { scope: 'nation' };
  const ok = def.conditions.every((c) => holds(c, { scene, nation, target }));
  if (def.hold) {
    if (!ok) return { met: false, why: `it was not held until turn ${t.deadline}` };
    return last ? { met: true, how: `held until turn ${t.deadline}` } : undefined;
  }
  if (ok) return { met: true, how: `done in turn ${ctx.turn}` };
  return last ? { met: false, why: `it was not done by turn ${t.deadline}` } : undefined;
}

/** Each task set in an earlier turn is judged: met, missed (at its deadline, or when a place held is lost), or left running. */
export function judgeTasks(ctx: TurnContext, scene: EventScene, catalogue: EventCatalogue, nation: NationId, answers: ReadonlyMap<string, AnswerOrder> | undefined): void {
  const n = ctx.nationState(nation);
  if (!n.tasks?.length) return;
  const running: PendingTask[] = [];
  const done: { t: PendingTask; def: TaskDef; verdict: NonNullable<Verdict> }[] = [];
  for (const t of n.tasks) {
    const def = catalogue.tasks[t.task];
    if (!def) continue;
    const verdict = t.set < ctx.turn ? judge(ctx, scene, nation, def, t, answers?.has(t.task) ?? false) : undefined;
    if (verdict) done.push({ t, def, verdict });
    else running.push(t);
  }
  if (running.length) n.tasks = running;
  else delete n.tasks;
  for (const { t, def, verdict } of done) {
    const s = struckBy(ctx, scene, nation, t.target, t.event, t.title);
    if (verdict.met) ctx.emit({ type: 'task_met', nations: [nation], nation, task: t.task, title: t.title, how: verdict.how });
    else ctx.emit({ type: 'task_missed', nations: [nation], nation, task: t.task, title: t.title, why: verdict.why });
    applyAll(ctx, s, verdict.met ? def.onMet : def.onMissed);
  }
}
