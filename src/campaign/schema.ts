import { z } from 'zod';
import { SETTLEMENT_LEVELS, UNIT_CLASSES } from '../core/campaign.js';
import { LUCK_SKILLS } from '../core/state.js';
import { unsafeCharacter, type TextShape } from '../text/unsafe-text.js';
import { LADDER_HELP, parseLadder } from '../core/ladder.js';
import { canonicalTimeZone, TIME_ZONE_HINT } from './time-zone.js';
import { warfareCatalogueSchema } from './warfare-schema.js';

/**
 * Schemas for the files a GM writes by hand. Strict objects: a misspelt key is
 * an error that names it, not a setting silently ignored.
 */
const id = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'use lower-case letters, digits, - and _ (e.g. "iron-guard")');
/** Names and texts the reports print: no control, line-break or direction character (unsafe-text.ts). */
const visibleText = (shape: TextShape) =>
  z.string().superRefine((text, ctx) => {
    const bad = unsafeCharacter(text, shape);
    if (bad) ctx.addIssue({ code: 'custom', message: `holds ${bad.label} at character ${bad.index + 1}; ${shape === 'line' ? 'a name is one line of plain visible text' : 'write plain visible text'}` });
  });
const name = visibleText('line');
/** Longer texts (goals, abilities) may be YAML blocks over several lines. */
const prose = visibleText('lines');
const hex = z.string().regex(/^\d+,\d+$/, 'a hex is written "col,row", e.g. "12,7"');
const unitClass = z.enum(UNIT_CLASSES);
const level = z.enum(SETTLEMENT_LEVELS);

export const bonusSchema = z.strictObject({
  value: z.number().int(),
  vs: z
    .strictObject({
      classes: z.array(z.union([unitClass, z.literal('structure')])).optional(),
      affiliation: name.optional(),
    })
    .optional(),
  situation: z.enum(['open', 'siege']).optional(),
  label: name.optional(),
});

const yieldSchema = z.strictObject({
  renown: z.number().int().optional(),
  fate: z.number().int().optional(),
  prosperity: z.number().int().optional(),
  happiness: z.number().int().optional(),
});

export const unitTypeSchema = z.strictObject({
  name,
  class: unitClass,
  speed: z.number().int().min(0).max(50),
  affiliation: name.default('common'),
  bonuses: z.array(bonusSchema).default([]),
  requiresStructure: id.optional(),
  cost: z.number().int().min(0).optional(),
  canFound: z.boolean().optional(),
  canConstruct: z.array(id).optional(),
  capacity: z.number().int().min(0).optional(),
  locked: z.boolean().optional(),
});

const structureSchema = z.strictObject({
  name,
  cost: z.number().int().min(0).optional(),
  turns: z.number().int().min(1).optional(),
  grants: z
    .strictObject({
      scope: z.enum(['circumstantial', 'global']),
      bonus: bonusSchema,
      classes: z.array(unitClass).min(1),
    })
    .optional(),
  onComplete: yieldSchema.optional(),
  perTurn: yieldSchema.optional(),
  extraBuilds: z.strictObject({ military: z.number().int().optional(), diplomatic: z.number().int().optional() }).optional(),
  taxRelief: z.number().int().min(1).optional(),
  locked: z.boolean().optional(),
  unlocksActions: z.array(id).optional(),
});

const externalSchema = z.strictObject({
  name,
  cost: z.number().int().min(0).default(0),
  turns: z.number().int().min(1).default(1),
  requiresResource: z.string().optional(),
  onComplete: yieldSchema.optional(),
  perTurn: yieldSchema.optional(),
  extraBuilds: z.strictObject({ military: z.number().int().optional(), diplomatic: z.number().int().optional() }).optional(),
  unlocksActions: z.array(id).optional(),
});

const goalSchema = z.strictObject({
  id,
  text: prose,
  condition: z
    .discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('gm') }),
      z.strictObject({ kind: z.literal('hold_settlements'), count: z.number().int().min(1) }),
      z.strictObject({ kind: z.literal('control_hex'), hex }),
      z.strictObject({ kind: z.literal('build_external'), structure: id }),
      z.strictObject({ kind: z.literal('win_battles'), count: z.number().int().min(1) }),
      z.strictObject({ kind: z.literal('capture_settlement'), settlement: id.optional() }),
    ])
    .default({ kind: 'gm' }),
  // A map of Renown, Fate and indicators, or a list of effects as events.yaml writes them (docs/events.md).
  reward: z.union([yieldSchema, z.array(z.unknown())]).default({}),
});

