import { z } from 'zod';
import { parse } from 'yaml';
import { UNIT_CLASSES, type Campaign, type UnitClass } from '../core/campaign.js';
import { CARETAKER_STEPS, type CaretakerCatalogue, type CaretakerDef, type CaretakerStep } from '../core/caretaker/types.js';
import type { Condition } from '../core/world/types.js';
import { DEFAULT_CARETAKERS_YAML } from './default-caretakers.js';
import { condition, Reader } from './event-catalogue.js';
import { id, int, type Path } from './event-words.js';
import type { FileProblem } from './problems.js';
import type { Locate } from './yaml-io.js';

/**
 * Reads the caretakers catalogue (caretakers.yaml beside campaign.yaml;
 * docs/events.md, "Caretakers"): who plays a silent player's nation, as a
 * priority list of steps over the event catalogue's conditions. The built-in
 * caretakers (default-caretakers.ts) come first; an entry of the same id
 * replaces one, `defaults: false` leaves them out. Problems name the file, the
 * line and the key.
 */
const common = {
  when: z.array(z.unknown()).default([]),
  chance: int.min(0).max(100).optional(),
};
const withWhere = { ...common, where: z.array(z.unknown()).optional() };

const STEP_SHAPES = {
  keep_work: z.strictObject(common),
  defend: z.strictObject({ ...withWhere, fate: int.min(0).max(20).default(2), support: z.boolean().default(true) }),
  garrison: z.strictObject(withWhere),
  retake: z.strictObject({ ...withWhere, min: int.min(1).max(10).default(2), fate: int.min(0).max(20).default(0) }),
  raise: z.strictObject({ ...common, classes: z.array(z.enum(UNIT_CLASSES)).min(1).default(['infantry', 'cavalry', 'naval', 'siege']), keep: int.min(0).default(0) }),
  rest: z.strictObject(common),
} as const satisfies Record<CaretakerStep['kind'], z.ZodType>;

/** Where a defend step looks when it names no conditions: a foreign unit seen within 2 hexes of the settlement. */
const THREATENED: Condition = { kind: 'units_near', within: 2, whose: 'foreign', min: 1 };

const entryShape = z.strictObject({ id, name: z.string().min(1), steps: z.array(z.unknown()).min(1) });

function conditions(r: Reader, list: readonly unknown[] | undefined, path: Path, ids: ReadonlySet<string>): Condition[] | undefined {
  const read = (list ?? []).map((c, i) => condition(r, c, [...path, i], ids));
  return read.every(Boolean) ? (read as Condition[]) : undefined;
}

function readStep(r: Reader, value: unknown, path: Path, ids: ReadonlySet<string>): CaretakerStep | undefined {
  const kv = r.oneKey(value, path, 'step', CARETAKER_STEPS);
  if (!kv) return undefined;
  const [kind, raw] = kv as [CaretakerStep['kind'], unknown];
  const at: Path = [...path, kind];
  const given = r.leaf(STEP_SHAPES[kind], raw ?? {}, at) as Record<string, unknown> & { when: unknown[]; where?: unknown[]; chance?: number } | undefined;
  if (!given) return undefined;
  const when = conditions(r, given.when, [...at, 'when'], ids);
  const where = given.where === undefined ? (kind === 'defend' ? [THREATENED] : []) : conditions(r, given.where, [...at, 'where'], ids);
  if (!when || !where) return undefined;
  const base = { when, ...(given.chance !== undefined ? { chance: given.chance } : {}) };
  switch (kind) {
    case 'keep_work':
    case 'rest':
      return { kind, ...base };
    case 'defend':
      return { kind, ...base, where, fate: given.fate as number, support: given.support as boolean };
    case 'garrison':
      return { kind, ...base, where };
    case 'retake':
      return { kind, ...base, where, min: given.min as number, fate: given.fate as number };
    case 'raise':
      return { kind, ...base, classes: given.classes as UnitClass[], keep: given.keep as number };
  }
}

function readList(r: Reader, list: readonly unknown[], path: Path, ids: ReadonlySet<string>): Record<string, CaretakerDef> {
  const entries: Record<string, CaretakerDef> = {};
  list.forEach((x, i) => {
    const e = r.leaf(entryShape, x, [...path, i]);
    if (!e) return;
    if (entries[e.id]) r.problem([...path, i, 'id'], `caretaker "${e.id}" is listed twice`);
    const steps = e.steps.map((s, j) => readStep(r, s, [...path, i, 'steps', j], ids));
    if (steps.every(Boolean)) entries[e.id] = { id: e.id, name: e.name, steps: steps as CaretakerStep[] };
  });
  return entries;
}

/** The built-in caretakers, read as any caretakers.yaml is. */
export function defaultCaretakers(campaign: Campaign): Record<string, CaretakerDef> {
  const list = (parse(DEFAULT_CARETAKERS_YAML) as { caretakers: unknown[] }).caretakers;
  return Reader.builtIn('caretakers', campaign, (r) => readList(r, list, ['caretakers'], new Set()));
}

/** caretakers.yaml read and checked, or the problems that keep it out. */
export function readCaretakerCatalogue(value: unknown, locate: Locate, file: string, campaign: Campaign): { catalogue?: CaretakerCatalogue; problems: FileProblem[] } {
  const r = new Reader(file, locate, campaign);
  const top = r.catalogueTop(value, 'caretakers');
  if (!top) return { problems: r.problems };
  const own = readList(r, top.list, ['caretakers'], new Set(Object.keys(campaign.events?.entries ?? {})));
  if (r.problems.length) return { problems: r.problems };
  return { catalogue: { entries: { ...(top.defaults ? defaultCaretakers(campaign) : {}), ...own }, source: file }, problems: [] };
}
