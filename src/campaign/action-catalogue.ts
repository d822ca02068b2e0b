import { z } from 'zod';
import { parse } from 'yaml';
import { UNIT_CLASSES, type Campaign } from '../core/campaign.js';
import { ACTION_TARGETS, SECRETS, type ActionCatalogue, type ActionDef, type ActionEffect, type ActionModifier, type ActionOutcome, type ActionTargetKind } from '../core/world/action-types.js';
import { DEFAULT_EVENT_SETTINGS, ROLL_OUTCOMES, type EventScope } from '../core/world/types.js';
import { DEFAULT_ACTIONS_YAML } from './default-actions.js';
import { condition, EFFECT_KEYS, effect, Reader } from './event-catalogue.js';
import { id, int, type Path } from './event-words.js';
import type { FileProblem } from './problems.js';
import type { Locate } from './yaml-io.js';

/**
 * Reads the actions catalogue (actions.yaml beside campaign.yaml; docs/events.md,
 * "Actions", is its manual): the diplomatic units' and special units' actions,
 * each a target, a range, a roll and the effects of its outcomes, in the
 * event catalogue's vocabulary plus three effects only actions have (reveal,
 * damage, trade_route). The built-in catalogue (espionage, sabotage, preaching,
 * trade) comes first; an entry of the same id replaces one, `defaults: false`
 * leaves them out. Problems name the file, the line and the key.
 */
export const ACTION_EFFECT_KEYS = [...EFFECT_KEYS, 'reveal', 'damage', 'trade_route', 'catch'] as const;

const targetKinds = z.union([z.enum(ACTION_TARGETS), z.array(z.enum(ACTION_TARGETS)).min(1)]);
const outcome = z.strictObject({ actor: z.array(z.unknown()).default([]), target: z.array(z.unknown()).default([]) });

const entryShape = z.strictObject({
  id,
  name: z.string().min(1),
  verb: z.string().regex(/^[a-z][a-z ]*[a-z]$/, 'a verb is lower-case words, e.g. "spies on"').optional(),
  units: z
    .strictObject({ class: z.union([z.enum(UNIT_CLASSES), z.array(z.enum(UNIT_CLASSES))]).optional(), type: z.union([id, z.array(id)]).optional() })
    .refine((u) => u.class !== undefined || u.type !== undefined, 'name a unit class (class: diplomatic) or unit types (type: mortar_cannon)'),
  target: targetKinds,
  whose: z.enum(['own', 'foreign', 'any']).default('any'),
  range: int.min(0).max(12).default(1),
  length: int.min(1).max(40).default(12),
  roll: z
    .strictObject({
      beat: int.min(0).max(30),
      great_by: int.min(1).max(12).default(3),
      modifiers: z.array(z.strictObject({ value: int.min(-6).max(6), when: z.unknown(), of: z.enum(['target', 'actor']).default('target'), label: z.string().min(1).optional() })).default([]),
    })
    .optional(),
  fail: outcome.optional(),
  success: outcome.optional(),
  great: outcome.optional(),
  noticed: z.array(z.enum(ROLL_OUTCOMES)).default([]),
  named: z.array(z.enum(ROLL_OUTCOMES)).default([]),
  income: int.min(0).max(100).default(0),
});

/** The scope a target-side effect sees: where it falls. */
const SCOPE_OF: Record<ActionTargetKind, EventScope> = { nation: 'nation', settlement: 'settlement', hex: 'hex', unit: 'unit', route: 'settlement', structure: 'hex' };