const startUnitSchema = z.strictObject({
  id,
  type: id,
  name: name.optional(),
  hex,
  health: z.enum(['healthy', 'bloodied']).optional(),
});

const startSettlementSchema = z.strictObject({
  id,
  name,
  level,
  hex,
  structures: z.array(id).default([]),
  battlements: z.array(z.number().int().min(1)).default([]),
});

const abilitySchema = z.strictObject({
  name,
  text: prose.optional(),
  bonuses: z.array(z.strictObject({ bonus: bonusSchema, classes: z.array(unitClass).min(1) })).optional(),
  costs: z.array(z.strictObject({ of: z.enum(['unit', 'structure']), classes: z.array(unitClass).min(1).optional(), change: z.number().int() })).optional(),
  income: yieldSchema.optional(),
  /** Added to the rolls of the nation's units' actions (actions.yaml): all, or those named. */
  actions: z.array(z.strictObject({ value: z.number().int().min(-6).max(6), actions: z.array(id).min(1).optional() })).optional(),
});

const nationSchema = z.strictObject({
  name,
  leader: name,
  ability: prose.default(''),
  /** The ability the engine applies, from `abilities`. */
  leaderAbility: id.optional(),
  /** The start unit the leader rides with. */
  leaderUnit: id.optional(),
  caps: z.strictObject({ military: z.number().int().min(0), diplomatic: z.number().int().min(0) }),
  start: z.strictObject({
    renown: z.number().int(),
    fate: z.number().int(),
    prosperity: z.number().int(),
    happiness: z.number().int(),
  }),
  unitTypes: z.record(id, unitTypeSchema).default({}),
  /** Names a unit raised without one takes, in order (the first no unit of the nation bears); after them, "2nd Marines". */
  unitNames: z.array(name).optional(),
  goals: z.array(goalSchema).default([]),
  settlements: z.array(startSettlementSchema).default([]),
  units: z.array(startUnitSchema).default([]),
  externals: z.array(z.strictObject({ id, type: id, hex })).default([]),
  /** Mail addresses of the nation's player(s); used by the mail loop. */
  email: z.array(z.string()).default([]),
  /** The player's own time zone (IANA): deadlines in their mail and reports are shown in it too. */
  timeZone: z
    .string()
    .superRefine((zone, ctx) => {
      if (canonicalTimeZone(zone) === undefined) ctx.addIssue({ code: 'custom', message: `unknown time zone "${zone}"; ${TIME_ZONE_HINT}` });
    })
    // Shown as players read it: "europe/berlin" is Europe/Berlin.
    .transform((zone) => canonicalTimeZone(zone) ?? zone)
    .optional(),
  /** The independents risen settlements pass to (events.yaml settings.rebellion.nation). */
  rebels: z.boolean().optional(),
  /**
   * A nation in waiting (docs/rules.md L3): out of play until an event's `civil_war` effect splits it off the
   * nation named here; it knows that nation's unit types.
   */
  breaksFrom: id.optional(),
  /**
   * The first turn whose state holds the nation, when it came into the campaign after turn 0 (`nation split`,
   * `nation add`): the turns before it are read and re-rendered as they were, without it.
   */
  joined: z.number().int().min(0).optional(),
  /** Who plays the nation when its player is silent, over the campaign's `seats:` (src/seats/settings.ts checks it). */
  seat: z.unknown().optional(),
});

/** Where an aspect sits (state.yaml, campaign.yaml's `aspects`, the GM's `aspect` action). */
export const aspectPlaceSchema = z.union([
  z.strictObject({ nation: id }),
  z.strictObject({ settlement: id }),
  z.strictObject({ unit: id }),
  z.strictObject({ hex, radius: z.number().int().min(0).max(20).optional() }),
]);

const aspectName = name.refine((n) => n.trim().length > 0 && n.length <= 60, 'an aspect is named in 1 to 60 characters');

/** A helpful or hindering aspect's skill (docs/rules.md A8): one of LUCK_SKILLS. */
const luckSkill = z.enum(LUCK_SKILLS);
const notBoth = (a: { helps?: unknown; hinders?: unknown }) => !(a.helps && a.hinders);
const NOT_BOTH = 'an aspect helps or hinders, not both';

/** A Fate aspect in play (docs/rules.md A1-A6). */
export const aspectStateSchema = z.strictObject({
  name: aspectName,
  on: aspectPlaceSchema,
  owner: id.optional(),
  backfired: id.optional(),
  free: z.number().int().min(0).max(20),
  boost: z.literal(true).optional(),
  secret: z.literal(true).optional(),
  helps: luckSkill.optional(),
  hinders: luckSkill.optional(),
  since: z.number().int().min(0),
}).refine(notBoth, NOT_BOTH);

