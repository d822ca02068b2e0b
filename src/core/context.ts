import type { Bonus, Campaign, NationDefinition, UnitType, Yield } from './campaign.js';
import type { Randomiser } from './dice.js';
import type { Indicator, LoggedEvent, Resource, TurnEvent } from './events.js';
import { asUnitId, type HexKey, type NationId, type SettlementId, type UnitId } from './ids.js';
import { GameMap } from './map.js';
import { pushTo } from './multimap.js';
import { nameForRaised, unitName } from './unit-name.js';
import { WorldIndex } from './world-index.js';
import type { Order, TurnOrders } from './orders.js';
import type { GameState, Health, SettlementState, UnitState } from './state.js';

/** An order that passed its checks, with what the checks worked out. */
export interface AcceptedOrder<O extends Order = Order> {
  nation: NationId;
  index: number;
  order: O;
  /** For moves and attacks: the hexes walked, start excluded. */
  path?: HexKey[];
}

const NONE: readonly AcceptedOrder[] = Object.freeze([]);

/**
 * The mutable draft of one turn's resolution. `resolveTurn` clones the input
 * state into it, so the engine as a whole stays a pure function; the helpers
 * here are the only way phases change Renown, Fate, indicators and units, so
 * every change leaves an event behind.
 */
export class TurnContext {
  readonly map: GameMap;
  readonly events: LoggedEvent[] = [];
  /** The turn being resolved (state.turn + 1). */
  readonly turn: number;
  phase = 'start';
  private acceptedOrders: AcceptedOrder[] = [];
  private readonly acceptedByUnit = new Map<UnitId, AcceptedOrder>();
  // Phases and battles ask for one kind at a time, some once per battle or per trade route: a scan of a
  // hundred thousand orders each time was half a second of a 1,000-nation Warfare turn.
  private readonly acceptedByKind = new Map<Order['kind'], AcceptedOrder[]>();
  /** Units that fought this turn: they cannot also rest. */
  readonly fought = new Set<UnitId>();
  /** A fresh id for a build or external structure, never one already in use. */
  nextId(prefix: string, taken: (id: string) => boolean): string {
    let id: string;
    do {
      this.state.seq += 1;
      id = `${prefix}${this.state.seq}`;
    } while (taken(id));
    return id;
  }

  /** Fate pledged for defence, per unit, spent by the first battle it joins. */
  readonly defencePledges = new Map<UnitId, number>();
  /** Each nation's default loss order from its orders. */
  readonly casualtyPriority = new Map<NationId, UnitId[]>();
  /** Attackers whose target got away this turn. */
  readonly escapedFrom = new Set<UnitId>();
  private unitsByHex: Map<HexKey, Set<UnitId>> | undefined;
  private settlementsByHex: Map<HexKey, SettlementState> | undefined;

  constructor(
    readonly campaign: Campaign,
    readonly state: GameState,
    readonly orders: TurnOrders,
    readonly dice: Randomiser,
    /**
     * The turn's starting state, never changed: order checks see the world
     * through it (and indexes cached on it stay true). Defaults to `state`
     * when nothing will change it, as when orders are only being checked.
     */
    readonly start: GameState = state,
  ) {
    this.map = GameMap.of(campaign);
    this.turn = state.turn + 1;
  }

  get rules() {
    return this.campaign.rules;
  }

  emit(event: TurnEvent): void {
    this.events.push({ seq: this.events.length + 1, phase: this.phase, ...event });
  }

  nationDef(nation: NationId): NationDefinition {
    const def = this.campaign.nations[nation];
    if (!def) throw new Error(`nation ${nation} is not in the campaign`);
    return def;
  }

  unitType(unit: UnitState): UnitType {
    const type = this.nationDef(unit.nation).unitTypes[unit.type];
    if (!type) throw new Error(`unit ${unit.id} has unknown type ${unit.type}`);
    return type;
  }

  /** The unit's own bonuses: its type's and those bought when it was built. */
  unitBonuses(unit: UnitState): Bonus[] {
    return [...this.unitType(unit).bonuses, ...(unit.extraBonuses ?? [])];
  }

