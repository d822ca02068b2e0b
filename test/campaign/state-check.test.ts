import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import jsyaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { CampaignError, validate } from '../../src/campaign/problems.js';
import { stateFileSchema } from '../../src/campaign/schema.js';
import { describeSchema, UNIT_SCHEMA, validateState } from '../../src/campaign/state-check.js';

/**
 * validateState must give exactly what zod's stateFileSchema gives — the same state, keys in the same
 * order, or the same problems with the same words, paths and lines — whatever the units hold.
 */
const locate = (path: readonly (string | number)[]) => path.length;
type Outcome = { ok: true; value: unknown } | { ok: false; message: string };
function outcome(f: () => unknown): Outcome {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    if (!(e instanceof CampaignError)) throw e;
    return { ok: false, message: e.message };
  }
}
function keyOrder(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(keyOrder);
  if (v && typeof v === 'object') return Object.entries(v).map(([k, x]) => [k, keyOrder(x)]);
  return null;
}
function sameAsZod(value: unknown): boolean {
  const ours = outcome(() => validateState({ value, locate }, 'state.yaml'));
  const zod = outcome(() => validate(stateFileSchema, { value, locate }, 'state.yaml'));
  expect(ours.ok).toBe(zod.ok);
  if (ours.ok && zod.ok) {
    expect(isDeepStrictEqual(ours.value, zod.value)).toBe(true);
    expect(keyOrder(ours.value)).toEqual(keyOrder(zod.value));
  } else if (!ours.ok && !zod.ok) expect(ours.message).toBe(zod.message);
  return ours.ok;
}

/** Mostly what zod accepts, now and then what it does not. */
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 12 }, { arbitrary: bad, weight: 1 });
const rarely = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(null), weight: 20 }, { arbitrary: arb, weight: 1 });
const id = mostly(fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,8}$/), fc.constantFrom('', 'A1', '-a', 'a b', 'é', '__proto__', 'constructor', '1.5'));
const hex = mostly(fc.tuple(fc.nat(500), fc.nat(500)).map(([c, r]) => `${c},${r}`), fc.constantFrom('', '1', '1, 2', '-1,2', 'a,b', '1,2,3'));
const anything = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}));
const unitField = {
  id,
  nation: id,
  type: id,
  name: mostly(fc.string(), anything),
  hex,
  health: mostly(fc.constantFrom('healthy', 'bloodied'), fc.constantFrom('Healthy', 'dead', '')),
  extraBonuses: fc.oneof(fc.constant([]), fc.constant([{ value: 1 }]), fc.constant([{ value: 'x' }])),
  aboard: id,
  besieging: id,
  builtTurn: mostly(fc.integer(), fc.constantFrom(1.5, 2 ** 53, -(2 ** 53), NaN, Infinity, '3', null)),
};
/** A unit with each field present or not, any of them perhaps of another type, perhaps an unknown key, in any order. */
const unit = fc
  .record({
    fields: fc.record(unitField, { requiredKeys: ['id', 'nation', 'type', 'hex', 'health'] }).map((u) => {
      // Extra bonuses are always left to zod: rare here, so that most states take the plain check.
      if (u.extraBonuses !== undefined && u.id.length % 4 !== 0) delete u.extraBonuses;
      return u;
    }),
    missing: rarely(fc.constantFrom('id', 'nation', 'type', 'hex', 'health')),
    odd: rarely(fc.tuple(fc.constantFrom('id', 'name', 'hex', 'builtTurn', 'aboard', 'health'), anything)),
    unknown: rarely(fc.constantFrom('speed', 'Name', 'hp', '__proto__')),
    order: fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
  })
  .map(({ fields, missing, odd, unknown, order }) => {
    const u: Record<string, unknown> = { ...fields };
    if (missing) delete u[missing];
    if (odd) u[odd[0]] = odd[1];
    if (unknown) u[unknown] = 1;
    const keys = Object.keys(u).map((k, i) => [k, order[i]!] as const).sort((a, b) => a[1] - b[1]).map(([k]) => k);
    return Object.fromEntries(keys.map((k) => [k, u[k]]));
  });

const base = jsyaml.load(readFileSync(join(import.meta.dirname, '../../campaigns/silversheen/turns/0000/state.yaml'), 'utf8'), { schema: jsyaml.CORE_SCHEMA }) as Record<string, unknown>;

describe('validateState', () => {
  it('knows the unit schema as it is (when the schema changes, bring the plain check and UNIT_SCHEMA up to date)', () => {
    expect(describeSchema(stateFileSchema.shape.units)).toBe(UNIT_SCHEMA);
  });

  it('gives zod’s state, or zod’s problems, for any units', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.dictionary(id, unit, { maxKeys: 4 }), fc.nat(9), (units, breakOther) => {
        const value = { ...base, units, ...(breakOther === 0 ? { seq: -1 } : {}) };
        if (sameAsZod(value) && Object.keys(units).length > 0) accepted++;
      }),
      { numRuns: 2000 },
    );
    expect(accepted).toBeGreaterThan(150);
  });

  it('gives zod’s answer for a state whose units are not a map, or which is not a map', () => {
    for (const units of [undefined, null, [], 'units', 3, Object.create(null) as object]) sameAsZod({ ...base, units });
    for (const value of [undefined, null, [], 'state', { units: {} }]) sameAsZod(value);
  });

  it('reads a real state as zod does', () => {
    expect(sameAsZod(base)).toBe(true);
    const world = jsyaml.load(readFileSync(join(import.meta.dirname, '../fixtures/orders/world/turns/0003/state.yaml'), 'utf8'), { schema: jsyaml.CORE_SCHEMA });
    expect(sameAsZod(world)).toBe(true);
  });
});