/** An aspect as the GM writes one (campaign.yaml `aspects`, _gm.yaml `aspect`): free invokes default to none. */
export const aspectWrittenSchema = z.strictObject({
  name: aspectName,
  on: aspectPlaceSchema,
  owner: id.optional(),
  free: z.number().int().min(0).max(20).default(0),
  boost: z.boolean().optional(),
  secret: z.boolean().optional(),
  /** A helpful or hindering aspect (docs/rules.md A8): free fortune or misfortune on its holder's checks of this skill. */
  helps: luckSkill.optional(),
  hinders: luckSkill.optional(),
});

const mapSchema = z.strictObject({
  width: z.number().int().min(1).max(2000),
  height: z.number().int().min(1).max(2000),
  legend: z.record(z.string().length(1), name),
  rows: z.array(z.string()),
  resources: z.array(z.strictObject({ hex, kind: name, name, hidden: z.boolean().optional() })).default([]),
  places: z.record(name, hex).default({}),
});

export const campaignFileSchema = z.strictObject({
  name: id,
  title: name,
  seed: z.union([z.string(), z.number()]).transform(String),
  calendar: z.strictObject({ seasons: z.array(name).min(1), startYear: z.number().int() }).default({ seasons: ['Summer', 'Winter'], startYear: 1 }),
  map: mapSchema,
  rules: z.record(z.string(), z.unknown()).default({}),
  structures: z.record(id, structureSchema).default({}),
  externals: z.record(id, externalSchema).default({}),
  /** Unit types every nation may build, besides its own. */
  unitTypes: z.record(id, unitTypeSchema).default({}),
  nations: z.record(id, nationSchema),
  /** Leaders' abilities as data (docs/rules.md L1). */
  abilities: z.record(id, abilitySchema).default({}),
  /** The abilities an heir may bring; absent: every ability. */
  succession: z.strictObject({ abilities: z.array(id) }).optional(),
  /** Fate aspects in play from the start (rules.fate.aspects). */
  aspects: z.array(aspectWrittenSchema).optional(),
  /** Settings of the shells around the engine (mail, schedule, reports); each shell validates its own block. */
  mail: z.unknown().optional(),
  schedule: z.unknown().optional(),
  reports: z.unknown().optional(),
  /** What happens to a silent player's seat, and who may take it (src/seats/settings.ts). */
  seats: z.unknown().optional(),
});

export type CampaignFile = z.infer<typeof campaignFileSchema>;

const unitStateSchema = z.strictObject({
  id,
  nation: id,
  type: id,
  name: z.string().optional(),
  hex,
  health: z.enum(['healthy', 'bloodied']),
  extraBonuses: z.array(bonusSchema).optional(),
  aboard: id.optional(),
  besieging: id.optional(),
  builtTurn: z.number().int().optional(),
});

const projectSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('unit'), unitType: id, name: z.string().optional(), extraBonuses: z.array(bonusSchema).optional() }),
  z.strictObject({ kind: z.literal('structure'), structure: id }),
  z.strictObject({ kind: z.literal('battlement'), level: z.number().int() }),
  z.strictObject({ kind: z.literal('upgrade'), to: level }),
  z.strictObject({ kind: z.literal('settlement'), settlementId: id, name: z.string() }),
  z.strictObject({ kind: z.literal('external'), externalId: id, structure: id }),
]);

const eventTargetSchema = z.discriminatedUnion('scope', [
  z.strictObject({ scope: z.literal('nation') }),
  z.strictObject({ scope: z.literal('settlement'), id, hex }),
  z.strictObject({ scope: z.literal('unit'), id, hex }),
  z.strictObject({ scope: z.literal('hex'), hex }),
]);

