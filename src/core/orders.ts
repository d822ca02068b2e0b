import type { Bonus } from './campaign.js';
import type { ExternalId, HexKey, NationId, SettlementId, UnitId } from './ids.js';
import type { AspectPlace, LuckSkill } from './state.js';
import type { EventDef } from './world/types.js';

/**
 * Orders as the engine understands them, whatever they were written in (YAML
 * file or plain-text mail). Open union: a new order kind is a new member here,
 * a checker and a phase that acts on it.
 */
export type Order =
  | MoveOrder
  | AttackOrder
  | DefendOrder
  | RestOrder
  | HoldOrder
  | BuildUnitOrder
  | BuildStructureOrder
  | BuildBattlementOrder
  | ConstructOrder
  | FoundOrder
  | UpgradeOrder
  | SiegeActionOrder
  | SortieOrder
  | AssaultOrder
  | AnswerOrder
  | ExploreOrder
  | NoteOrder
  | HeirOrder
  | BattlePlanOrder
  | PressOrder
  | CreateAdvantageOrder
  | OvercomeOrder
  | InvokeOrder
  | ActOrder
  | AcceptTradeOrder
  | HuntSpiesOrder;

export type OrderKind = Order['kind'];

export interface MoveOrder {
  kind: 'move';
  unit: UnitId;
  to: HexKey;
  /** Hexes after the start, ending at `to`; the cheapest path when absent. */
  path?: HexKey[];
  /** Land units a naval unit carries along (they must be on its starting hex). */
  carry?: UnitId[];
  /** Where carried units go ashore: a land hex next to the naval unit's end. */
  landAt?: HexKey;
  /** The player gives up the work the units are doing (a build, a siege); see core/work.ts. */
  abandon?: boolean;
}

/** A unit, a settlement, or an external structure (a mine, a dig site; docs/rules.md X1). */
export type AttackTarget = { unit: UnitId } | { settlement: SettlementId } | { external: ExternalId };

export interface AttackOrder {
  kind: 'attack';
  unit: UnitId;
  target: AttackTarget;
  support?: UnitId[];
  fate?: number;
  /** Loss order for this battle; overrides the nation's casualty priority. */
  casualties?: UnitId[];
  /** Supporting units may leave work (a build, another siege) to join; see core/work.ts. */
  abandon?: boolean;
  /** Against an external structure: raze it even when infantry could take it (docs/rules.md X3). */
  destroy?: true;
}

export interface DefendOrder {
  kind: 'defend';
  unit: UnitId;
  /** A friendly unit, settlement or external structure this unit joins when it is attacked. */
  protect: AttackTarget;
  fate?: number;
}

export interface RestOrder {
  kind: 'rest';
  unit: UnitId;
}

export interface HoldOrder {
  kind: 'hold';
  unit: UnitId;
  /** Fate pledged if the unit is attacked. */
  fate?: number;
}

export interface BuildUnitOrder {
  kind: 'build_unit';
  settlement: SettlementId;
  unitType: string;
  name?: string;
  /** Extra bonuses unlocked by structures, paid at costPerBonusPoint each. */
  bonuses?: Bonus[];
}

export interface BuildStructureOrder {
  kind: 'build_structure';
  settlement: SettlementId;
  structure: string;
}

export interface BuildBattlementOrder {
  kind: 'build_battlement';
  settlement: SettlementId;
  level: number;
}

export interface ConstructOrder {
  kind: 'construct';
  unit: UnitId;
  structure: string;
}

export interface FoundOrder {
  kind: 'found';
  unit: UnitId;
  name: string;
}

export interface UpgradeOrder {
  kind: 'upgrade';
  settlement: SettlementId;
}

export type SiegeAction = 'destroy_battlement' | 'poison_water';

/** One siege action: a battlement names its bonus (absent: the weakest one left). */
export interface SiegeStep {
  action: SiegeAction;
  battlement?: number;
}

export interface SiegeActionOrder extends SiegeStep {
  kind: 'siege_action';
  unit: UnitId;
  /** What each further 3 points buy, in the player's order; never harder than the first action. */
  then?: SiegeStep[];
  fate?: number;
}

export interface SortieOrder {
  kind: 'sortie';
  unit: UnitId;
  target: UnitId;
  fate?: number;
}

export interface AssaultOrder {
  kind: 'assault';
  unit: UnitId;
  support?: UnitId[];
  fate?: number;
  casualties?: UnitId[];
}

/** The nation's answer to a roll an event asked of it last turn, or its payment of a task's price. */
export interface AnswerOrder {
  kind: 'answer';
  /** The event that asked for the roll, or the task to pay. */
  event: string;
  choice?: string;
  fate?: number;
}

