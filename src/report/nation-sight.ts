import type { Campaign } from '../core/campaign.js';
import { compareIds, type HexKey, type NationId } from '../core/ids.js';
import type { GameState, SettlementState, UnitState } from '../core/state.js';
import { WorldIndex } from '../core/world-index.js';
import type { Namer } from './describe.js';
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

/** Foreign settlements standing in the hexes a nation sees, by hex then id. */
export function foreignSettlementsSeen(index: ReportIndex, nation: NationId, seen: ReadonlySet<HexKey>, names: Namer): ForeignSettlementView[] {
  return [...seen]
    .map((h) => index.world.settlementByHex.get(h))
    .filter((s): s is SettlementState => s !== undefined && s.nation !== nation)
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
export function sightView(
  index: ReportIndex,
  nation: NationId,
  seen: ReadonlySet<HexKey>,
  hexes: string[],
  units: ForeignUnitView[],
  settlements: ForeignSettlementView[],
): NationView['sight'] {
  const { campaign } = index;
  return {
    unitRange: campaign.rules.sight.unit,
    settlementRange: campaign.rules.sight.settlement,
    hexes,
    units,
    settlements,
    externals: externalsOf(campaign, [...seen].flatMap((h) => index.world.externalsByHex.get(h) ?? []), (e) => e.nation !== nation),
    resources: resourcesIn(campaign, seen)
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

/** Map resources standing in the given hexes. */
function resourcesIn(campaign: Campaign, hexes: ReadonlySet<HexKey>): Campaign['map']['resources'] {
  const byHex = resourcesByHex(campaign);
  const out: Campaign['map']['resources'] = [];
  for (const h of hexes) out.push(...(byHex.get(h) ?? []));
  return out;
}
