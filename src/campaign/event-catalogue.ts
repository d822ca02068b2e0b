import { z } from 'zod';
import { SETTLEMENT_LEVELS, UNIT_CLASSES, type Campaign, type Yield } from '../core/campaign.js';
import {
  DEFAULT_EVENT_SETTINGS,
  EVENT_SCOPES,
  EVENT_TONES,
  type Condition,
  type Effect,
  type EventCatalogue,
  type EventDef,
  type EventScope,
  type EventSettings,
  type TaskDef,
  type WeightModifier,
} from '../core/world/types.js';
import { asHexKey } from '../core/ids.js';
import { LUCK_SKILLS } from '../core/state.js';
import { luckOf } from '../core/aspects/store.js';
import { pathText, type FileProblem } from './problems.js';
import { readRoll, readTask } from './event-rolls.js';
import { id, int, ladderInt, type Path } from './event-words.js';
import type { Locate } from './yaml-io.js';

/**
 * Reads the event catalogue (events.yaml beside campaign.yaml; docs/events.md
 * is its manual). Conditions and effects are one-key maps, as a GM writes
 * them (`- renown: 10`, `- season: Winter`); every problem names the file,
 * the line and the key, says what is valid, and nothing wrong gets through.
 */
export type { Path } from './event-words.js';
const range = z.strictObject({ min: int.optional(), max: int.optional() }).refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, 'min is above max');
const unitClass = z.enum(UNIT_CLASSES);
const hex = z.string().regex(/^\d+,\d+$/, 'a hex is written "col,row", e.g. "12,7"');

export const CONDITION_KEYS = ['prosperity', 'happiness', 'renown', 'fate', 'season', 'nation', 'turn', 'has_level', 'lacks_level', 'has_structure', 'lacks_structure', 'battlements', 'health', 'units_near', 'terrain_near', 'at_war', 'captured', 'goal', 'happened', 'unit_at', 'holds_settlement', 'has_external', 'all', 'any', 'not'] as const;
export const EFFECT_KEYS = ['renown', 'fate', 'prosperity', 'happiness', 'unit_lost', 'unit_bloodied', 'unit_gained', 'structure_destroyed', 'battlement_damaged', 'battlement_destroyed', 'resource_revealed', 'unlock', 'revolt', 'civil_war', 'follow_up', 'task', 'message', 'aspect', 'compel'] as const;

const settingsSchema = z.strictObject({
  draws: int.min(0).max(10).default(DEFAULT_EVENT_SETTINGS.draws),
  quiet: int.min(0).max(100).default(DEFAULT_EVENT_SETTINGS.quiet),
  mood: z.number().min(1).max(10).default(DEFAULT_EVENT_SETTINGS.mood),
  rebellion: z
    .strictObject({
      enabled: z.boolean().default(DEFAULT_EVENT_SETTINGS.rebellion.enabled),
      happinessAtOrBelow: int.default(DEFAULT_EVENT_SETTINGS.rebellion.happinessAtOrBelow),
      base: int.min(0).max(100).default(DEFAULT_EVENT_SETTINGS.rebellion.base),
      step: int.min(0).max(100).default(DEFAULT_EVENT_SETTINGS.rebellion.step),
      nation: id.optional(),
      garrison: z.strictObject({ unitType: id.optional(), count: int.min(0).max(6).default(1) }).default({ count: 1 }),
    })
    .default(DEFAULT_EVENT_SETTINGS.rebellion),
  explore: z
    .strictObject({ beat: ladderInt(0, 12).default(DEFAULT_EVENT_SETTINGS.explore.beat), within: int.min(0).max(6).default(DEFAULT_EVENT_SETTINGS.explore.within) })
    .default(DEFAULT_EVENT_SETTINGS.explore),
});

export class Reader {
  readonly problems: FileProblem[] = [];
  /** Tasks defined by the entries' effects, by id; and where each `task: <id>` reference stands. */
  readonly tasks = new Map<string, TaskDef>();
  readonly taskRefs: { id: string; path: Path }[] = [];
  constructor(
    private readonly file: string,
    private readonly locate: Locate,
    readonly campaign: Campaign,
  ) {}

