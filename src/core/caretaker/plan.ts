import { isMilitaryClass, type Campaign } from '../campaign.js';
import { checkNationOrders } from '../checks/index.js';
import { canReach, reachOf, startOfTurn } from '../checks/lookup.js';
import { checkBuildUnit } from '../checks/settlement-orders.js';
import { TurnContext } from '../context.js';
import { SeededRandomiser, type DiceStream } from '../dice.js';
import { hexDistance, offsetOf } from '../hex.js';
import { compareIds, type HexKey, type NationId, type UnitId } from '../ids.js';
import type { NationOrders, Order, SeatPolicy } from '../orders.js';
import type { GameState, SettlementState, UnitState } from '../state.js';
import { holds } from '../world/conditions.js';
import { EventScene } from '../world/scene.js';
import type { Condition, EventTarget } from '../world/types.js';
import { DEFAULT_CARETAKER, DISORDER_CARETAKER, type CaretakerDef, type CaretakerStep } from './types.js';
import { seatView } from './view.js';

/**
 * The caretaker's planner: a seat's orders for the coming turn, from the
 * state alone — as the seat sees it (view.ts), never more — and the
 * caretaker's own dice stream (`caretaker:<nation>`, keyed by the campaign's
 * seed and the turn), so the same state gives the same orders byte for byte.
 * Pure: no clock, no I/O. The orders are then checked by the checker every
 * player's orders go through, against the same view; what it refuses is left
 * out (and listed, for the GM).
 */
export interface CaretakerPlan {
  orders: NationOrders;
  /** Why each order was given, parallel to orders.orders (the GM's file and the nation's report say it). */
  reasons: string[];
  /** The caretaker's d100s for steps with a chance, in step order. */
  rolls: { step: string; chance: number; roll: number; ran: boolean }[];
  /** Orders the checker refused, with why: left out. */
  dropped: { order: Order; reason: string }[];
}

export interface PlanInput {
  campaign: Campaign;
  /** The latest resolved state; the orders are for the turn after it. */
  state: GameState;
  nation: NationId;
  policy: SeatPolicy;
  /** The caretaker's id in the campaign's catalogue (default: the steward, or civil disorder's). */
  caretaker?: string;
}

/** The caretaker a seat gets: the one named, else the catalogue's for its policy. */
export function caretakerFor(campaign: Campaign, policy: SeatPolicy, id?: string): CaretakerDef | undefined {
  const entries = campaign.caretakers?.entries ?? {};
  return entries[id ?? (policy === 'disorder' ? DISORDER_CARETAKER : DEFAULT_CARETAKER)];
}

export function planCaretaker(input: PlanInput): CaretakerPlan {
  const { campaign, state, nation, policy } = input;
  const turn = state.turn + 1;
  const def = caretakerFor(campaign, policy, input.caretaker);
  const caretaker = def?.id ?? input.caretaker ?? (policy === 'disorder' ? DISORDER_CARETAKER : DEFAULT_CARETAKER);
  const orders: NationOrders = { nation, turn, orders: [], seat: { policy, caretaker } };
  const plan: CaretakerPlan = { orders, reasons: [], rolls: [], dropped: [] };
  if (!def || !state.nations[nation]?.alive) return plan;

  const view = seatView(campaign, state, nation);
  const dice = new SeededRandomiser(campaign.seed, turn);
  const ctx = new TurnContext(campaign, view, { nations: {}, gm: [] }, dice);
  const planner = new Planner(ctx, new EventScene(ctx), nation, dice.stream(`caretaker:${nation}`));
  for (const step of def.steps) {
    if (!step.when.every((c) => planner.holdsAt(c, { scope: 'nation' }))) continue;
    if (step.chance !== undefined) {
      const roll = planner.stream.roll('d100').value;
      const ran = roll <= step.chance;
      plan.rolls.push({ step: step.kind, chance: step.chance, roll, ran });
      if (!ran) continue;
    }
    STEPS[step.kind](planner, step as never);
  }

  // The checker every player's orders go through decides, against the same view.
  const given: NationOrders = { ...orders, orders: planner.orders.map((o) => o.order) };
  const checked = checkNationOrders(ctx, given);
  const ok = new Set(checked.accepted.map((a) => a.index));
  planner.orders.forEach((o, i) => {
    if (ok.has(i)) {
      orders.orders.push(o.order);
      plan.reasons.push(o.reason);
    }
  });
  for (const p of checked.problems) plan.dropped.push({ order: p.order, reason: p.reason });
  return plan;
}