/** The unit searches the hex where it stands (and its surroundings) for hidden resources: a d6 roll. */
export interface ExploreOrder {
  kind: 'explore';
  unit: UnitId;
  fate?: number;
}

export interface NoteOrder {
  kind: 'note';
  text: string;
}

/** A letter to other nations (or all), delivered in their next reports. */
export interface PressOrder {
  kind: 'press';
  to: NationId[] | 'all';
  text: string;
  /** Unsigned: the recipients are not told who sent it (rules.press.anonymous). */
  anonymous?: true;
}

/** Names who takes over when the leader dies, and the ability the heir brings (rules.md L2). */
export interface HeirOrder {
  kind: 'heir';
  name: string;
  ability?: string;
}

/**
 * The battle plan the nation's automated commanders follow in its Warfare
 * battles this turn (docs/rules.md W13, docs/orders.md): `plan aggressive
 * [withdraw at 2] [on tie stress] [target archers] [reserve cavalry until 5]`.
 */
export interface BattlePlanOrder {
  kind: 'battle_plan';
  stance: 'aggressive' | 'defensive';
  withdrawAt?: number;
  onTie?: 'boost' | 'stress' | 'fail';
  /** What to strike first: a Warfare unit type (`archers`) or `commander` (checked against the catalogue). */
  target?: string;
  /** Units held back: a number of units, or every unit of a class (`cavalry`). */
  reserve?: number | 'infantry' | 'cavalry' | 'siege' | 'naval';
  /** The exchange the reserve joins the battle (4 without it). */
  reserveUntil?: number;
  /** How the side builds the battlefield with the other (docs/rules.md W23): `grid` (the default), `deep` or `wide`. */
  field?: 'grid' | 'deep' | 'wide';
  /** Where the defender's four obstacles go (W23): from the map's terrain (the default), or `ahead`, `flanks`, `far`, `none`. */
  obstacles?: 'map' | 'ahead' | 'flanks' | 'far' | 'none';
  /**
   * Aspect burning (seed 001 line 150, seed 000 lines 90–92; W24): every free invoke of the aspect becomes a zone or an
   * obstacle, or each `rules.warfare.burn` price of them a unit or an asset (a helpful aspect on `skill`); the aspect is gone.
   */
  burn?: { aspect: string; for: 'zones' | 'obstacles' | 'units' | 'assets'; skill?: BurnSkill };
}

/** The Warfare skills an asset bought by aspect burning may help (W24): those a check of the battle is made with. */
export const BURN_SKILLS = ['fighting', 'marksmanship', 'armor', 'lore', 'tactics', 'athletics'] as const;
export type BurnSkill = (typeof BURN_SKILLS)[number];

/** A burn as an order line writes it: `"Old Redoubts" for units`, `"Old Redoubts" for an asset in fighting`. */
export function burnText(b: NonNullable<BattlePlanOrder['burn']>): string {
  return `"${b.aspect}" for ${b.for === 'assets' ? `an asset in ${b.skill ?? 'fighting'}` : b.for}`;
}

/** Who makes a create-advantage or overcome roll: the nation's leader, or one of its diplomatic units. */
export type AspectActor = { leader: true } | { unit: UnitId };

/**
 * `create advantage "High Walls" with <leader|unit> [on <place>]`: a 4dF roll
 * against the campaign's difficulty (rules.md A2); the place defaults to the nation itself.
 */
export interface CreateAdvantageOrder {
  kind: 'create_advantage';
  aspect: string;
  by: AspectActor;
  on?: AspectPlace;
}

/** `overcome "Plague Winds" with <leader|unit>`: a 4dF roll that takes the aspect out of play (rules.md A5). */
export interface OvercomeOrder {
  kind: 'overcome';
  aspect: string;
  by: AspectActor;
}

/**
 * The roll an invoke is for: the nation's side of a battle on a hex (an
 * assault is the battle at its settlement), its siege rolls at a settlement,
 * or its answer to an event's roll.
 */
export type InvokeTarget = { battle: HexKey } | { assault: SettlementId } | { siege: SettlementId } | { roll: string };

/** `invoke "High Walls" on the battle at 25,6 [free|fate] [reroll]`: one invoke of one aspect (rules.md A3). */
export interface InvokeOrder {
  kind: 'invoke';
  aspect: string;
  on: InvokeTarget;
  /** How it is paid; absent: a free invoke when the nation has one left, else Fate. */
  pay?: 'free' | 'fate';
  /** Re-roll the dice instead of +2 (taken only when the roll is behind; otherwise unspent). */
  reroll?: true;
  /**
   * Teamwork or an obstacle (seed 002 "Invoking Aspects"; docs/rules.md A10):
   * +2 to another nation's roll against a number to beat (`for`), or +2 to
   * the number it must beat (`against`). Only on siege rolls.
   */
  help?: { for: NationId } | { against: NationId };
}