  unit(id: UnitId): UnitState | undefined {
    return this.state.units[id];
  }

  settlement(id: SettlementId): SettlementState | undefined {
    return this.state.settlements[id];
  }

  unitsAt(hex: HexKey): UnitState[] {
    if (!this.unitsByHex) {
      this.unitsByHex = new Map();
      // A key walk: the units are a dictionary of a hundred thousand in a big state (see allUnits).
      for (const id in this.state.units) {
        const u = this.state.units[id as UnitId]!;
        this.indexUnit(u.id, u.hex);
      }
    }
    const here = this.unitsByHex.get(hex);
    if (!here || here.size === 0) return [];
    // Most hexes hold one unit: nothing to sort.
    if (here.size === 1) {
      const u = this.state.units[here.values().next().value!];
      return u ? [u] : [];
    }
    const ids = [...here].sort();
    return ids.map((id) => this.state.units[id]).filter((u): u is UnitState => u !== undefined);
  }

  settlementAt(hex: HexKey): SettlementState | undefined {
    if (!this.settlementsByHex) {
      this.settlementsByHex = new Map(Object.values(this.state.settlements).map((s) => [s.hex, s]));
    }
    return this.settlementsByHex.get(hex);
  }

  addSettlement(settlement: SettlementState): void {
    this.state.settlements[settlement.id] = settlement;
    this.settlementsByHex?.set(settlement.hex, settlement);
  }

  private indexUnit(id: UnitId, hex: HexKey): void {
    if (!this.unitsByHex) return;
    let set = this.unitsByHex.get(hex);
    if (!set) this.unitsByHex.set(hex, (set = new Set()));
    set.add(id);
  }

  private unindexUnit(id: UnitId, hex: HexKey): void {
    this.unitsByHex?.get(hex)?.delete(id);
  }

  placeUnit(unit: UnitState, to: HexKey): void {
    this.unindexUnit(unit.id, unit.hex);
    unit.hex = to;
    this.indexUnit(unit.id, to);
  }

  createUnit(nation: NationId, type: string, hex: HexKey, extra: Partial<UnitState> = {}): UnitState {
    const n = this.nationState(nation);
    // GM-chosen ids may look like generated ones: skip any that is taken.
    let id: UnitId;
    do {
      n.unitSeq += 1;
      id = asUnitId(`${nation}-${n.unitSeq}`);
    } while (this.state.units[id]);
    // A unit raised without a name takes one (unit-name.ts): reports name it, never by its id.
    const named = extra.name ? {} : { name: nameForRaised(this.campaign, nation, type, this.namesOf(nation)) };
    const unit: UnitState = { id, nation, type, hex, health: 'healthy', builtTurn: this.turn, ...named, ...extra };
    if (unit.name) this.namesOf(nation).add(unit.name.toLowerCase());
    this.state.units[id] = unit;
    this.indexUnit(id, hex);
    this.emit({ type: 'unit_created', nations: [nation], nation, unit: id, unitType: type, at: hex });
    return unit;
  }

  private unitNames: Map<NationId, Set<string>> | undefined;

  /** The names the nation's units bear (or bore this turn), in small letters: all units indexed in one pass, the first time a unit is raised. */
  private namesOf(nation: NationId): Set<string> {
    if (!this.unitNames) {
      this.unitNames = new Map();
      for (const u of Object.values(this.state.units)) if (u.name) this.takenBy(u.nation).add(u.name.toLowerCase());
    }
    return this.takenBy(nation);
  }

  private takenBy(nation: NationId): Set<string> {
    let names = this.unitNames!.get(nation);
    if (!names) this.unitNames!.set(nation, (names = new Set()));
    return names;
  }

  /** Bloodies a healthy unit, destroys a bloodied one. */
  harmUnit(unit: UnitState, reason: string, nations: NationId[]): Health | 'destroyed' {
    if (unit.health === 'healthy') {
      this.setHealth(unit, 'bloodied', reason, nations);
      return 'bloodied';
    }
    this.destroyUnit(unit, reason, nations);
    return 'destroyed';
  }

