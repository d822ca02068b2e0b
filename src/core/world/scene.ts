import { isMilitaryClass } from '../campaign.js';
import type { TurnContext } from '../context.js';
import { compareIds, type HexKey, type NationId } from '../ids.js';
import { pushTo } from '../multimap.js';
import type { SettlementState, UnitState } from '../state.js';
import type { EventTarget } from './types.js';

/**
 * The world as the events phase needs it, indexed once per turn (one pass
 * over units, settlements, builds and the turn's log), so deciding a
 * thousand nations' events never scans the world per nation or per event.
 * Effects that add or remove units and settlements keep it up to date.
 */
export class EventScene {
  private readonly units = new Map<NationId, UnitState[]>();
  private readonly settlements = new Map<NationId, SettlementState[]>();
  private readonly training = new Map<NationId, { military: number; diplomatic: number }>();
  /** Nations that fought a battle this turn or stand in a siege at its end. */
  readonly atWar = new Set<NationId>();

  constructor(readonly ctx: TurnContext) {
    for (const u of Object.values(ctx.state.units)) {
      pushTo(this.units, u.nation, u);
      if (u.besieging) {
        this.atWar.add(u.nation);
        const s = ctx.state.settlements[u.besieging];
        if (s) this.atWar.add(s.nation);
      }
    }
    for (const list of this.units.values()) list.sort((a, b) => compareIds(a.id, b.id));
    for (const s of Object.values(ctx.state.settlements)) pushTo(this.settlements, s.nation, s);
    for (const list of this.settlements.values()) list.sort((a, b) => compareIds(a.id, b.id));
    for (const b of ctx.state.builds) {
      if (b.project.kind !== 'unit') continue;
      const type = ctx.campaign.nations[b.nation]?.unitTypes[b.project.unitType];
      if (!type) continue;
      const t = this.trainingOf(b.nation);
      t[isMilitaryClass(type.class) ? 'military' : 'diplomatic'] += 1;
    }
    for (const e of ctx.events) {
      if (e.type === 'battle') {
        this.atWar.add(e.attacker.nation);
        this.atWar.add(e.defender.nation);
      }
    }
  }

  private trainingOf(nation: NationId) {
    let t = this.training.get(nation);
    if (!t) this.training.set(nation, (t = { military: 0, diplomatic: 0 }));
    return t;
  }

  unitsOf(nation: NationId): readonly UnitState[] {
    return this.units.get(nation) ?? [];
  }

  settlementsOf(nation: NationId): readonly SettlementState[] {
    return this.settlements.get(nation) ?? [];
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

  unitAdded(unit: UnitState): void {
    const list = this.units.get(unit.nation) ?? [];
    list.push(unit);
    list.sort((a, b) => compareIds(a.id, b.id));
    this.units.set(unit.nation, list);
  }

  unitRemoved(unit: UnitState): void {
    const list = this.units.get(unit.nation);
    if (list) this.units.set(unit.nation, list.filter((u) => u.id !== unit.id && this.ctx.state.units[u.id] !== undefined));
  }

  settlementMoved(s: SettlementState, from: NationId): void {
    const old = this.settlements.get(from);
    if (old) this.settlements.set(from, old.filter((x) => x.id !== s.id));
    const list = this.settlements.get(s.nation) ?? [];
    list.push(s);
    list.sort((a, b) => compareIds(a.id, b.id));
    this.settlements.set(s.nation, list);
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
        const hexes = new Set<HexKey>();
        for (const s of this.settlementsOf(nation)) hexes.add(s.hex);
        for (const u of this.unitsOf(nation)) hexes.add(u.hex);
        return [...hexes].sort(compareIds).map((hex) => ({ scope: 'hex', hex }));
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
