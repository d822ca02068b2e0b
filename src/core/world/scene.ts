import { isMilitaryClass } from '../campaign.js';
import type { TurnContext } from '../context.js';
import { hexesWithin, hexKey, offsetOf } from '../hex.js';
import { compareIds, type HexKey, type NationId } from '../ids.js';
import { pushTo } from '../multimap.js';
import type { ExternalState, SettlementState, UnitState } from '../state.js';
import { WorldIndex } from '../world-index.js';
import type { EventTarget } from './types.js';

/**
 * The world as the events phase needs it, indexed once per turn (one pass
 * over units, settlements, builds and the turn's log), so deciding a
 * thousand nations' events never scans the world per nation or per event.
 * Effects that add or remove units and settlements keep it up to date.
 */
export class EventScene {
  private readonly units = new Map<NationId, UnitState[]>();
  private readonly unitsByHex = new Map<HexKey, UnitState[]>();
  private readonly settlements = new Map<NationId, SettlementState[]>();
  private readonly training = new Map<NationId, { military: number; diplomatic: number }>();
  private readonly hexTargets = new Map<NationId, EventTarget[]>();
  private readonly near = new Map<string, HexKey[]>();

  constructor(readonly ctx: TurnContext) {
    for (const s of Object.values(ctx.state.settlements)) pushTo(this.settlements, s.nation, s);
    for (const b of ctx.state.builds) {
      if (b.project.kind !== 'unit') continue;
      const type = ctx.campaign.nations[b.nation]?.unitTypes[b.project.unitType];
      if (!type) continue;
      const t = this.trainingOf(b.nation);
      t[isMilitaryClass(type.class) ? 'military' : 'diplomatic'] += 1;
    }
  }

  /**
   * A nation's units now: those it had at the start of the turn (from the
   * start's world index, which the turn's other stages share) that still
   * stand, and those raised since (from the log), in id order.
   */
  private unitsNow(nation: NationId): UnitState[] {
    if (!this.raised) {
      this.raised = new Map();
      for (const e of this.ctx.events) if (e.type === 'unit_created') pushTo(this.raised, e.nation, e.unit);
    }
    const out: UnitState[] = [];
    const seen = new Set<string>();
    const take = (id: string) => {
      const u = this.ctx.state.units[id as UnitState['id']];
      if (u && u.nation === nation && !seen.has(id)) {
        seen.add(id);
        out.push(u);
      }
    };
    for (const u of WorldIndex.of(this.ctx.campaign, this.ctx.start).unitsOf(nation)) take(u.id);
    for (const id of this.raised.get(nation) ?? []) take(id);
    for (const id of this.given?.get(nation) ?? []) take(id);
    return out.sort((a, b) => compareIds(a.id, b.id));
  }

  private raised: Map<NationId, string[]> | undefined;
  private externals: Map<NationId, ExternalState[]> | undefined;

  /** A nation's external structures (indexed in one pass, on first use: only tasks and conditions that name one ask). */
  externalsOf(nation: NationId): readonly ExternalState[] {
    if (!this.externals) {
      this.externals = new Map();
      for (const e of Object.values(this.ctx.state.externals)) pushTo(this.externals, e.nation, e);
    }
    return this.externals.get(nation) ?? [];
  }
  private warring: Set<NationId> | undefined;

  /** Nations that fought a battle this turn or stand in a siege at its end (one pass over the world, on first use). */
  atWar(nation: NationId): boolean {
    if (!this.warring) {
      const w = (this.warring = new Set<NationId>());
      for (const u of Object.values(this.ctx.state.units)) {
        if (!u.besieging) continue;
        w.add(u.nation);
        const s = this.ctx.state.settlements[u.besieging];
        if (s) w.add(s.nation);
      }
      for (const e of this.ctx.events) {
        if (e.type === 'battle') {
          w.add(e.attacker.nation);
          w.add(e.defender.nation);
        }
      }
    }
    return this.warring.has(nation);
  }

  private trainingOf(nation: NationId) {
    let t = this.training.get(nation);
    if (!t) this.training.set(nation, (t = { military: 0, diplomatic: 0 }));
    return t;
  }

  /** A nation's units in id order (sorted on first use: most nations' draws are quiet and never ask). */
  unitsOf(nation: NationId): readonly UnitState[] {
    let list = this.units.get(nation);
    if (!list) this.units.set(nation, (list = this.unitsNow(nation)));
    return list;
  }

  settlementsOf(nation: NationId): readonly SettlementState[] {
    return this.sortedOnce(this.settlements, nation);
  }

  private readonly sorted = new Set<unknown>();