  setHealth(unit: UnitState, to: Health, reason: string, nations: NationId[]): void {
    if (unit.health === to) return;
    this.emit({ type: 'unit_health', nations, unit: unit.id, from: unit.health, to, reason });
    unit.health = to;
  }

  destroyUnit(unit: UnitState, reason: string, nations: NationId[]): void {
    this.emit({ type: 'unit_health', nations, unit: unit.id, from: unit.health, to: 'destroyed', reason });
    this.unindexUnit(unit.id, unit.hex);
    delete this.state.units[unit.id];
    // Land units aboard a sunk ship go down with it (they share its hex).
    for (const passenger of this.unitsAt(unit.hex)) {
      if (passenger.aboard === unit.id) this.destroyUnit(passenger, `lost at sea with ${unitName(this.campaign, unit)}`, nations);
    }
  }

  nationState(nation: NationId) {
    const n = this.state.nations[nation];
    if (!n) throw new Error(`nation ${nation} has no state`);
    return n;
  }

  changeResource(nation: NationId, resource: Resource, delta: number, reason: string): void {
    if (delta === 0) return;
    const n = this.nationState(nation);
    n[resource] += delta;
    this.emit({ type: 'resource', nations: [nation], nation, resource, delta, balance: n[resource], reason });
  }

  /** Moves an indicator, clamped to the rules' range; the event records the real change. */
  changeIndicator(nation: NationId, indicator: Indicator, delta: number, reason: string): void {
    const n = this.nationState(nation);
    const next = Math.max(this.rules.indicatorMin, Math.min(this.rules.indicatorMax, n[indicator] + delta));
    if (next === n[indicator] && delta !== 0) {
      this.emit({ type: 'indicator', nations: [nation], nation, indicator, delta: 0, value: next, reason: `${reason}; already at the limit` });
      return;
    }
    if (delta === 0) return;
    const applied = next - n[indicator];
    n[indicator] = next;
    this.emit({ type: 'indicator', nations: [nation], nation, indicator, delta: applied, value: next, reason });
  }

  applyYield(nation: NationId, y: Yield | undefined, reason: string): void {
    if (!y) return;
    if (y.renown) this.changeResource(nation, 'renown', y.renown, reason);
    if (y.fate) this.changeResource(nation, 'fate', y.fate, reason);
    if (y.prosperity) this.changeIndicator(nation, 'prosperity', y.prosperity, reason);
    if (y.happiness) this.changeIndicator(nation, 'happiness', y.happiness, reason);
  }

  private readonly ports = new Map<NationId, Set<HexKey>>();

  /**
   * Friendly coastal settlements where the nation's ships may put in, as the
   * turn started (orders are checked against the starting position).
   */
  portsOf(nation: NationId): ReadonlySet<HexKey> {
    let ports = this.ports.get(nation);
    if (!ports) {
      ports = new Set(WorldIndex.of(this.campaign, this.start).settlementsOf(nation).filter((s) => this.map.isCoast(s.hex)).map((s) => s.hex));
      this.ports.set(nation, ports);
    }
    return ports;
  }

  get accepted(): readonly AcceptedOrder[] {
    return this.acceptedOrders;
  }

  accept(order: AcceptedOrder): void {
    this.acceptedOrders.push(order);
    if ('unit' in order.order) this.acceptedByUnit.set(order.order.unit, order);
    pushTo(this.acceptedByKind, order.order.kind, order);
  }

  /** The accepted orders of one kind, in the order they were accepted. */
  acceptedOf<K extends Order['kind']>(kind: K): readonly AcceptedOrder<Extract<Order, { kind: K }>>[] {
    return (this.acceptedByKind.get(kind) ?? NONE) as readonly AcceptedOrder<Extract<Order, { kind: K }>>[];
  }

  orderFor(unit: UnitId): AcceptedOrder | undefined {
    return this.acceptedByUnit.get(unit);
  }
}