function actionEffect(r: Reader, value: unknown, path: Path, scope: EventScope, ids: ReadonlySet<string>, kinds: readonly ActionTargetKind[]): ActionEffect | undefined {
  const key = typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 ? Object.keys(value)[0]! : undefined;
  const v = key === undefined ? undefined : (value as Record<string, unknown>)[key];
  const at: Path = [...path, key ?? ''];
  switch (key) {
    case 'reveal': {
      const x = r.leaf(z.union([z.enum(SECRETS), z.strictObject({ what: z.enum(SECRETS), within: int.min(0).max(6).default(2) })]), v, at);
      if (x === undefined) return undefined;
      const given = typeof x === 'string' ? { what: x, within: 2 } : x;
      return { kind: 'reveal', what: given.what, within: given.within };
    }
    case 'damage': {
      const x = r.leaf(z.union([z.null(), z.strictObject({ delay: int.min(1).max(10).default(1) })]), v, at);
      if (x === undefined && v !== null) return undefined;
      if (!kinds.every((k) => k === 'settlement' || k === 'hex' || k === 'structure')) r.problem(at, '"damage" needs an action aimed at a settlement or an external structure (target: settlement, structure)');
      return { kind: 'damage', delay: x?.delay ?? 1 };
    }
    case 'catch': {
      const x = r.leaf(z.union([int.min(0).max(12), z.strictObject({ beat: int.min(0).max(12) })]), v, at);
      return x === undefined ? undefined : { kind: 'catch', beat: typeof x === 'number' ? x : x.beat };
    }
    case 'trade_route': {
      if (v !== null && !(typeof v === 'object' && v !== null && Object.keys(v).length === 0)) r.problem(at, '"trade_route" takes nothing: write "- trade_route: ~"');
      if (!kinds.includes('route')) r.problem(at, '"trade_route" needs an action aimed at two settlements (target: route)');
      return { kind: 'trade_route' };
    }
    default:
      if (key !== undefined && !(ACTION_EFFECT_KEYS as readonly string[]).includes(key)) {
        r.problem(at, `unknown effect "${key}" (known: ${ACTION_EFFECT_KEYS.join(', ')})`);
        return undefined;
      }
      return effect(r, value, path, scope, ids, DEFAULT_EVENT_SETTINGS);
  }
}

function readOutcome(r: Reader, given: z.infer<typeof outcome> | undefined, path: Path, kinds: readonly ActionTargetKind[], ids: ReadonlySet<string>): ActionOutcome | undefined {
  if (!given) return undefined;
  // The actor's unit effects fall on the acting unit; the target's on the place aimed at.
  const targetScope = kinds.length === 1 ? SCOPE_OF[kinds[0]!] : kinds.includes('nation') ? 'nation' : 'hex';
  const actor = given.actor.map((x, i) => actionEffect(r, x, [...path, 'actor', i], 'unit', ids, kinds));
  const target = given.target.map((x, i) => actionEffect(r, x, [...path, 'target', i], targetScope, ids, kinds));
  if (!actor.every(Boolean) || !target.every(Boolean)) return undefined;
  for (const [i, e] of actor.entries()) if (e?.kind === 'damage' || e?.kind === 'trade_route' || e?.kind === 'catch') r.problem([...path, 'actor', i], `"${e.kind}" falls on the target: list it under target`);
  for (const [i, e] of target.entries()) if (e?.kind === 'reveal') r.problem([...path, 'target', i], '"reveal" tells the actor: list it under actor');
  return { actor: actor as ActionEffect[], target: target as ActionEffect[] };
}

function readAction(r: Reader, value: unknown, path: Path, ids: ReadonlySet<string>): ActionDef | undefined {
  const e = r.leaf(entryShape, value, path);
  if (!e) return undefined;
  const kinds = typeof e.target === 'string' ? [e.target] : e.target;
  if (kinds.includes('route') && kinds.length > 1) r.problem([...path, 'target'], 'a route action aims at two settlements only: write "target: route" alone');
  const classes = e.units.class === undefined ? [] : typeof e.units.class === 'string' ? [e.units.class] : e.units.class;
  const types = e.units.type === undefined ? [] : typeof e.units.type === 'string' ? [e.units.type] : e.units.type;
  for (const t of types) if (!r.hasUnitType(t)) r.problem([...path, 'units', 'type'], `no nation has a unit type "${t}"`);
  const modifiers = (e.roll?.modifiers ?? []).map((m, i) => {
    const when = condition(r, m.when, [...path, 'roll', 'modifiers', i, 'when'], ids);
    return when && ({ value: m.value, when: when, of: m.of, ...(m.label ? { label: m.label } : {}) } satisfies ActionModifier);
  });
  const outcomes: ActionDef['outcomes'] = {};
  let ok = modifiers.every(Boolean);
  for (const k of ROLL_OUTCOMES) {
    const o = readOutcome(r, e[k], [...path, k], kinds, ids);
    if (e[k] && !o) ok = false;
    if (o) outcomes[k] = o;
  }
  if (!e.roll && (e.fail || e.great)) r.problem(path, 'an action without a roll always succeeds: write its effects under success, or give it a roll');
  if (!ok) return undefined;
  return {
    id: e.id,
    name: e.name,
    verb: e.verb ?? e.id.replace(/[-_]+/g, ' '),
    units: { classes, types },
    targets: kinds,
    whose: e.whose,
    range: e.range,
    length: e.length,
    ...(e.roll ? { roll: { beat: e.roll.beat, greatBy: e.roll.great_by, modifiers: modifiers as ActionModifier[] } } : {}),
    outcomes,
    noticed: e.noticed,
    named: e.named,
    income: e.income,
  };
}

