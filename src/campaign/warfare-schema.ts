import { z } from 'zod';
import { LADDER_HELP, parseLadder } from '../core/ladder.js';
import { UNIT_SKILLS, type Catalogue, type UnitSkill } from '../core/warfare/types.js';

/**
 * The schema of `rules.warfare.catalogue` (docs/rules.md W2): unit and
 * rampart stat blocks a campaign adds or overrides. Skills are ladder values
 * written as numbers or words ("Decent" is not on our ladder: write "Fair (+2)" or 2).
 */
const ladder = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = parseLadder(v);
  if (n === undefined) {
    ctx.addIssue({ code: 'custom', message: `not a ladder value: ${String(v)}; write ${LADDER_HELP}` });
    return z.NEVER;
  }
  return n;
});
const skill = z.enum(UNIT_SKILLS as [UnitSkill, ...UnitSkill[]]);
const raise = z.strictObject({ skill, to: ladder });
const text = z.string().min(1).max(80);

const unitType = z.strictObject({
  name: text,
  skills: z.partialRecord(skill, ladder),
  aspects: z.array(text).default([]),
  /** Which of its aspects are weaknesses, invoked by the other side against it (docs/rules.md W20). */
  against: z.array(text).optional(),
  stunts: z
    .strictObject({
      aim: raise.optional(),
      charge: raise.optional(),
      homeland: raise.optional(),
      ranged: z.strictObject({ skill, maxRange: z.number().int().min(0).max(15) }).optional(),
      pinned: z.boolean().optional(),
      breaches: z.boolean().optional(),
      marchAndFight: z.boolean().optional(),
    })
    .default({}),
});

const rampartType = z.strictObject({
  name: text,
  armor: ladder,
  wallStrength: z.number().int().min(0).max(10),
  consequences: z.array(z.number().int().min(1).max(10)).max(3).default([]),
  aspects: z.array(text).default([]),
});

const key = z.string().regex(/^[a-zA-Z][a-zA-Z0-9_-]*$/, 'a name of letters, digits, - and _');

export const warfareCatalogueSchema = z.strictObject({
  units: z.record(key, unitType).optional(),
  ramparts: z.record(key, rampartType).optional(),
});

/** A campaign's catalogue overrides, or the precise problems with them. */
export function parseWarfareCatalogue(given: unknown): { ok: true; value: Partial<Catalogue> } | { ok: false; problems: string[] } {
  const r = warfareCatalogueSchema.safeParse(given);
  if (r.success) return { ok: true, value: r.data as Partial<Catalogue> };
  return { ok: false, problems: r.error.issues.map((i) => `${i.path.join('.') || '(catalogue)'}: ${i.message}`) };
}
