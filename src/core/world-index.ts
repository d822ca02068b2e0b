import type { Campaign } from './campaign.js';
import { GameMap } from './map.js';
import { perCampaignAndState, perState } from './memo.js';
import type { HexKey, NationId } from './ids.js';
import type { ExternalState, GameState, SettlementState, UnitState } from './state.js';
import { pushTo } from './multimap.js';

/**
 * Every unit of a state that no longer changes, in the state's own order,
 * listed once. A big state's units are a hundred thousand keys, which V8
 * keeps as a dictionary: each Object.values of it costs tens of milliseconds
 * (a walk by key, then a sort into order), and the turn's indexes each took
 * one. A key walk is twice as fast, and one is enough.
 */
export const allUnits = perState((state): readonly UnitState[] => {
  const units: UnitState[] = [];
  for (const id in state.units) units.push(state.units[id as keyof GameState['units']]!);
  return units;
});

/**
 * Lookups by nation and by hex over one game state, built in a single pass
 * and shared by everything that looks at that state (order checks, names,
 * reports), so per-nation work never scans the whole world. Keyed weakly by
 * the state object: use it only on a state that is not changing any more
 * (in the engine, the turn's untouched starting state, TurnContext.start).
 */
export class WorldIndex {
  readonly unitsByNation = new Map<NationId, UnitState[]>();
  readonly unitsByHex = new Map<HexKey, UnitState[]>();
  readonly settlementsByNation = new Map<NationId, SettlementState[]>();
  readonly settlementByHex = new Map<HexKey, SettlementState>();
  readonly externalsByNation = new Map<NationId, ExternalState[]>();
  readonly externalsByHex = new Map<HexKey, ExternalState[]>();
  private readonly sight = new Map<NationId, Set<HexKey>>();

  private constructor(
    private readonly campaign: Campaign,
    readonly state: GameState,
  ) {
    for (const u of allUnits(state)) {
      pushTo(this.unitsByNation, u.nation, u);
      pushTo(this.unitsByHex, u.hex, u);
    }
    for (const s of Object.values(state.settlements)) {
      pushTo(this.settlementsByNation, s.nation, s);
      this.settlementByHex.set(s.hex, s);
    }
    for (const e of Object.values(state.externals)) {
      pushTo(this.externalsByNation, e.nation, e);
      pushTo(this.externalsByHex, e.hex, e);
    }
  }

  private static readonly made = perCampaignAndState((campaign, state) => new WorldIndex(campaign, state));

  static of(campaign: Campaign, state: GameState): WorldIndex {
    return WorldIndex.made(campaign, state);
  }

  unitsOf(nation: NationId): readonly UnitState[] {
    return this.unitsByNation.get(nation) ?? [];
  }

  settlementsOf(nation: NationId): readonly SettlementState[] {
    return this.settlementsByNation.get(nation) ?? [];
  }

  unitsAt(hex: HexKey): readonly UnitState[] {
    return this.unitsByHex.get(hex) ?? [];
  }

  /**
   * The hexes a nation sees: within rules.sight of its units and settlements.
   * One definition for the whole program: what a report shows and what an
   * order may target come from here.
   */
  visibleHexes(nation: NationId): ReadonlySet<HexKey> {
    let seen = this.sight.get(nation);
    if (seen) return seen;
    const { unit, settlement } = this.campaign.rules.sight;
    const sources: [HexKey, number][] = [];
    for (const u of this.unitsOf(nation)) sources.push([u.hex, unit]);
    for (const s of this.settlementsOf(nation)) sources.push([s.hex, settlement]);
    seen = GameMap.of(this.campaign).sightFrom(sources);
    this.sight.set(nation, seen);
    return seen;
  }

  /** Foreign units standing in hexes the nation sees. */
  foreignUnitsSeenBy(nation: NationId): UnitState[] {
    const out: UnitState[] = [];
    for (const hex of this.visibleHexes(nation)) for (const u of this.unitsAt(hex)) if (u.nation !== nation) out.push(u);
    return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  sees(nation: NationId, hex: HexKey): boolean {
    return this.visibleHexes(nation).has(hex);
  }
}
