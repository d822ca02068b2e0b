import type { Campaign } from '../core/campaign.js';
import type { LoggedEvent } from '../core/events.js';
import { hexDistance, offsetOf, type Offset } from '../core/hex.js';
import { compareIds, type HexKey, type NationId } from '../core/ids.js';
import type { BuildState, GameState, UnitState } from '../core/state.js';
import { pushTo } from '../core/multimap.js';
import { allUnits, WorldIndex } from '../core/world-index.js';

/**
 * Everything the reports look up by nation, settlement or place, built once
 * per turn and shared by every nation's report and the GM's, so writing a
 * thousand reports costs a thousand small look-ups rather than a thousand
 * scans of the world.
 */
export interface Rumour {
  seq: number;
  text: string;
  /** Where it happened; rumours without a place travel everywhere. */
  hex?: HexKey;
  nations: readonly NationId[];
}

/** How far word travels, in hexes, and how many rumours a report carries. */
export const RUMOUR_RANGE = 12;
export const MAX_RUMOURS = 12;
const CELL = 16;

export class ReportIndex {
  readonly world: WorldIndex;
  readonly worldBefore: WorldIndex;
  private readonly byNation = new Map<NationId, LoggedEvent[]>();
  private readonly buildsBySettlement = new Map<string, BuildState[]>();
  private readonly buildsByNation = new Map<NationId, BuildState[]>();
  private readonly besiegersOf = new Map<string, UnitState[]>();
  private rumourCells: Map<number, PlacedRumour[]> | undefined;
  private rumoursEverywhere: Rumour[] = [];

  private constructor(
    readonly campaign: Campaign,
    readonly before: GameState,
    readonly state: GameState,
    readonly events: readonly LoggedEvent[],
  ) {
    this.world = WorldIndex.of(campaign, state);
    this.worldBefore = WorldIndex.of(campaign, before);
    for (const e of events) for (const n of e.nations) pushTo(this.byNation, n, e);
    for (const b of state.builds) {
      if (b.settlement) pushTo(this.buildsBySettlement, b.settlement, b);
      pushTo(this.buildsByNation, b.nation, b);
    }
    for (const u of allUnits(state)) if (u.besieging) pushTo(this.besiegersOf, u.besieging, u);
    for (const list of this.besiegersOf.values()) list.sort((a, b) => compareIds(a.id, b.id));
  }

  static of(campaign: Campaign, before: GameState, state: GameState, events: readonly LoggedEvent[]): ReportIndex {
    let index = cache.get(events);
    if (!index || index.state !== state || index.before !== before || index.campaign !== campaign) {
      index = new ReportIndex(campaign, before, state, events);
      cache.set(events, index);
    }
    return index;
  }

  /** The events a nation took part in, in log order. */
  eventsOf(nation: NationId): readonly LoggedEvent[] {
    return this.byNation.get(nation) ?? [];
  }

  buildsIn(settlement: string): readonly BuildState[] {
    return this.buildsBySettlement.get(settlement) ?? [];
  }

  buildsOf(nation: NationId): readonly BuildState[] {
    return this.buildsByNation.get(nation) ?? [];
  }

  besiegers(settlement: string): readonly UnitState[] {
    return this.besiegersOf.get(settlement) ?? [];
  }

  /**
   * Rumours a nation hears: word of events it took no part in, from within
   * RUMOUR_RANGE of its settlements (or from anywhere, for news without a
   * place), the latest MAX_RUMOURS of them. Found through a coarse grid, so
   * the cost does not grow with the size of the world.
   */
  rumoursFor(nation: NationId, make: (e: LoggedEvent) => Rumour | undefined): Rumour[] {
    if (!this.rumourCells) {
      this.rumourCells = new Map();
      for (const e of this.events) {
        const r = make(e);
        if (!r) continue;
        if (!r.hex) this.rumoursEverywhere.push(r);
        else {
          // Where it happened, read once: every nation near it asks.
          const at = offsetOf(r.hex);
          pushTo(this.rumourCells, cellKey(Math.floor(at.col / CELL), Math.floor(at.row / CELL)), { rumour: r, at });
        }
      }
    }
    const found = new Map<number, Rumour>();
    for (const s of this.world.settlementsOf(nation)) {
      const home = offsetOf(s.hex);
      const cx = Math.floor(home.col / CELL);
      const cy = Math.floor(home.row / CELL);
      for (let dx = -1; dx <= 1; dx++) {
        for (let dy = -1; dy <= 1; dy++) {
          for (const { rumour, at } of this.rumourCells.get(cellKey(cx + dx, cy + dy)) ?? []) {
            if (hexDistance(home, at) <= RUMOUR_RANGE) found.set(rumour.seq, rumour);
          }
        }
      }
    }
    for (const r of this.rumoursEverywhere) found.set(r.seq, r);
    return [...found.values()]
      .filter((r) => !r.nations.includes(nation))
      .sort((a, b) => a.seq - b.seq)
      .slice(-MAX_RUMOURS);
  }
}

/** A rumour with a place, and that place as a column and row. */
interface PlacedRumour {
  rumour: Rumour;
  at: Offset;
}

const cache = new WeakMap<readonly LoggedEvent[], ReportIndex>();

/** A grid cell as one number (cells of a map are far fewer than 2^20 a side; a cell off the map's edge just finds none). */
function cellKey(cx: number, cy: number): number {
  return cx * 0x100000 + cy;
}