export const stateFileSchema = z.strictObject({
  turn: z.number().int().min(0),
  seq: z.number().int().min(0),
  nations: z.record(
    id,
    z.strictObject({
      id,
      renown: z.number().int(),
      fate: z.number().int(),
      prosperity: z.number().int(),
      happiness: z.number().int(),
      goals: z.array(z.strictObject({ id, done: z.boolean(), doneTurn: z.number().int().optional() })),
      battlesWon: z.number().int().min(0),
      missedTurns: z.number().int().min(0),
      unitSeq: z.number().int().min(0),
      alive: z.boolean(),
      history: z.array(z.strictObject({ event: id, turn: z.number().int() })).optional(),
      followUps: z.array(z.strictObject({ event: id, turn: z.number().int(), target: eventTargetSchema })).optional(),
      unlocked: z.strictObject({ unitTypes: z.array(id).optional(), structures: z.array(id).optional() }).optional(),
      revealed: z.array(hex).optional(),
      rolls: z.array(z.strictObject({ event: id, turn: z.number().int(), target: eventTargetSchema })).optional(),
      compels: z.array(z.strictObject({ id, aspect: aspectName, text: z.string().min(1), then: id.optional(), turn: z.number().int(), target: eventTargetSchema })).optional(),
      tasks: z
        .array(z.strictObject({ task: id, event: id, title: z.string(), text: z.string(), set: z.number().int(), deadline: z.number().int(), target: eventTargetSchema }))
        .optional(),
      leader: z.strictObject({ name: z.string().nullable(), ability: id.optional(), unit: id.optional(), since: z.number().int() }).optional(),
      heir: z.strictObject({ name: z.string(), ability: id.optional() }).optional(),
      deck: z.strictObject({ discards: z.array(z.number().int().min(0).max(80)).max(80) }).optional(),
      seat: z.strictObject({ policy: z.enum(['caretaker', 'disorder']), since: z.number().int().min(1) }).optional(),
    }),
  ),
  units: z.record(id, unitStateSchema),
  settlements: z.record(
    id,
    z.strictObject({
      id,
      name: z.string(),
      nation: id,
      level,
      hex,
      home: z.boolean(),
      captured: z.boolean(),
      structures: z.array(id),
      battlements: z.array(z.number().int()),
      gainedTurn: z.number().int().optional(),
      takenFrom: id.optional(),
    }),
  ),
  externals: z.record(id, z.strictObject({ id, type: id, nation: id, hex, builtBy: id.optional() })),
  builds: z.array(
    z.strictObject({
      id: z.string(),
      nation: id,
      hex,
      settlement: id.optional(),
      builder: id.optional(),
      project: projectSchema,
      turnsLeft: z.number().int().min(0),
      startedTurn: z.number().int(),
    }),
  ),
  tradeRoutes: z.array(z.strictObject({ id: z.string(), from: id, to: id, action: id, opened: z.number().int() })).optional(),
  aspects: z.array(aspectStateSchema).optional(),
});

/** A forced die: an integer -4..100, or a ladder value written as words ("Great", "Great (+4)", "+4"). */
const forcedValue = z.union([z.number(), z.string()]).transform((v, c) => {
  const n = parseLadder(v);
  if (n === undefined || n < -4 || n > 100) {
    c.addIssue({ code: 'custom', message: `a forced value is a die's face (1..100) or a Fate result (-4..+4): ${LADDER_HELP}` });
    return z.NEVER;
  }
  return n;
});

export const gmOrdersSchema = z.strictObject({
  turn: z.number().int().min(1),
  actions: z
    .array(
      z.discriminatedUnion('kind', [
        z.strictObject({
          kind: z.literal('adjust'),
          nation: id,
          renown: z.number().int().optional(),
          fate: z.number().int().optional(),
          prosperity: z.number().int().optional(),
          happiness: z.number().int().optional(),
          reason: z.string(),
        }),
        z.strictObject({ kind: z.literal('complete_goal'), nation: id, goal: id, reason: z.string().optional() }),
        z.strictObject({ kind: z.literal('leader_dies'), nation: id, reason: z.string().min(1) }),
        z.strictObject({ kind: z.literal('heir'), nation: id, name, ability: id.optional() }),
        // A catalogue event by id, or a one-off written here (title, text, tone, effects...; see docs/events.md).
        z
          .looseObject({ kind: z.literal('event'), nation: id, event: id.optional(), target: z.string().optional() })
          .refine((a) => a.event !== undefined || 'title' in a, 'name a catalogue event (event: <id>) or write a one-off (title, text, tone, effects)'),
        // A die's face (1..100), or in a Fate campaign the Fate result, as a number or a ladder word ("Great (+4)"; docs/rules.md F6).
        z.strictObject({ kind: z.literal('roll'), scope: z.string().min(1), values: z.array(forcedValue).min(1) }),
        // Fate aspects (rules.fate.aspects): the GM places one, or takes one out of play by name.
        aspectWrittenSchema.extend({ kind: z.literal('aspect') }),
        z.strictObject({ kind: z.literal('remove_aspect'), name: aspectName, on: aspectPlaceSchema.optional() }),
        // A compel (docs/rules.md A9): the nation answers next turn, accept (a fate point; `then` befalls it) or refuse (pay one).
        z.strictObject({ kind: z.literal('compel'), nation: id, id, aspect: aspectName, text: z.string().min(1).max(500), then: id.optional() }),
      ]),
    )
    .default([]),
});