interface Given {
  order: Order;
  reason: string;
}

/** What the steps share while they plan: the view, the units already given work, Fate and Renown left. */
class Planner {
  readonly orders: Given[] = [];
  private readonly claimed = new Set<UnitId>();
  /** Units ordered into a hex this turn, by hex. */
  private readonly comingTo = new Map<HexKey, UnitId[]>();
  fateLeft: number;
  renownLeft: number;
  readonly units: readonly UnitState[];
  readonly settlements: readonly SettlementState[];

  constructor(
    readonly ctx: TurnContext,
    readonly scene: EventScene,
    readonly nation: NationId,
    readonly stream: DiceStream,
  ) {
    const ns = ctx.nationState(nation);
    this.fateLeft = ns.fate;
    this.renownLeft = ns.renown;
    this.units = Object.values(ctx.state.units).filter((u) => u.nation === nation).sort((a, b) => compareIds(a.id, b.id));
    this.settlements = Object.values(ctx.state.settlements).filter((s) => s.nation === nation).sort((a, b) => compareIds(a.id, b.id));
  }

  holdsAt(c: Condition, target: EventTarget): boolean {
    return holds(c, { scene: this.scene, nation: this.nation, target });
  }

  whereHolds(where: readonly Condition[], s: SettlementState): boolean {
    return where.every((c) => this.holdsAt(c, { scope: 'settlement', id: s.id, hex: s.hex }));
  }

  give(order: Order, reason: string, unit?: UnitState): void {
    this.orders.push({ order, reason });
    if (unit) this.claimed.add(unit.id);
    if (order.kind === 'move') this.comingTo.set(order.to, [...(this.comingTo.get(order.to) ?? []), order.unit]);
  }

  claim(unit: UnitState): void {
    this.claimed.add(unit.id);
  }

  isFree(u: UnitState): boolean {
    return !this.claimed.has(u.id);
  }

  military(u: UnitState): boolean {
    return isMilitaryClass(this.ctx.unitType(u).class);
  }

  /** Military units that walk (ships cannot hold a settlement). */
  landMilitary(u: UnitState): boolean {
    const c = this.ctx.unitType(u).class;
    return isMilitaryClass(c) && c !== 'naval';
  }

  /** The nation's military units standing in a hex at the start of the turn. */
  garrisonAt(hex: HexKey): UnitState[] {
    return this.units.filter((u) => u.hex === hex && this.landMilitary(u));
  }

  hasComing(hex: HexKey): boolean {
    return (this.comingTo.get(hex)?.length ?? 0) > 0;
  }

  /** A unit that is the only guard of one of the nation's settlements: it stays. */
  soleGuard(u: UnitState): boolean {
    const home = this.settlements.find((s) => s.hex === u.hex);
    return home !== undefined && this.garrisonAt(home.hex).length <= 1;
  }

  /**
   * Free land military units that can get to `hex` this turn, nearest first (then by id), leaving no
   * settlement unguarded. Only units within their speed in hexes are searched: no step costs less than 1.
   */
  reachers(hex: HexKey): UnitState[] {
    const at = offsetOf(hex);
    return this.units
      .filter((u) => this.isFree(u) && this.landMilitary(u) && u.hex !== hex && !u.aboard && !this.soleGuard(u))
      .map((u) => ({ u, d: hexDistance(offsetOf(u.hex), at) }))
      .filter(({ u, d }) => d <= Math.max(1, this.ctx.unitType(u).speed) && canReach(this.ctx, u, hex))
      .sort((a, b) => a.d - b.d || compareIds(a.u.id, b.u.id))
      .map(({ u }) => u);
  }