  private sortedOnce<T extends { id: string }>(lists: Map<NationId, T[]>, nation: NationId): readonly T[] {
    const list = lists.get(nation);
    if (!list) return [];
    if (!this.sorted.has(list)) {
      list.sort((a, b) => compareIds(a.id, b.id));
      this.sorted.add(list);
    }
    return list;
  }

  /** Units of a kind a nation has and has in training, against its cap. */
  headcount(nation: NationId, military: boolean): number {
    const key = military ? 'military' : 'diplomatic';
    const present = this.unitsOf(nation).filter((u) => {
      const type = this.ctx.campaign.nations[u.nation]?.unitTypes[u.type];
      return type !== undefined && isMilitaryClass(type.class) === military;
    }).length;
    return present + (this.training.get(nation)?.[key] ?? 0);
  }

  /** Units standing in a hex now (those lost since the phase began left out). */
  unitsAt(hex: HexKey): readonly UnitState[] {
    if (!this.unitsByHex.size) for (const u of Object.values(this.ctx.state.units)) pushTo(this.unitsByHex, u.hex, u);
    const here = this.unitsByHex.get(hex);
    if (!here) return [];
    return here.some((u) => this.ctx.state.units[u.id] !== u) ? here.filter((u) => this.ctx.state.units[u.id] === u) : here;
  }

  /** How many places an event of a scope could strike, without listing them. */
  targetCount(nation: NationId, scope: EventTarget['scope']): number {
    if (scope === 'nation') return 1;
    if (scope === 'settlement') return this.settlementsOf(nation).length;
    if (scope === 'unit') return this.unitsOf(nation).length;
    return this.targetsOf(nation, 'hex').length;
  }

  /** The map's hexes within `radius` of a hex, remembered: many units and settlements share their surroundings. */
  hexesNear(hex: HexKey, radius: number): readonly HexKey[] {
    if (radius === 0) return [hex];
    const key = `${radius}|${hex}`;
    let out = this.near.get(key);
    if (!out) {
      const { width, height } = this.ctx.campaign.map;
      out = hexesWithin(offsetOf(hex), radius)
        .filter((h) => h.col >= 0 && h.row >= 0 && h.col < width && h.row < height)
        .map((h) => hexKey(h.col, h.row));
      this.near.set(key, out);
    }
    return out;
  }

  unitAdded(unit: UnitState): void {
    this.hexTargets.delete(unit.nation);
    if (this.unitsByHex.size) pushTo(this.unitsByHex, unit.hex, unit);
    // Found again, new unit included, on the next use.
    this.units.delete(unit.nation);
  }

  unitRemoved(unit: UnitState): void {
    this.hexTargets.delete(unit.nation);
    this.units.delete(unit.nation);
  }

  /** A unit went over to another nation (a civil war): both nations' lists are found again, the unit with its new one. */
  unitChangedHands(unit: UnitState, from: NationId): void {
    for (const n of [from, unit.nation]) {
      this.hexTargets.delete(n);
      this.units.delete(n);
    }
    pushTo((this.given ??= new Map<NationId, string[]>()), unit.nation, unit.id);
  }

  private given: Map<NationId, string[]> | undefined;

  settlementMoved(s: SettlementState, from: NationId): void {
    this.hexTargets.delete(from);
    this.hexTargets.delete(s.nation);
    const old = this.settlements.get(from);
    if (old) this.settlements.set(from, old.filter((x) => x.id !== s.id));
    this.settlements.set(s.nation, [...(this.settlements.get(s.nation) ?? []), s]);
  }

  /** The places an event could strike a nation, by scope, in id order. */
  targetsOf(nation: NationId, scope: EventTarget['scope']): EventTarget[] {
    switch (scope) {
      case 'nation':
        return [{ scope: 'nation' }];
      case 'settlement':
        return this.settlementsOf(nation).map((s) => ({ scope: 'settlement', id: s.id, hex: s.hex }));
      case 'unit':
        return this.unitsOf(nation).map((u) => ({ scope: 'unit', id: u.id, hex: u.hex }));
      case 'hex': {
        let targets = this.hexTargets.get(nation);
        if (!targets) {
          const hexes = new Set<HexKey>();
          for (const s of this.settlementsOf(nation)) hexes.add(s.hex);
          for (const u of this.unitsOf(nation)) hexes.add(u.hex);
          targets = [...hexes].sort(compareIds).map((hex) => ({ scope: 'hex', hex }));
          this.hexTargets.set(nation, targets);
        }
        return targets;
      }
    }
  }

  /** Where a target stands; a nation's places are its settlements (or its units, when it has none). */
  hexesOf(nation: NationId, target: EventTarget): HexKey[] {
    if (target.scope !== 'nation') return [target.hex];
    const own = this.settlementsOf(nation).map((s) => s.hex);
    return own.length ? own : this.unitsOf(nation).map((u) => u.hex);
  }
}
