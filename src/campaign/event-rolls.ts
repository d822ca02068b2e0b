import { z } from 'zod';
import { ROLL_OUTCOMES, type Condition, type Effect, type EventScope, type EventSettings, type RollDef, type RollOption, type TaskDef } from '../core/world/types.js';
import { condition, effect, type Reader } from './event-catalogue.js';
import { id, int, ladderInt, type Path } from './event-words.js';

/**
 * The two parts of a catalogue entry that reach into a later turn: the roll
 * an event asks of the nation (answered in next turn's orders) and the timed
 * task an effect sets. Both hold effects of their own, read with the same
 * vocabulary as the entry's (docs/events.md, "Rolls" and "Timed tasks").
 */
const effectList = z.array(z.unknown());

const outcomeShape = {
  beat: ladderInt(0, 30),
  greatBy: int.min(1).max(12).default(3),
  fail: effectList.optional(),
  success: effectList.optional(),
  great: effectList.optional(),
};

const optionShape = z.strictObject({ id, text: z.string().min(1), ...outcomeShape });

const rollShape = z.union([
  z.strictObject({ prompt: z.string().min(1).optional(), options: z.array(optionShape).min(2, 'a choice needs two options or more (or write one roll without options)'), default: id.optional() }),
  z.strictObject({ prompt: z.string().min(1).optional(), ...outcomeShape }),
]);

function effectsOf(r: Reader, list: unknown[] | undefined, path: Path, scope: EventScope, ids: ReadonlySet<string>, settings: EventSettings): Effect[] | undefined {
  if (!list) return [];
  const out = list.map((x, i) => effect(r, x, [...path, i], scope, ids, settings));
  return out.every(Boolean) ? (out as Effect[]) : undefined;
}

export function readRoll(r: Reader, value: unknown, path: Path, scope: EventScope, ids: ReadonlySet<string>, settings: EventSettings): RollDef | undefined {
  const given = r.leaf(rollShape, value, path);
  if (!given) return undefined;
  const written = 'options' in given ? given.options.map((o, i) => ({ o, at: [...path, 'options', i] as Path })) : [{ o: { ...given, id: 'roll', text: 'Roll the die' }, at: path }];
  const options: RollOption[] = [];
  for (const { o, at } of written) {
    const outcomes: RollOption['outcomes'] = {};
    for (const k of ROLL_OUTCOMES) {
      const list = effectsOf(r, o[k], [...at, k], scope, ids, settings);
      if (!list) return undefined;
      if (o[k]) outcomes[k] = list;
    }
    options.push({ id: o.id, text: o.text, beat: o.beat, greatBy: o.greatBy, outcomes });
  }
  const seen = new Set<string>();
  for (const [i, o] of options.entries()) {
    if (seen.has(o.id)) r.problem([...path, 'options', i, 'id'], `option "${o.id}" is listed twice`);
    seen.add(o.id);
  }
  const fallback = 'options' in given ? (given.default ?? options[0]!.id) : 'roll';
  if (!seen.has(fallback)) r.problem([...path, 'default'], `the default "${fallback}" is not one of the options (${[...seen].join(', ')})`);
  return { prompt: given.prompt ?? 'Roll the die.', options, default: fallback };
}

const taskShape = z
  .strictObject({
    id,
    text: z.string().min(1),
    turns: int.min(1).max(50),
    conditions: z.array(z.unknown()).default([]),
    hold: z.boolean().default(false),
    pay: int.min(1).optional(),
    onMet: effectList.default([]),
    onMissed: effectList.default([]),
  })
  .refine((t) => (t.pay === undefined) !== (t.conditions.length === 0), 'a task is met by its conditions or by a payment (pay: N, with "answer <task>"): give one of them');

export function readTask(r: Reader, value: unknown, path: Path, scope: EventScope, ids: ReadonlySet<string>, settings: EventSettings): TaskDef | undefined {
  const t = r.leaf(taskShape, value, path);
  if (!t) return undefined;
  if (r.tasks.has(t.id)) {
    r.problem([...path, 'id'], `task "${t.id}" is defined twice; set it again elsewhere with "task: ${t.id}"`);
    return undefined;
  }
  const conditions = t.conditions.map((c, i) => condition(r, c, [...path, 'conditions', i], ids));
  if (t.hold && t.pay !== undefined) r.problem([...path, 'hold'], 'a paid task has nothing to hold');
  // Registered before its own effects are read, so a task may set itself again (a recurring duty).
  const def: TaskDef = { id: t.id, text: t.text, turns: t.turns, conditions: [], hold: t.hold, ...(t.pay !== undefined ? { pay: t.pay } : {}), onMet: [], onMissed: [] };
  r.tasks.set(t.id, def);
  const onMet = effectsOf(r, t.onMet, [...path, 'onMet'], scope, ids, settings);
  const onMissed = effectsOf(r, t.onMissed, [...path, 'onMissed'], scope, ids, settings);
  if (!conditions.every(Boolean) || !onMet || !onMissed) return undefined;
  def.conditions = conditions as Condition[];
  def.onMet = onMet;
  def.onMissed = onMissed;
  return def;
}