  /**
   * The nearest free land military unit that cannot get to `hex` this turn but is on its way within a few
   * turns, and the hex of its reach nearest the goal: a step towards it. Undefined when none is near.
   */
  approach(hex: HexKey): { unit: UnitState; to: HexKey } | undefined {
    const at = offsetOf(hex);
    const near = this.units
      .filter((u) => this.isFree(u) && this.landMilitary(u) && u.hex !== hex && !u.aboard && !u.besieging && !this.soleGuard(u))
      .map((u) => ({ u, d: hexDistance(offsetOf(u.hex), at) }))
      .filter(({ u, d }) => d <= APPROACH_TURNS * Math.max(1, this.ctx.unitType(u).speed))
      .sort((a, b) => a.d - b.d || compareIds(a.u.id, b.u.id));
    for (const { u, d } of near) {
      let best: { hex: HexKey; d: number } | undefined;
      for (const [h] of reachOf(this.ctx, u).entries()) {
        const dh = hexDistance(offsetOf(h), at);
        if (dh < d && (!best || dh < best.d || (dh === best.d && compareIds(h, best.hex) < 0))) best = { hex: h, d: dh };
      }
      if (best) return { unit: u, to: best.hex };
    }
    return undefined;
  }

  /** Fate for one pledge, if the nation still has it. */
  pledge(fate: number): number {
    if (fate <= 0 || this.fateLeft < fate) return 0;
    this.fateLeft -= fate;
    return fate;
  }
}

const fateText = (fate: number) => (fate ? `, pledging ${fate} Fate` : '');

/** How many turns away a unit may be to be sent towards an unguarded settlement. */
const APPROACH_TURNS = 4;

