import type { Campaign } from '../core/campaign.js';
import { asHexKey, compareIds, type HexKey, type NationId } from '../core/ids.js';
import { offsetOf } from '../core/hex.js';
import type { ExternalState, GameState, SettlementState, UnitState } from '../core/state.js';
import { WorldIndex } from '../core/world-index.js';
import type { Namer } from './namer.js';
import { externalsOf } from './facts.js';
import { compareHexes, resourcesByHex, sortedByHex } from './map-grid.js';
import type { ReportIndex } from './report-index.js';
import type { ForeignSettlementView, ForeignUnitView, NationView, ResourceSite } from './types.js';

/**
 * A nation's report, the sight part: the hexes it sees at the end of the
 * turn and what stands there that is not its own — units, settlements,
 * structures — and the map's resources in them.
 */

/** Hexes a nation sees at the end of the turn (one definition, in core). */
export function sightOf(campaign: Campaign, state: GameState, nation: NationId): ReadonlySet<string> {
  return WorldIndex.of(campaign, state).visibleHexes(nation);
}

/** Units as a map shows them, by hex then id: the units a nation sees, or every unit for the GM (who adds to each with `more`). */
export function unitsOnMap(campaign: Campaign, units: readonly UnitState[], names: Namer, more?: (unit: UnitState, view: ForeignUnitView) => ForeignUnitView): ForeignUnitView[] {
  return sortedByHex(units, (u) => u.hex, (a, b) => compareIds(a.id, b.id)).map((u) => {
    const view: ForeignUnitView = {
      id: u.id,
      name: u.name ?? null,
      label: names.unit(u.id),
      nation: u.nation,
      nationName: names.nationName(u.nation),
      typeName: names.typeName(u),
      class: campaign.nations[u.nation]?.unitTypes[u.type]?.class ?? 'unknown',
      hex: u.hex,
      health: u.health,
      besieging: u.besieging ? names.settlement(u.besieging) : null,
    };
    return more ? more(u, view) : view;
  });
}

/** Everything standing in one hex at the end of the turn (only hexes with something are listed). */
interface Standing {
  units: readonly UnitState[];
  settlement: SettlementState | undefined;
  externals: readonly ExternalState[];
  resources: Readonly<Campaign['map']['resources']>;
}

const NONE: readonly never[] = [];
const standingByWorld = new WeakMap<WorldIndex, (Standing | undefined)[]>();

/**
 * The world's units, settlements, structures and map resources by hex number
 * (row * width + column), made once a turn. A nation sees a few hundred hexes
 * and a thousand nations look: reading a key's digits and one array slot per
 * hex seen costs a fraction of a look-up in each of four maps of tens of
 * thousands of hexes, whose cache misses were most of the sight part's time.
 */
function standingOf(campaign: Campaign, world: WorldIndex): readonly (Standing | undefined)[] {
  let byNumber = standingByWorld.get(world);
  if (byNumber) return byNumber;
  const { width, height } = campaign.map;
  const made: (Standing | undefined)[] = new Array<Standing | undefined>(width * height).fill(undefined);
  // Only hexes on the map: sight never reaches beyond it.
  const at = (hex: string): Standing => {
    const { col, row } = offsetOf(asHexKey(hex));
    if (col < 0 || row < 0 || col >= width || row >= height) return { units: NONE, settlement: undefined, externals: NONE, resources: NONE };
    return (made[row * width + col] ??= { units: NONE, settlement: undefined, externals: NONE, resources: NONE });
  };
  for (const [hex, units] of world.unitsByHex) at(hex).units = units;
  for (const [hex, settlement] of world.settlementByHex) at(hex).settlement = settlement;
  for (const [hex, externals] of world.externalsByHex) at(hex).externals = externals;
  for (const [hex, resources] of resourcesByHex(campaign)) at(hex).resources = resources;
  standingByWorld.set(world, (byNumber = made));
  return byNumber;
}

/** What a nation sees standing in the hexes it sees, not its own (resources whoever holds them), gathered in one pass over them. */
export interface SeenThings {
  /** Foreign units, by id (as WorldIndex.foreignUnitsSeenBy). */
  units: UnitState[];
  /** Foreign settlements, unsorted. */
  settlements: SettlementState[];
  /** Foreign structures, unsorted. */
  externals: ExternalState[];
  /** Map resources, in the order of the hexes seen. */
  resources: Campaign['map']['resources'];
}

export function thingsSeen(index: ReportIndex, nation: NationId, seen: ReadonlySet<HexKey>): SeenThings {
  const byNumber = standingOf(index.campaign, index.world);
  const { width } = index.campaign.map;
  const out: SeenThings = { units: [], settlements: [], externals: [], resources: [] };
  for (const hex of seen) {
    const { col, row } = offsetOf(hex);
    const here = byNumber[row * width + col];
    if (!here) continue;
    for (const u of here.units) if (u.nation !== nation) out.units.push(u);
    if (here.settlement && here.settlement.nation !== nation) out.settlements.push(here.settlement);
    for (const e of here.externals) if (e.nation !== nation) out.externals.push(e);
    for (const r of here.resources) out.resources.push(r);
  }
  out.units.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out;
}

/** Foreign settlements standing in the hexes a nation sees (thingsSeen), by hex then id. */
export function foreignSettlementsSeen(settlements: readonly SettlementState[], names: Namer): ForeignSettlementView[] {
  return [...settlements]
    .sort((a, b) => compareHexes(a.hex, b.hex) || compareIds(a.id, b.id))
    .map((s) => ({
      id: s.id,
      name: s.name,
      nation: s.nation,
      nationName: names.nationName(s.nation),
      level: s.level,
      hex: s.hex,
      battlements: [...s.battlements].sort((a, b) => a - b).map((b) => `+${b}`),
    }));
}

/** The report's `sight`: the ranges, the hexes in sight by position, and what stands in them. */
export function sightView(campaign: Campaign, things: SeenThings, hexes: string[], units: ForeignUnitView[], settlements: ForeignSettlementView[]): NationView['sight'] {
  return {
    unitRange: campaign.rules.sight.unit,
    settlementRange: campaign.rules.sight.settlement,
    hexes,
    units,
    settlements,
    externals: externalsOf(campaign, things.externals),
    resources: [...things.resources]
      .sort((a, b) => compareHexes(a.hex, b.hex))
      .map((r) => ({ hex: r.hex, kind: r.kind, name: r.name })),
  };
}

/** Hidden resources the nation has found (events), wherever they are. */
export function discoveriesOf(campaign: Campaign, revealed: readonly string[]): ResourceSite[] {
  const found = new Set(revealed);
  return (campaign.map.hiddenResources ?? [])
    .filter((r) => found.has(r.hex))
    .sort((a, b) => compareHexes(a.hex, b.hex))
    .map((r) => ({ hex: r.hex, kind: r.kind, name: r.name }));
}
