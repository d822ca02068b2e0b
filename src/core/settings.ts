import type { Catalogue } from './warfare/types.js';
import type { Bonus, SettlementLevel, UnitClass } from './campaign.js';

/**
 * Every number the rules text gives (or leaves to the GM) as a campaign
 * setting. Defaults follow the text; docs/rules.md says where each comes from.
 */
export interface TerrainRule {
  /** Movement points to enter; land units only. */
  cost: number;
  /** Naval units move here, land units only when carried. */
  water: boolean;
  /** No unit may enter. */
  impassable: boolean;
}

export type AbandonWork = 'allow' | 'confirm';

/** What a die of the rules is thrown with (docs/rules.md F1): d6s, four Fate dice, or the nation's Deck of Fate. */
export type RandomiserKind = 'd6' | 'fateDice' | 'deck';

/**
 * Warfare (seed 001, docs/rules.md W15–W16): an optional battle mode for
 * large open battles, fought over zones by automated commanders. Off by
 * default; off, no battle changes.
 */
export interface WarfareSettings {
  enabled: boolean;
  /** An open battle is fought as Warfare when each side brings at least this many units. */
  minUnitsPerSide: number;
  /** The GM's flag: open battles at these hexes are fought as Warfare whatever their size. */
  hexes: string[];
  /** What a unit taken out becomes: destroyed, or bloodied (a bloodied unit taken out is destroyed). */
  takenOut: 'destroyed' | 'bloodied';
  /** The defenders hold after this many exchanges. */
  maxExchanges: number;
  /** The catalogue type each Fatecraft unit class fights as (naval: the default catalogue's warships, our extension). */
  types: { infantry: string; cavalry: string; siege: string; naval: string };
  /** A bloodied unit's skills, Movement aside, are this much lower (never below 0); 0: bloodied units fight as well as healthy ones. */
  bloodied: number;
  /** The skills of a nation's leader commanding in person. */
  leader: { command: number; tactics: number };
  /**
   * Each nation's named lieutenants, who command (in this order) the units the leader does not; novices after them.
   * Those left over when every unit has a commander ride as champions with the first (W19); `fighting` is their
   * Fighting for attacks in person (0 when not given).
   */
  lieutenants: Record<string, { name: string; command: number; tactics: number; fighting?: number; athletics?: number }[]>;
  /** Unit and rampart stat blocks laid over the defaults (src/core/warfare/catalogue.ts). */
  catalogue: Partial<Catalogue>;
  /** Assaults on settlements are fought as Warfare too (the same threshold and hexes), the battlements as ramparts (W18). */
  assaults: boolean;
  /** The automated attacker answers a prepared defence with an advantage of its own before closing (W14). */
  prepare: boolean;
  /**
   * The settlement's battlements as ramparts on the strategic zone (W18): Armor the sum of their bonuses, or twice the
   * strongest; one Wall Strength box a battlement. `siege`: the catalogue type siege units fight as in an assault.
   */
  walls: { armor: 'sum' | 'strongest'; siege: string };
  /**
   * Aspect burning's prices in free invokes for what the seeds leave unpriced (W24): a unit (of `unitType`, fighting
   * for the burning side in that battle only) and an asset (a helpful aspect on one skill for that battle).
   */
  burn: { unit: number; asset: number; unitType: string };
}

export interface FateSettings {
  randomiser: RandomiserKind;
  /** A Fate result (-4..+4) stands for the rules' d6 or d3 as base + result (docs/rules.md F2). */
  base: { d6: number; d3: number };
  /** Reports write ladder values with their word, "Great (+4)" (docs/rules.md F7). */
  ladderWords: boolean;
  /**
   * Aspects and invokes (seeds 000 and 002). With `aspects` off no aspect order
   * is accepted and no roll looks for invokes.
   */
  aspects: boolean;
  /** The passive opposition of create advantage and overcome, on the ladder (+2 Fair). */
  difficulty: number;
  /** The skill a leader or a diplomatic unit adds to its 4dF. */
  skill: { leader: number; diplomatic: number };
  /** Fate paid for an invoke that spends no free invoke. */
  invokeCost: number;
}