/** Rule overrides: any subset of the settings, checked against the defaults' shape. */
export const rulesSchema = z.strictObject({
  indicatorMin: z.number().int(),
  indicatorMax: z.number().int(),
  renownPerProsperity: z.number().int(),
  fatePerHappiness: z.number().int(),
  settlementIncome: z.record(level, z.strictObject({ renown: z.number().int(), fate: z.number().int() })),
  settlementTax: z.record(level, z.number().int()),
  lossTax: z.boolean(),
  upgradeTax: z.boolean(),
  captureTaxRelief: z.boolean(),
  unitCost: z.record(unitClass, z.number().int().min(0)),
  costPerBonusPoint: z.number().int().min(0),
  maxBonusKinds: z.number().int().min(0),
  fateTable: z.array(z.number().int().min(0)),
  maxSupportUnits: z.number().int().min(0),
  maxSettlementDefenders: z.number().int().min(1),
  battlementCost: z.record(z.string().regex(/^\d+$/), z.number().int().min(0)),
  maxBattlements: z.number().int().min(0),
  newSettlementCost: z.number().int().min(0),
  upgradeCost: z.strictObject({ town: z.number().int().min(0), city: z.number().int().min(0) }),
  buildsPerSettlement: z.strictObject({ military: z.number().int().min(0), diplomatic: z.number().int().min(0) }),
  terrain: z.record(z.string(), z.strictObject({ cost: z.number().int().min(1), water: z.boolean(), impassable: z.boolean() })),
  minimumMove: z.boolean(),
  abandonWork: z.enum(['allow', 'confirm']),
  classBonuses: z.record(unitClass, z.array(bonusSchema)),
  siege: z.strictObject({
    poisonTarget: z.number().int(),
    sortieTarget: z.strictObject({ healthy: z.number().int(), bloodied: z.number().int() }),
    extraActionEvery: z.number().int().min(1),
    captureUndefended: z.boolean(),
  }),
  externals: z.strictObject({ maxDefenders: z.number().int().min(0), captureClasses: z.array(unitClass), takeDiplomats: z.boolean() }),
  victoryRenown: z.number().int().min(0),
  advanceAfterVictory: z.boolean(),
  nmrFlagAfter: z.number().int().min(1),
  disorder: z.strictObject({ happiness: z.number().int().min(-6).max(0) }),
  sight: z.strictObject({ unit: z.number().int().min(0), settlement: z.number().int().min(0) }),
  press: z.strictObject({ maxLength: z.number().int().min(1).max(20000), perTurn: z.number().int().min(0), anonymous: z.boolean(), relay: z.enum(['atOnce', 'withReport']) }),
  fate: z.strictObject({
    randomiser: z.enum(['d6', 'fateDice', 'deck']),
    base: z.strictObject({ d6: z.number().int().min(-10).max(20), d3: z.number().int().min(-10).max(20) }),
    ladderWords: z.boolean(),
    aspects: z.boolean(),
    difficulty: z.number().int().min(-2).max(8),
    skill: z.strictObject({ leader: z.number().int().min(-2).max(8), diplomatic: z.number().int().min(-2).max(8) }),
    invokeCost: z.number().int().min(0),
  }),
  warfare: z.strictObject({
    enabled: z.boolean(),
    minUnitsPerSide: z.number().int().min(1),
    hexes: z.array(hex),
    takenOut: z.enum(['destroyed', 'bloodied']),
    maxExchanges: z.number().int().min(1).max(100),
    types: z.strictObject({ infantry: z.string(), cavalry: z.string(), siege: z.string(), naval: z.string() }),
    bloodied: z.number().int().min(0).max(4),
    leader: z.strictObject({ command: z.number().int().min(0).max(8), tactics: z.number().int().min(0).max(8) }),
    lieutenants: z.record(id, z.array(z.strictObject({ name, command: z.number().int().min(0).max(8), tactics: z.number().int().min(0).max(8), fighting: z.number().int().min(0).max(8).optional(), athletics: z.number().int().min(0).max(8).optional() }))),
    catalogue: warfareCatalogueSchema,
    assaults: z.boolean(),
    prepare: z.boolean(),
    walls: z.strictObject({ armor: z.enum(['sum', 'strongest']), siege: z.string() }),
    burn: z.strictObject({ unit: z.number().int().min(1).max(20), asset: z.number().int().min(1).max(20), unitType: z.string() }),
  }),
});