/** One runner per step kind; the mapped type makes a missing one a compile error. */
const STEPS: { [K in CaretakerStep['kind']]: (p: Planner, step: Extract<CaretakerStep, { kind: K }>) => void } = {
  keep_work(p) {
    const builders = new Set(p.ctx.state.builds.flatMap((b) => (b.nation === p.nation && b.builder ? [b.builder] : [])));
    for (const u of p.units) if (p.isFree(u) && (u.besieging || builders.has(u.id))) p.claim(u);
  },

  defend(p, step) {
    for (const s of p.settlements) {
      if (!p.whereHolds(step.where, s)) continue;
      const guards = p.garrisonAt(s.hex).filter((u) => p.isFree(u));
      if (guards.length === 0 && p.garrisonAt(s.hex).length === 0 && !p.hasComing(s.hex)) {
        const nearest = p.reachers(s.hex)[0];
        if (nearest) p.give({ kind: 'move', unit: nearest.id, to: s.hex }, `goes to hold ${s.name}, which foreign units threaten`, nearest);
      }
      let pledged = false;
      for (const u of guards) {
        const fate: number = pledged ? 0 : p.pledge(step.fate);
        pledged ||= fate > 0;
        p.give({ kind: 'hold', unit: u.id, ...(fate ? { fate } : {}) }, `holds ${s.name}, which foreign units threaten${fateText(fate)}`, u);
      }
      if (!step.support) continue;
      const room = p.ctx.rules.maxSettlementDefenders - p.garrisonAt(s.hex).length - (p.hasComing(s.hex) ? 1 : 0);
      const ready = p.reachers(s.hex).slice(0, Math.max(0, room));
      for (const u of ready) {
        const fate: number = pledged ? 0 : p.pledge(step.fate);
        pledged ||= fate > 0;
        p.give({ kind: 'defend', unit: u.id, protect: { settlement: s.id }, ...(fate ? { fate } : {}) }, `stands ready to defend ${s.name}${fateText(fate)}`, u);
      }
      // Room left: the nearest unit farther off comes closer, to stand ready next turn.
      const towards = ready.length < room ? p.approach(s.hex) : undefined;
      if (towards) p.give({ kind: 'move', unit: towards.unit.id, to: towards.to }, `marches to the aid of ${s.name}, which foreign units threaten`, towards.unit);
    }
  },

  garrison(p, step) {
    for (const s of p.settlements) {
      if (!p.whereHolds(step.where, s)) continue;
      const here = p.garrisonAt(s.hex);
      if (here.length > 0) {
        // Its guard stays (holding needs no order).
        for (const u of here.slice(0, 1)) if (p.isFree(u)) p.claim(u);
        continue;
      }
      if (p.hasComing(s.hex)) continue;
      const nearest = p.reachers(s.hex)[0];
      if (nearest) {
        p.give({ kind: 'move', unit: nearest.id, to: s.hex }, `goes to garrison ${s.name}, which has no guard`, nearest);
        continue;
      }
      const towards = p.approach(s.hex);
      if (towards) p.give({ kind: 'move', unit: towards.unit.id, to: towards.to }, `marches towards ${s.name}, which has no guard`, towards.unit);
    }
  },

  retake(p, step) {
    const lost = Object.values(p.ctx.state.settlements)
      .filter((s) => s.takenFrom === p.nation && s.nation !== p.nation)
      .sort((a, b) => compareIds(a.id, b.id));
    for (const s of lost) {
      if (!p.whereHolds(step.where, s)) continue;
      // What the seat sees of the holder's guard there.
      const held = p.ctx.unitsAt(s.hex).filter((u) => u.nation === s.nation && p.military(u)).length;
      const force = p.reachers(s.hex).slice(0, 1 + p.ctx.rules.maxSupportUnits);
      const infantry = force.filter((u) => p.ctx.unitType(u).class === 'infantry');
      const enough = held === 0 ? infantry.length > 0 && force.length >= 1 : force.length >= Math.max(step.min, held + 1);
      if (!enough) continue;
      const lead = infantry[0] ?? force[0]!;
      const support = force.filter((u) => u.id !== lead.id).map((u) => u.id);
      const fate = p.pledge(step.fate);
      const reason = `retakes ${s.name}, which was ${p.ctx.nationDef(p.nation).name}'s own${support.length ? `, with ${support.length} in support` : ''}${fateText(fate)}`;
      p.give({ kind: 'attack', unit: lead.id, target: { settlement: s.id }, ...(support.length ? { support } : {}), ...(fate ? { fate } : {}) }, reason, lead);
      for (const id of support) p.claim(force.find((u) => u.id === id)!);
    }
  },

  raise(p, step) {
    const def = p.ctx.nationDef(p.nation);
    const held = startOfTurn(p.ctx).heldUnits;
    const heads = { military: held.get(`${p.nation}:military`) ?? 0, diplomatic: held.get(`${p.nation}:diplomatic`) ?? 0 };
    const slots = new Map<string, number>();
    // Settlements without a guard first (the unit raised there guards it), then the biggest.
    const order = { capital: 0, city: 1, town: 2, village: 3 } as const;
    const unguarded = (s: SettlementState) => (p.garrisonAt(s.hex).length === 0 && !p.hasComing(s.hex) ? 0 : 1);
    const where = [...p.settlements].sort((a, b) => unguarded(a) - unguarded(b) || order[a.level] - order[b.level] || compareIds(a.id, b.id));
    for (const cls of step.classes) {
      const kind = isMilitaryClass(cls) ? 'military' : 'diplomatic';
      const types = Object.values(def.unitTypes)
        .filter((t) => t.class === cls)
        .sort((a, b) => compareIds(a.id, b.id));
      while (heads[kind] < def.caps[kind]) {
        let best: { order: Order; renown: number; keys: string[]; place: string; cost: number } | undefined;
        for (const s of where) {
          for (const t of types) {
            const order: Order = { kind: 'build_unit', settlement: s.id, unitType: t.id };
            const v = checkBuildUnit(p.ctx, p.nation, order);
            if (!v.ok) continue;
            const renown = v.renown ?? 0;
            if (renown > p.renownLeft - step.keep) continue;
            if ((v.slots ?? []).some((slot) => (slots.get(slot.key) ?? 0) >= slot.limit)) continue;
            if (!best || renown < best.cost) best = { order, renown, keys: (v.slots ?? []).map((slot) => slot.key), place: s.name, cost: renown };
          }
          if (best) break;
        }
        if (!best) break;
        for (const key of best.keys) slots.set(key, (slots.get(key) ?? 0) + 1);
        p.renownLeft -= best.renown;
        heads[kind] += 1;
        const typeName = def.unitTypes[(best.order as { unitType: string }).unitType]?.name ?? cls;
        p.give(best.order, `raises ${typeName} at ${best.place} (${heads[kind]} of ${def.caps[kind]} ${kind} units; ${best.renown} Renown)`);
      }
    }
  },

  rest(p) {
    for (const u of p.units) if (p.isFree(u) && u.health === 'bloodied' && !u.besieging) p.give({ kind: 'rest', unit: u.id }, 'rests to heal', u);
  },
};
