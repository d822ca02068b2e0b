import type { Campaign } from '../core/campaign.js';
import type { LoggedEvent } from '../core/events.js';
import type { NationState } from '../core/state.js';
import { describeCondition } from '../core/world/conditions.js';
import { ladderValue, rollName } from './ladder.js';
import type { AwaitedRollView, AwaitingView, CompelView, TaskView } from './types.js';

/**
 * What awaits the nation's hand after this turn: the rolls its events asked
 * (answered in next turn's orders, with the exact line to write) and its
 * timed tasks with the turns left. Built from the nation's own log lines of
 * the turn and its own state, so it costs nothing for a nation with neither.
 */
export function awaitingOf(campaign: Campaign, ns: NationState, mine: readonly LoggedEvent[], turn: number): AwaitingView | undefined {
  const rolls: AwaitedRollView[] = [];
  const die = rollName(campaign);
  for (const e of mine) {
    if (e.type !== 'roll_asked') continue;
    const choice = e.options.length > 1;
    const first = e.options.find((o) => o.id !== e.default) ?? e.options[0]!;
    rolls.push({
      event: e.event,
      title: e.title,
      prompt: e.prompt,
      choice,
      options: e.options.map((o) => ({ id: o.id, text: o.text, beat: o.beat, beatText: ladderValue(campaign, o.beat), need: o.beat + 1, isDefault: o.id === e.default })),
      die,
      default: e.default,
      turn: e.turn,
      answer: choice ? `answer ${e.event} ${first.id}` : `answer ${e.event}`,
      answerWithFate: `${choice ? `answer ${e.event} ${first.id}` : `answer ${e.event}`} fate 2`,
    });
  }
  const compels: CompelView[] = mine.flatMap((e) =>
    e.type === 'compel_offered' ? [{ id: e.id, aspect: e.aspect, text: e.text, turn: e.turn, cost: e.cost, accept: `answer ${e.id} accept`, refuse: `answer ${e.id} refuse` }] : [],
  );
  const tasks: TaskView[] = (ns.tasks ?? []).map((t) => {
    const def = campaign.events?.tasks[t.task];
    const left = t.deadline - turn;
    const what =
      def?.pay !== undefined
        ? `you pay ${def.pay} Renown`
        : `${(def?.conditions ?? []).map(describeCondition).join(' and ')}${def?.hold ? `, at every turn until turn ${t.deadline}` : ''}`;
    return {
      id: t.task,
      title: t.title,
      text: t.text,
      deadline: t.deadline,
      left: `${left} turn${left === 1 ? '' : 's'} left`,
      what,
      ...(def?.pay !== undefined ? { answer: `answer ${t.task}` } : {}),
    };
  });
  return rolls.length || tasks.length || compels.length ? { rolls, tasks, ...(compels.length ? { compels } : {}) } : undefined;
}