/** What an action aims at, resolved by the action's target kinds (actions.yaml). */
export type ActTarget = { nation: NationId } | { settlement: SettlementId } | { unit: UnitId } | { hex: HexKey } | { route: [SettlementId, SettlementId] } | { external: ExternalId };

/** A unit takes an action of the catalogue instead of moving (espionage, sabotage, a mortar's bombardment...). */
export interface ActOrder {
  kind: 'act';
  unit: UnitId;
  /** The action's id in the campaign's actions catalogue. */
  action: string;
  target: ActTarget;
  /** What a sabotage or bombardment aims at in the settlement: a structure id, "battlement" or "work". */
  aim?: string;
  fate?: number;
}

/**
 * How the nation's guards meet a spy or saboteur whose action fails against it this turn (rules.md D2):
 * `hunt spies [fate N]` adds Fate to the catch roll, `let spies go` makes none. Without it the guards roll bare.
 */
export interface HuntSpiesOrder {
  kind: 'hunt_spies';
  /** No catch roll: the agent goes free. */
  letGo?: true;
  fate?: number;
}

/** The nation consents to trade routes another nation opens to its settlements this turn. */
export interface AcceptTradeOrder {
  kind: 'accept_trade';
  with: NationId;
}

export interface NationOrders {
  nation: NationId;
  turn: number;
  /** Listing order is payment order: the first costly order is paid first. */
  orders: Order[];
  /** Default loss order in battles: units first in the list are lost first. */
  casualties?: UnitId[];
  /** Source line of each order (parallel to `orders`), so rejections point at it. */
  lines?: number[];
  /** The order as the player wrote it (parallel to `orders`), quoted in rejections. */
  texts?: string[];
  /** Lines the parser could not make into an order; reported with the engine's rejections. */
  refused?: RefusedLine[];
  /**
   * Orders a seat's policy gave in the nation's name while its player was silent (a caretaker, or civil
   * disorder; docs/operations.md "Missing players"): the nation still missed the turn.
   */
  seat?: SeatOrders;
}

/** What plays a seat whose player is silent: a caretaker, or civil disorder (defends only; Happiness drifts down). */
export type SeatPolicy = 'caretaker' | 'disorder';

export interface SeatOrders {
  policy: SeatPolicy;
  /** The caretaker's id in the campaign's catalogue (caretakers.yaml), when known (the planner's own output). */
  caretaker?: string;
}

export interface RefusedLine {
  line?: number;
  text: string;
  reason: string;
  hint?: string;
}

/** The GM's own interventions for a turn, for what the rules leave to the GM. */
export type GmAction =
  | { kind: 'adjust'; nation: NationId; renown?: number; fate?: number; prosperity?: number; happiness?: number; reason: string }
  | { kind: 'complete_goal'; nation: NationId; goal: string; reason?: string }
  /** The leader dies this turn (an assassin, an illness: the GM's story). */
  | { kind: 'leader_dies'; nation: NationId; reason: string }
  /** The GM names the heir, over the player's choice. */
  | { kind: 'heir'; nation: NationId; name: string; ability?: string }
  /** A catalogue event (or a one-off written in _gm.yaml) befalls a nation, at a target of its scope. */
  | { kind: 'event'; nation: NationId; event?: string; oneOff?: EventDef; target?: string }
  /** Forced values for one dice stream of the turn (e.g. "events:argenta", "battle:attack:a-1"). */
  | { kind: 'roll'; scope: string; values: number[] }
  /** A Fate aspect placed by the GM (rules.fate.aspects). */
  | { kind: 'aspect'; name: string; on: AspectPlace; owner?: NationId; free: number; boost?: boolean; secret?: boolean; helps?: LuckSkill; hinders?: LuckSkill }
  /** An aspect taken out of play by the GM; `on` picks one when several share the name. */
  | { kind: 'remove_aspect'; name: string; on?: AspectPlace }
  /** The GM compels a nation's aspect (docs/rules.md A9): answered next turn, accept or refuse. */
  | { kind: 'compel'; nation: NationId; id: string; aspect: string; text: string; then?: string };

export interface TurnOrders {
  /** Keyed by nation; a nation missing here sent no orders (NMR). */
  nations: Partial<Record<NationId, NationOrders>>;
  gm: GmAction[];
}