export interface RuleSettings {
  indicatorMin: number;
  indicatorMax: number;
  renownPerProsperity: number;
  fatePerHappiness: number;
  settlementIncome: Record<SettlementLevel, { renown: number; fate: number }>;
  settlementTax: Record<SettlementLevel, number>;
  /** Losing a settlement costs the loser its tax again (a blow to the realm). */
  lossTax: boolean;
  /** Upgrading charges the difference between the new and old level's tax. */
  upgradeTax: boolean;
  /** Structures' `taxRelief` lightens a captured settlement's tax too (F 99's "ways around this"). */
  captureTaxRelief: boolean;
  unitCost: Record<UnitClass, number>;
  costPerBonusPoint: number;
  maxBonusKinds: number;
  /** Fate cost of +1 .. +N, in order. */
  fateTable: number[];
  maxSupportUnits: number;
  maxSettlementDefenders: number;
  battlementCost: Record<string, number>;
  maxBattlements: number;
  newSettlementCost: number;
  upgradeCost: { town: number; city: number };
  buildsPerSettlement: { military: number; diplomatic: number };
  terrain: Record<string, TerrainRule>;
  /** A unit may always move one hex, even into terrain dearer than its speed. */
  minimumMove: boolean;
  /**
   * An order that takes a unit off work under way (a builder off its site, a
   * besieger out of its siege): `confirm` carries it out only when the order
   * says `abandon`, `allow` carries it out with a warning.
   */
  abandonWork: AbandonWork;
  /** Built-in class modifiers (cavalry vs infantry, siege vs structures...). */
  classBonuses: Record<UnitClass, Bonus[]>;
  siege: {
    poisonTarget: number;
    sortieTarget: { healthy: number; bloodied: number };
    extraActionEvery: number;
    /** An attack on a settlement with no defenders captures it at once (infantry needed). */
    captureUndefended: boolean;
  };
  /**
   * Fights for external structures (mines, dig sites; docs/rules.md X1-X4):
   * how many of the owner's units defend one, the classes of which one
   * attacker must be to capture it (else it is destroyed), and whether the
   * owner's diplomatic units there are taken when it is captured.
   */
  externals: { maxDefenders: number; captureClasses: UnitClass[]; takeDiplomats: boolean };
  /** Renown for each battle won, to the winner. */
  victoryRenown: number;
  /** Winners of an open battle whose enemy is wiped out advance into the hex. */
  advanceAfterVictory: boolean;
  /** How many turns without orders before a nation is flagged to the GM (and its seat's policy applies). */
  nmrFlagAfter: number;
  /** Civil disorder (a silent player's seat policy, docs/operations.md): Happiness moves by this each turn in disorder. */
  disorder: { happiness: number };
  /** Sight ranges in hexes, for reports. */
  sight: { unit: number; settlement: number };
  /** Letters between nations (`press` orders). */
  /**
   * Letters between nations (`press` orders). `relay`: `withReport` delivers them in the next report only;
   * `atOnce` also mails each recipient the letter as soon as the mail room files the orders (rules.md P2).
   */
  press: { maxLength: number; perTurn: number; anonymous: boolean; relay: 'atOnce' | 'withReport' };
  /** The Fate layer (issue 23): randomiser, ladder words, aspects. */
  fate: FateSettings;
  warfare: WarfareSettings;
}

export const DEFAULT_RULES: RuleSettings = {
  indicatorMin: -3,
  indicatorMax: 3,
  renownPerProsperity: 5,
  fatePerHappiness: 1,
  settlementIncome: {
    capital: { renown: 20, fate: 5 },
    city: { renown: 10, fate: 3 },
    town: { renown: 5, fate: 1 },
    village: { renown: 2, fate: 0 },
  },
  settlementTax: { village: 1, town: 2, city: 3, capital: 5 },
  lossTax: true,
  upgradeTax: true,
  captureTaxRelief: false,
  unitCost: { infantry: 5, cavalry: 8, naval: 8, siege: 12, diplomatic: 5 },
  costPerBonusPoint: 2,
  maxBonusKinds: 2,
  fateTable: [1, 2, 4, 6, 8, 10],
  maxSupportUnits: 2,
  maxSettlementDefenders: 3,
  battlementCost: { '1': 10, '2': 20, '3': 30 },
  maxBattlements: 3,
  newSettlementCost: 100,
  upgradeCost: { town: 50, city: 100 },
  buildsPerSettlement: { military: 1, diplomatic: 1 },
  terrain: {
    plains: { cost: 1, water: false, impassable: false },
    forest: { cost: 2, water: false, impassable: false },
    hills: { cost: 2, water: false, impassable: false },
    mountains: { cost: 3, water: false, impassable: false },
    water: { cost: 1, water: true, impassable: false },
    sea: { cost: 1, water: true, impassable: false },
  },
  minimumMove: true,
  abandonWork: 'confirm',
  classBonuses: {
    infantry: [],
    cavalry: [
      { value: 2, vs: { classes: ['infantry', 'siege'] }, situation: 'open', label: 'cavalry charge' },
      { value: -2, vs: { classes: ['structure'] }, label: 'cavalry against walls' },
    ],
    siege: [
      { value: -2, vs: { classes: ['infantry', 'cavalry'] }, situation: 'open', label: 'siege engines in the field' },
      { value: 3, vs: { classes: ['structure'] }, label: 'siege engines against walls' },
    ],
    naval: [],
    diplomatic: [],
  },
  siege: {
    poisonTarget: 4,
    sortieTarget: { healthy: 4, bloodied: 2 },
    extraActionEvery: 3,
    captureUndefended: true,
  },
  externals: { maxDefenders: 3, captureClasses: ['infantry'], takeDiplomats: true },
  victoryRenown: 5,
  advanceAfterVictory: true,
  nmrFlagAfter: 2,
  disorder: { happiness: -1 },
  sight: { unit: 3, settlement: 3 },
  press: { maxLength: 1000, perTurn: 3, anonymous: false, relay: 'withReport' },
  fate: { randomiser: 'd6', base: { d6: 3, d3: 2 }, ladderWords: true, aspects: false, difficulty: 2, skill: { leader: 2, diplomatic: 1 }, invokeCost: 1 },
  warfare: {
    enabled: false,
    minUnitsPerSide: 3,
    hexes: [],
    takenOut: 'destroyed',
    maxExchanges: 12,
    types: { infantry: 'infantry', cavalry: 'cavalry', siege: 'catapults', naval: 'warships' },
    bloodied: 1,
    leader: { command: 3, tactics: 3 },
    lieutenants: {},
    catalogue: {},
    assaults: false,
    prepare: true,
    walls: { armor: 'sum', siege: 'cannons' },
    burn: { unit: 3, asset: 2, unitType: 'militia' },
  },
};