  /** A built-in catalogue (shipped as YAML text) read as a GM's file is; a problem there is the program's own mistake. */
  static builtIn<T>(what: string, campaign: Campaign, read: (r: Reader) => T): T {
    const r = new Reader(`(built-in ${what})`, () => undefined, campaign);
    const entries = read(r);
    if (r.problems.length) throw new Error(`the built-in ${what} do not read: ${r.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
    return entries;
  }

  /** A catalogue file's top: whether the built-in entries are kept (`defaults`, by default yes) and its list under `key`. */
  catalogueTop(value: unknown, key: string): { defaults: boolean; list: unknown[] } | undefined {
    const top = this.leaf(z.strictObject({ defaults: z.boolean().default(true), [key]: z.array(z.unknown()).default([]) }), value ?? {}, []);
    // Both have defaults: the schema fills them in.
    return top && { defaults: top.defaults as boolean, list: top[key] as unknown[] };
  }

  problem(path: Path, message: string): void {
    const line = this.locate(path);
    this.problems.push({ file: this.file, path: pathText(path), ...(line !== undefined ? { line } : {}), message });
  }

  leaf<T extends z.ZodType>(schema: T, value: unknown, path: Path): z.infer<T> | undefined {
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    for (const issue of r.error.issues) this.problem([...path, ...(issue.path as Path)], issue.message);
    return undefined;
  }

  /** A one-key map such as `{ season: Winter }`: its key and value. */
  oneKey(value: unknown, path: Path, what: string, known: readonly string[]): [string, unknown] | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.keys(value).length !== 1) {
      this.problem(path, `a ${what} is a map with one key, e.g. "- ${what === 'effect' ? 'renown: 10' : 'season: Winter'}" (known: ${known.join(', ')})`);
      return undefined;
    }
    const [key, v] = Object.entries(value as Record<string, unknown>)[0]!;
    if (!known.includes(key)) {
      this.problem([...path, key], `unknown ${what} "${key}"${suggest(key, known)} (known: ${known.join(', ')})`);
      return undefined;
    }
    return [key, v];
  }

  hasUnitType(t: string): boolean {
    return Object.values(this.campaign.nations).some((n) => n.unitTypes[t] !== undefined);
  }
}

function suggest(word: string, known: readonly string[]): string {
  const close = known.find((k) => k.startsWith(word.slice(0, 3)) || word.startsWith(k.slice(0, 4)));
  return close ? `; did you mean "${close}"?` : '';
}

export function condition(r: Reader, value: unknown, path: Path, ids: ReadonlySet<string>): Condition | undefined {
  const kv = r.oneKey(value, path, 'condition', CONDITION_KEYS);
  if (!kv) return undefined;
  const [key, v] = kv;
  const at: Path = [...path, key];
  switch (key) {
    case 'prosperity':
    case 'happiness':
    case 'renown':
    case 'fate':
    case 'turn':
    case 'battlements': {
      const rg = r.leaf(range, v, at);
      return rg && { kind: key, range: rg };
    }
    case 'season': {
      const seasons = r.leaf(z.union([z.string(), z.array(z.string()).min(1)]), v, at);
      if (seasons === undefined) return undefined;
      const list = typeof seasons === 'string' ? [seasons] : seasons;
      for (const s of list) if (!r.campaign.calendar.seasons.includes(s)) r.problem(at, `"${s}" is not a season of this campaign (seasons: ${r.campaign.calendar.seasons.join(', ')})`);
      return { kind: 'season', seasons: list };
    }
    case 'nation': {
      const given = r.leaf(z.union([id, z.array(id).min(1)]), v, at);
      if (given === undefined) return undefined;
      const nations = typeof given === 'string' ? [given] : given;
      for (const n of nations) if (!r.campaign.nations[n as keyof typeof r.campaign.nations]) r.problem(at, `no nation "${n}" in campaign.yaml`);
      return { kind: 'nation', nations };
    }
    case 'has_level':
    case 'lacks_level': {
      const level = r.leaf(z.enum(SETTLEMENT_LEVELS), v, at);
      return level && { kind: key, level };
    }
    case 'has_structure':
    case 'lacks_structure': {
      const structure = r.leaf(id, v, at);
      if (structure && !r.campaign.structures[structure]) r.problem(at, `no structure "${structure}" in campaign.yaml (known: ${Object.keys(r.campaign.structures).join(', ')})`);
      return structure ? { kind: key, structure } : undefined;
    }
    case 'health': {
      const health = r.leaf(z.enum(['healthy', 'bloodied']), v, at);
      return health && { kind: 'health', health };
    }
    case 'units_near': {
      const u = r.leaf(z.strictObject({ within: int.min(0).max(6), whose: z.enum(['own', 'foreign', 'any']).default('any'), class: unitClass.optional(), type: z.union([id, z.array(id).min(1)]).optional(), min: int.min(1).default(1) }), v, at);
      const types = u?.type === undefined ? undefined : typeof u.type === 'string' ? [u.type] : u.type;
      for (const t of types ?? []) if (!r.hasUnitType(t)) r.problem([...at, 'type'], `no nation has a unit type "${t}"`);
      return u && { kind: 'units_near', within: u.within, whose: u.whose, min: u.min, ...(u.class ? { class: u.class } : {}), ...(types ? { types } : {}) };
    }
    case 'terrain_near': {
      const t = r.leaf(z.strictObject({ terrain: z.string(), within: int.min(0).max(6).default(0) }), v, at);
      if (t && !r.campaign.rules.terrain[t.terrain]) r.problem([...at, 'terrain'], `no terrain "${t.terrain}" (known: ${Object.keys(r.campaign.rules.terrain).join(', ')})`);
      return t && { kind: 'terrain_near', terrain: t.terrain, within: t.within };
    }
    case 'at_war':
    case 'captured': {
      const b = r.leaf(z.boolean(), v, at);
      return b === undefined ? undefined : { kind: key, value: b };
    }
    case 'goal': {
      const g = r.leaf(z.strictObject({ id, done: z.boolean().default(true) }), v, at);
      if (g && !Object.values(r.campaign.nations).some((n) => n.goals.some((x) => x.id === g.id))) r.problem([...at, 'id'], `no nation has a goal "${g.id}"`);
      return g && { kind: 'goal', goal: g.id, done: g.done };
    }
    case 'happened': {
      const h = r.leaf(z.union([id, z.strictObject({ event: id, within: int.min(1).optional(), value: z.boolean().default(true) })]), v, at);
      if (h === undefined) return undefined;
      const c = typeof h === 'string' ? { event: h, value: true } : h;
      if (!ids.has(c.event)) r.problem(at, `no event "${c.event}" in the catalogue`);
      return { kind: 'happened', event: c.event, value: c.value, ...(c.within !== undefined ? { within: c.within } : {}) };
    }
    case 'unit_at': {
      const u = r.leaf(z.union([hex, z.strictObject({ hex, class: unitClass.optional() })]), v, at);
      if (u === undefined) return undefined;
      const c = typeof u === 'string' ? { hex: u } : u;
      return { kind: 'unit_at', hex: asHexKey(c.hex), ...(c.class ? { class: c.class } : {}) };
    }
    case 'holds_settlement': {
      const sid = r.leaf(id, v, at);
      return sid === undefined ? undefined : { kind: 'holds_settlement', settlement: sid };
    }
    case 'has_external': {
      const x = r.leaf(id, v, at);
      if (x && !r.campaign.externals[x]) r.problem(at, `no external structure "${x}" in campaign.yaml (known: ${Object.keys(r.campaign.externals).join(', ')})`);
      return x === undefined ? undefined : { kind: 'has_external', structure: x };
    }
    case 'all':
    case 'any': {
      if (!Array.isArray(v) || v.length === 0) {
        r.problem(at, `"${key}" takes a list of conditions`);
        return undefined;
      }
      const of = v.map((x, i) => condition(r, x, [...at, i], ids));
      return of.every((x) => x !== undefined) ? { kind: key, of: of } : undefined;
    }
    case 'not': {
      const of = condition(r, v, at, ids);
      return of && { kind: 'not', of };
    }
  }
  return undefined;
}

/** Effects that need a settlement, a unit or a place to fall on, and the scopes that give one. */
const NEEDS: Partial<Record<Effect['kind'], readonly EventScope[]>> = {
  unit_lost: ['unit', 'settlement', 'hex'],
  unit_bloodied: ['unit', 'settlement', 'hex'],
  structure_destroyed: ['settlement', 'hex'],
  battlement_damaged: ['settlement', 'hex'],
  battlement_destroyed: ['settlement', 'hex'],
  revolt: ['settlement'],
};

export function effect(r: Reader, value: unknown, path: Path, scope: EventScope, ids: ReadonlySet<string>, settings: EventSettings): Effect | undefined {
  const kv = r.oneKey(value, path, 'effect', EFFECT_KEYS);
  if (!kv) return undefined;
  const [key, v] = kv;
  const at: Path = [...path, key];
  const scopes = NEEDS[key as Effect['kind']];
  if (scopes && !scopes.includes(scope)) r.problem(at, `"${key}" needs an event of scope ${scopes.join(' or ')}; this one's scope is ${scope}`);
  const none = z.union([z.null(), z.strictObject({})]);
  switch (key) {
    case 'renown':
    case 'fate':
    case 'prosperity':
    case 'happiness': {
      const amount = r.leaf(int, v, at);
      return amount === undefined ? undefined : { kind: key, amount };
    }
    case 'unit_lost':
    case 'unit_bloodied': {
      const u = r.leaf(z.union([z.null(), z.strictObject({ class: unitClass.optional() })]), v, at);
      if (u === undefined) return undefined;
      return { kind: key, ...(u?.class ? { class: u.class } : {}) };
    }
    case 'unit_gained': {
      const u = r.leaf(
        z
          .strictObject({ type: id.optional(), class: unitClass.optional(), atCap: z.enum(['forgo', 'replace']).default('forgo'), name: z.string().optional() })
          .refine((x) => (x.type === undefined) !== (x.class === undefined), 'name either a unit type (type: marines) or a class (class: infantry)'),
        v,
        at,
      );
      if (u?.type && !r.hasUnitType(u.type)) r.problem([...at, 'type'], `no nation has a unit type "${u.type}"`);
      return u && { kind: 'unit_gained', atCap: u.atCap, ...(u.type ? { unitType: u.type } : {}), ...(u.class ? { class: u.class } : {}), ...(u.name ? { name: u.name } : {}) };
    }
    case 'structure_destroyed': {
      const s = r.leaf(z.union([z.null(), id]), v, at);
      if (s === undefined) return undefined;
      if (s && !r.campaign.structures[s]) r.problem(at, `no structure "${s}" in campaign.yaml`);
      return { kind: 'structure_destroyed', ...(s ? { structure: s } : {}) };
    }
    case 'battlement_damaged':
    case 'battlement_destroyed':
    case 'revolt': {
      if (r.leaf(none, v, at) === undefined && v !== null) return undefined;
      if (key === 'revolt' && !settings.rebellion.nation) r.problem(at, 'a revolt needs settings.rebellion.nation: the nation risen settlements pass to');
      return { kind: key };
    }
    case 'resource_revealed': {
      const x = r.leaf(z.strictObject({ within: int.min(0).max(12).default(3), kind: z.string().optional() }), v ?? {}, at);
      return x && { kind: 'resource_revealed', within: x.within, ...(x.kind ? { resourceKind: x.kind } : {}) };
    }
    case 'unlock': {
      const x = r.leaf(z.strictObject({ unitType: id.optional(), structure: id.optional() }).refine((u) => u.unitType || u.structure, 'name a unitType or a structure to unlock'), v, at);
      if (x?.unitType && !r.hasUnitType(x.unitType)) r.problem([...at, 'unitType'], `no nation has a unit type "${x.unitType}"`);
      if (x?.structure && !r.campaign.structures[x.structure]) r.problem([...at, 'structure'], `no structure "${x.structure}" in campaign.yaml`);
      return x && { kind: 'unlock', ...(x.unitType ? { unitType: x.unitType } : {}), ...(x.structure ? { structure: x.structure } : {}) };
    }
    case 'civil_war': {
      // `- civil_war: { into: free-silverfall, settlements: 2, happiness: 3 }` (docs/events.md, rules.md L3).
      const x = r.leaf(
        z.strictObject({ into: id, settlements: z.union([int.min(1).max(50), z.array(id).min(1)]).default(1), prosperity: int.optional(), happiness: int.optional() }),
        v,
        at,
      );
      if (x === undefined) return undefined;
      const into = r.campaign.nations[x.into as keyof typeof r.campaign.nations];
      if (!into) r.problem([...at, 'into'], `no nation "${x.into}" in campaign.yaml: declare the nation in waiting there, with breaksFrom`);
      else if (!into.breaksFrom) r.problem([...at, 'into'], `nation "${x.into}" must say breaksFrom: <the nation it breaks from> in campaign.yaml`);
      return { kind: 'civil_war', into: x.into, settlements: x.settlements, ...(x.prosperity !== undefined ? { prosperity: x.prosperity } : {}), ...(x.happiness !== undefined ? { happiness: x.happiness } : {}) };
    }
    case 'compel': {
      // `- compel: { aspect: Hated Slavers, text: "…", then: slave-revolt }` (docs/events.md, rules.md A9).
      const x = r.leaf(z.strictObject({ aspect: z.string().min(1).max(60), text: z.string().min(1).max(500), then: id.optional() }), v, at);
      if (x === undefined) return undefined;
      if (x.then && !ids.has(x.then)) r.problem([...at, 'then'], `no event "${x.then}" in the catalogue`);
      if (!r.campaign.rules.fate.aspects) r.problem(at, 'aspects are off in this campaign: set rules.fate.aspects: true in campaign.yaml');
      return { kind: 'compel', aspect: x.aspect, text: x.text, ...(x.then ? { then: x.then } : {}) };
    }
    case 'follow_up': {
      const x = r.leaf(z.union([id, z.strictObject({ event: id, in: int.min(1).max(50).default(1) })]), v, at);
      if (x === undefined) return undefined;
      const f = typeof x === 'string' ? { event: x, in: 1 } : x;
      if (!ids.has(f.event)) r.problem(at, `no event "${f.event}" in the catalogue`);
      return { kind: 'follow_up', event: f.event, in: f.in };
    }
    case 'task': {
      if (typeof v === 'string') {
        r.taskRefs.push({ id: v, path: at });
        return { kind: 'task', task: v };
      }
      const task = readTask(r, v, at, scope, ids, settings);
      return task && { kind: 'task', task: task.id };
    }
    case 'message': {
      const text = r.leaf(z.string().min(1), v, at);
      return text === undefined ? undefined : { kind: 'message', text };
    }
    case 'aspect': {
      // `- aspect: Favourable Winds` or `- aspect: { name: Plague Winds, free: 1, for: anyone }` (docs/events.md).
      const x = r.leaf(
        z.union([
          z.string().min(1).max(60),
          z.strictObject({ name: z.string().min(1).max(60), free: int.min(0).max(5).default(0), for: z.enum(['nation', 'anyone']).default('nation'), boost: z.boolean().optional(), secret: z.boolean().optional(), helps: z.enum(LUCK_SKILLS).optional(), hinders: z.enum(LUCK_SKILLS).optional() }),
        ]),
        v,
        at,
      );
      if (x === undefined) return undefined;
      const a = typeof x === 'string' ? { name: x, free: 0, for: 'nation' as const } : x;
      if (a.name.includes('"')) r.problem(at, 'an aspect\'s name holds no double quotes');
      if (!r.campaign.rules.fate.aspects) r.problem(at, 'aspects are off in this campaign: set rules.fate.aspects: true in campaign.yaml');
      return { kind: 'aspect', name: a.name, free: a.free, for: a.for, ...('boost' in a && a.boost ? { boost: true as const } : {}), ...('secret' in a && a.secret ? { secret: true as const } : {}), ...('helps' in a || 'hinders' in a ? luckOf(a) : {}) };
    }
  }
  return undefined;
}

const entryShape = z.strictObject({
  id,
  title: z.string().min(1),
  text: z.string().min(1),
  scope: z.enum(EVENT_SCOPES).default('nation'),
  tone: z.enum(EVENT_TONES),
  weight: z.number().min(0, 'a weight cannot be below zero').default(10),
  once: z.boolean().default(false),
  drawn: z.boolean().default(true),
  public: z.string().min(1).optional(),
  conditions: z.array(z.unknown()).default([]),
  modifiers: z.array(z.strictObject({ factor: z.number().min(0, 'a factor cannot be below zero'), when: z.unknown() })).default([]),
  effects: z.array(z.unknown()).default([]),
  roll: z.unknown().optional(),
});

/** One catalogue entry (also a GM's one-off event in _gm.yaml), checked against the campaign. */
export function readEntry(r: Reader, value: unknown, path: Path, ids: ReadonlySet<string>, settings: EventSettings): EventDef | undefined {
  const e = r.leaf(entryShape, value, path);
  if (!e) return undefined;
  const conditions = e.conditions.map((c, i) => condition(r, c, [...path, 'conditions', i], ids));
  const modifiers = e.modifiers.map((m, i) => {
    const when = condition(r, m.when, [...path, 'modifiers', i, 'when'], ids);
    return when && ({ factor: m.factor, when } satisfies WeightModifier);
  });
  const effects = e.effects.map((x, i) => effect(r, x, [...path, 'effects', i], e.scope, ids, settings));
  const roll = e.roll === undefined ? undefined : readRoll(r, e.roll, [...path, 'roll'], e.scope, ids, settings);
  if (!conditions.every(Boolean) || !modifiers.every(Boolean) || !effects.every(Boolean) || (e.roll !== undefined && !roll)) return undefined;
  return {
    id: e.id,
    title: e.title,
    text: e.text,
    scope: e.scope,
    tone: e.tone,
    weight: e.weight,
    once: e.once,
    drawn: e.drawn,
    ...(e.public ? { public: e.public } : {}),
    ...(roll ? { roll } : {}),
    conditions: conditions as Condition[],
    modifiers: modifiers as WeightModifier[],
    effects: effects as Effect[],
  };
}

/** events.yaml read and checked: the catalogue, or the problems that keep it out. */
export function readEventCatalogue(value: unknown, locate: Locate, file: string, campaign: Campaign): { catalogue?: EventCatalogue; problems: FileProblem[] } {
  const r = new Reader(file, locate, campaign);
  const top = r.leaf(z.strictObject({ settings: z.unknown().optional(), events: z.array(z.unknown()).default([]) }), value ?? {}, []);
  if (!top) return { problems: r.problems };
  const settings = r.leaf(settingsSchema, top.settings ?? {}, ['settings']);
  if (!settings) return { problems: r.problems };
  const rb = settings.rebellion;
  if (rb.nation) {
    const rebels = campaign.nations[rb.nation as keyof typeof campaign.nations];
    if (!rebels) r.problem(['settings', 'rebellion', 'nation'], `no nation "${rb.nation}" in campaign.yaml: declare the rebels there (with rebels: true)`);
    else if (!rebels.rebels) r.problem(['settings', 'rebellion', 'nation'], `nation "${rb.nation}" must say rebels: true in campaign.yaml`);
    else if (rb.garrison.unitType && !rebels.unitTypes[rb.garrison.unitType]) r.problem(['settings', 'rebellion', 'garrison', 'unitType'], `${rb.nation} has no unit type "${rb.garrison.unitType}"`);
  } else if (rb.enabled) r.problem(['settings', 'rebellion', 'nation'], 'rebellion needs the nation risen settlements pass to');
  const ids = new Set<string>();
  top.events.forEach((e, i) => {
    const eid = (e as { id?: unknown } | null)?.id;
    if (typeof eid !== 'string') return;
    if (ids.has(eid)) r.problem(['events', i, 'id'], `event "${eid}" is listed twice`);
    ids.add(eid);
  });
  const entries: Record<string, EventDef> = {};
  top.events.forEach((e, i) => {
    const def = readEntry(r, e, ['events', i], ids, settings);
    if (def) entries[def.id] = def;
  });
  for (const ref of r.taskRefs) if (!r.tasks.has(ref.id)) r.problem(ref.path, `no task "${ref.id}" is defined in the catalogue (define it once with its id, turns and conditions)`);
  for (const t of r.tasks.keys()) if (ids.has(t)) r.problem(['events'], `task "${t}" has the id of an event: "answer ${t}" must name one thing`);
  if (r.problems.length) return { problems: r.problems };
  return { catalogue: { settings: settings, entries, tasks: Object.fromEntries(r.tasks), source: file }, problems: [] };
}

/** A GM's one-off event in _gm.yaml, checked like a catalogue entry. */
export function readOneOffEvent(value: unknown, locate: Locate, file: string, path: Path, campaign: Campaign): { def?: EventDef; problems: FileProblem[] } {
  const r = new Reader(file, locate, campaign);
  const ids = new Set(Object.keys(campaign.events?.entries ?? {}));
  const settings = campaign.events?.settings ?? DEFAULT_EVENT_SETTINGS;
  const def = readEntry(r, value, path, ids, settings);
  // A roll or a task must still be known to the catalogue next turn: one-offs live only in this _gm.yaml.
  if (def?.roll) r.problem([...path, 'roll'], 'a one-off cannot ask for a roll: write the event in events.yaml (drawn: false) and inject it by id');
  if (r.tasks.size) r.problem([...path, 'effects'], 'a one-off cannot set a new task: define it in events.yaml and set it here with "task: <id>"');
  for (const ref of r.taskRefs) if (!campaign.events?.tasks[ref.id]) r.problem(ref.path, `no task "${ref.id}" in the catalogue`);
  return r.problems.length ? { problems: r.problems } : { def: def!, problems: [] };
}

/**
 * A goal's reward written as a list of effects (campaign.yaml): Renown, Fate
 * and indicators become its yield, as a map reward would; units, unlocks,
 * discoveries and messages stay effects, applied when the goal is achieved.
 */
export function readRewardEffects(list: readonly unknown[], path: Path, file: string, campaign: Campaign): { reward: Yield; effects: Effect[]; problems: FileProblem[] } {
  const r = new Reader(file, () => undefined, campaign);
  const reward: Yield = {};
  const effects: Effect[] = [];
  list.forEach((value, i) => {
    const e = effect(r, value, [...path, i], 'nation', new Set(), DEFAULT_EVENT_SETTINGS);
    if (!e) return;
    if (e.kind === 'task' || e.kind === 'follow_up') r.problem([...path, i], `a goal's reward cannot set a ${e.kind === 'task' ? 'task' : 'follow-up'}: those belong to events.yaml`);
    else if (e.kind === 'renown' || e.kind === 'fate' || e.kind === 'prosperity' || e.kind === 'happiness') reward[e.kind] = (reward[e.kind] ?? 0) + e.amount;
    else effects.push(e);
  });
  return { reward, effects, problems: r.problems };
}
