import type { z } from 'zod';
import type { GameState } from '../core/state.js';
import { validate } from './problems.js';
import { stateFileSchema } from './schema.js';
import type { Locate } from './yaml-io.js';

/**
 * state.yaml checked against stateFileSchema, its units (a hundred thousand in a big campaign, nine tenths
 * of zod's time on a state) by a plain check that accepts only what zod surely accepts, and gives exactly
 * zod's value for it: a new object per unit, its keys in the schema's order. A state holding anything
 * else (a unit with a misspelt or unknown key, a bad id or hex, extra bonuses...) is checked by zod whole,
 * so every problem gets zod's words, path and line as before.
 *
 * The plain check is written for the unit schema as it is; should the schema change (its fields, their
 * order, types or checks), UNIT_SCHEMA no longer describes it and zod checks the units again (a test says
 * so, to have the check brought up to date).
 */
export function validateState(read: { value: unknown; locate: Locate }, file: string): GameState {
  const units = FAST_UNITS ? plainUnits(read.value) : undefined;
  if (units === undefined) return validate(stateFileSchema, read, file) as GameState;
  const state = validate(stateFileSchema, { value: { ...(read.value as object), units: {} }, locate: read.locate }, file) as GameState;
  state.units = units as GameState['units'];
  return state;
}

const ID = /^[a-z0-9][a-z0-9_-]*$/;
const HEX = /^\d+,\d+$/;

/**
 * The units record as zod would give it, or undefined where zod must look. zod gives a new record, the
 * keys in the same order, each unit a new object; the record read from the file (which nothing else holds)
 * is given its units' new objects in place instead, which spares making a dictionary of a hundred thousand
 * keys again. Nothing is changed unless every unit passes.
 */
function plainUnits(state: unknown): Record<string, unknown> | undefined {
  if (!isPlain(state)) return undefined;
  const units = (state as { units?: unknown }).units;
  if (!isPlain(units)) return undefined;
  const record = units as Record<string, unknown>;
  const keys = Object.keys(record);
  const checked = new Array<Record<string, unknown>>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key === '__proto__' || !ID.test(key)) return undefined;
    const unit = plainUnit(record[key]);
    if (unit === undefined) return undefined;
    checked[i] = unit;
  }
  for (let i = 0; i < keys.length; i++) record[keys[i]!] = checked[i];
  return record;
}

function isPlain(v: unknown): v is object {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

/** One unit in the schema's key order, or undefined where zod must look (extra bonuses always: their schema is large). */
function plainUnit(unit: unknown): Record<string, unknown> | undefined {
  if (!isPlain(unit)) return undefined;
  const u = unit as Record<string, unknown>;
  let optional = 0;
  for (const key of Object.keys(u)) {
    switch (key) {
      case 'id':
      case 'nation':
      case 'type':
      case 'hex':
      case 'health':
        break;
      case 'name':
      case 'aboard':
      case 'besieging':
      case 'builtTurn':
        optional++;
        break;
      default:
        return undefined;
    }
  }
  const { id, nation, type, name, hex, health, aboard, besieging, builtTurn } = u;
  if (!isId(id) || !isId(nation) || !isId(type) || typeof hex !== 'string' || !HEX.test(hex) || (health !== 'healthy' && health !== 'bloodied')) return undefined;
  const out: Record<string, unknown> = { id, nation, type };
  if (optional === 0) {
    out.hex = hex;
    out.health = health;
    return out;
  }
  if ('name' in u) {
    if (typeof name !== 'string') return undefined;
    out.name = name;
  }
  out.hex = hex;
  out.health = health;
  if ('aboard' in u) {
    if (!isId(aboard)) return undefined;
    out.aboard = aboard;
  }
  if ('besieging' in u) {
    if (!isId(besieging)) return undefined;
    out.besieging = besieging;
  }
  if ('builtTurn' in u) {
    if (!Number.isSafeInteger(builtTurn)) return undefined;
    out.builtTurn = builtTurn;
  }
  return out;
}

const isId = (v: unknown): v is string => typeof v === 'string' && ID.test(v);

/**
 * What plainUnits is written for: the units record of stateFileSchema, described by describeSchema. Kept
 * by hand with the check above; test/campaign/state-check.test.ts holds it to the schema.
 */
export const UNIT_SCHEMA =
  'record(string[regex /^[a-z0-9][a-z0-9_-]*$/], object{id: string[regex /^[a-z0-9][a-z0-9_-]*$/], nation: string[regex /^[a-z0-9][a-z0-9_-]*$/], ' +
  'type: string[regex /^[a-z0-9][a-z0-9_-]*$/], name: optional(string), hex: string[regex /^\\d+,\\d+$/], health: enum(healthy,bloodied), ' +
  'extraBonuses: optional(array(…)), aboard: optional(string[regex /^[a-z0-9][a-z0-9_-]*$/]), besieging: optional(string[regex /^[a-z0-9][a-z0-9_-]*$/]), ' +
  'builtTurn: optional(number[number_format safeint]) | never})';

/** A zod schema's structure as text: types, keys in order, checks; arrays' elements left out (the check defers them all). */
export function describeSchema(schema: z.ZodType): string {
  const def = (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
  const checks = def.checks?.length ? `[${def.checks.map((c) => describeCheck(c._zod.def)).join(', ')}]` : '';
  switch (def.type) {
    case 'record':
      return `record(${describeSchema(def.keyType!)}, ${describeSchema(def.valueType!)})${checks}`;
    case 'object':
      return `object{${Object.entries(def.shape!).map(([k, v]) => `${k}: ${describeSchema(v)}`).join(', ')} | ${def.catchall ? describeSchema(def.catchall) : 'strip'}}${checks}`;
    case 'optional':
      return `optional(${describeSchema(def.innerType!)})${checks}`;
    case 'array':
      return `array(…)${checks}`;
    case 'enum':
      return `enum(${Object.values(def.entries!).join(',')})${checks}`;
    default:
      return `${def.type}${checks}`;
  }
}

interface SchemaDef {
  type: string;
  checks?: { _zod: { def: Record<string, unknown> } }[];
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  entries?: Record<string, string | number>;
}

function describeCheck(check: Record<string, unknown>): string {
  const { check: kind, format, pattern, ...rest } = check;
  const more = Object.entries(rest).filter(([k, v]) => k !== 'error' && k !== 'abort' && k !== 'type' && typeof v !== 'function');
  const words: string[] = [];
  if (kind !== 'string_format') words.push(String(kind));
  if (typeof format === 'string') words.push(format);
  if (pattern instanceof RegExp) words.push(`/${pattern.source}/${pattern.flags}`);
  for (const [k, v] of more) words.push(`${k}=${JSON.stringify(v)}`);
  return words.join(' ');
}

const FAST_UNITS = describeSchema(stateFileSchema.shape.units) === UNIT_SCHEMA;