function readList(r: Reader, list: readonly unknown[], path: Path, ids: ReadonlySet<string>): Record<string, ActionDef> {
  const entries: Record<string, ActionDef> = {};
  const seen = new Set<string>();
  list.forEach((x, i) => {
    const aid = (x as { id?: unknown } | null)?.id;
    if (typeof aid === 'string') {
      if (seen.has(aid)) r.problem([...path, i, 'id'], `action "${aid}" is listed twice`);
      seen.add(aid);
    }
    const def = readAction(r, x, [...path, i], ids);
    if (def) entries[def.id] = def;
  });
  return entries;
}

/** The built-in actions (default-actions.ts), read as any actions.yaml is. */
export function defaultActions(campaign: Campaign): Record<string, ActionDef> {
  const list = (parse(DEFAULT_ACTIONS_YAML) as { actions: unknown[] }).actions;
  return Reader.builtIn('actions', campaign, (r) => readList(r, list, ['actions'], new Set(Object.keys(campaign.events?.entries ?? {}))));
}

/** actions.yaml read and checked (absent: the built-in catalogue), or the problems that keep it out. */
export function readActionCatalogue(value: unknown, locate: Locate, file: string, campaign: Campaign): { catalogue?: ActionCatalogue; problems: FileProblem[] } {
  const r = new Reader(file, locate, campaign);
  const top = r.catalogueTop(value, 'actions');
  if (!top) return { problems: r.problems };
  const own = readList(r, top.list, ['actions'], new Set(Object.keys(campaign.events?.entries ?? {})));
  if (r.problems.length) return { problems: r.problems };
  const entries = { ...(top.defaults ? defaultActions(campaign) : {}), ...own };
  // Two actions may share a verb only when one is for the nation's own targets and the other for foreign ones.
  const overlap = (a: ActionDef, b: ActionDef) => a.whose === 'any' || b.whose === 'any' || a.whose === b.whose;
  top.list.forEach((x, i) => {
    const def = own[(x as { id: string }).id];
    const other = def && Object.values(entries).find((o) => o.id !== def.id && o.verb === def.verb && overlap(o, def));
    if (def && other) r.problem(['actions', i, 'verb'], `"${def.verb}" is also the verb of "${other.id}": an order could not tell them apart (give one another verb, or make one whose: own and the other whose: foreign)`);
  });
  // Structures that unlock actions (campaign.yaml `unlocksActions`, docs/rules.md X6) name actions of this catalogue.
  for (const [kind, list] of [['structures', campaign.structures], ['externals', campaign.externals]] as const) {
    for (const st of Object.values<{ id: string; unlocksActions?: string[] }>(list)) {
      for (const a of st.unlocksActions ?? []) if (!entries[a]) r.problem([], `campaign.yaml ${kind}.${st.id}.unlocksActions names "${a}", which is no action of this catalogue (actions are: ${Object.keys(entries).sort().join(', ')})`);
    }
  }
  if (r.problems.length) return { problems: r.problems };
  return { catalogue: { entries, source: file }, problems: [] };
}
