import { compareIds } from '../core/ids.js';
import type { GmView, NationView, ResourceSite, TerrainGrid } from './types.js';

/**
 * What a map drawing needs, taken from a view (never from the game state),
 * so the SVG and ASCII maps can only show what the view already allows.
 */
export interface MapNation {
  id: string;
  name: string;
  /** One letter for the ASCII map: upper case for settlements, lower case for units. */
  letter: string;
  colour: string;
}

export interface MapSettlement {
  hex: string;
  name: string;
  nation: string;
  level: string;
}

export interface MapUnit {
  hex: string;
  label: string;
  nation: string;
}

export interface MapModel {
  title: string;
  grid: TerrainGrid;
  /** Hexes in sight; null when everything is (the GM's map). */
  seen: ReadonlySet<string> | null;
  /** The reader's nation, drawn first in a crowded hex; null for the GM. */
  reader: string | null;
  nations: MapNation[];
  settlements: MapSettlement[];
  units: MapUnit[];
  resources: ResourceSite[];
  /** Trade routes, drawn as lines between their settlements. */
  routes?: { from: string; to: string; label: string }[];
}

/** Colours for nations in id order; readable on every terrain colour. */
export const NATION_COLOURS = ['#c0392b', '#2455a4', '#7d3c98', '#d35400', '#117a65', '#b7950b', '#884ea0', '#1f618d', '#a04000', '#196f3d', '#6e2c00', '#4a235a'];

export function mapNations(list: readonly { id: string; name: string }[]): MapNation[] {
  const used = new Set<string>();
  return [...list]
    .sort((a, b) => compareIds(a.id, b.id))
    .map((n, i) => {
      const candidates = [...`${n.name}${n.id}`.toUpperCase()].filter((c) => /[A-Z]/.test(c));
      let letter = candidates.find((c) => !used.has(c)) ?? [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].find((c) => !used.has(c)) ?? '?';
      used.add(letter);
      return { id: n.id, name: n.name, letter, colour: NATION_COLOURS[i % NATION_COLOURS.length] ?? '#000000' };
    });
}

export function nationMapModel(view: NationView): MapModel {
  const me = view.nation.id;
  return {
    title: `${view.nation.name}: the known world after turn ${view.header.turn}`,
    grid: view.map,
    seen: new Set(view.sight.hexes),
    reader: me,
    nations: mapNations(view.nations),
    settlements: [
      ...view.settlements.map((s) => ({ hex: s.hex, name: s.name, nation: me, level: s.level })),
      ...view.sight.settlements.map((s) => ({ hex: s.hex, name: s.name, nation: s.nation, level: s.level })),
    ],
    units: [...view.units.map((u) => ({ hex: u.hex, label: u.label, nation: me })), ...view.sight.units.map((u) => ({ hex: u.hex, label: u.label, nation: u.nation }))],
    resources: view.sight.resources,
    ...(view.tradeRoutes.length ? { routes: view.tradeRoutes.map((r) => ({ from: r.fromHex, to: r.toHex, label: `Trade route ${r.from} – ${r.to}` })) } : {}),
  };
}

export function gmMapModel(view: GmView): MapModel {
  return {
    title: `The whole world after turn ${view.header.turn}`,
    grid: view.map,
    seen: null,
    reader: null,
    nations: mapNations(view.table),
    settlements: view.world.settlements.map((s) => ({ hex: s.hex, name: s.name, nation: s.nation, level: s.level })),
    units: view.world.units.map((u) => ({ hex: u.hex, label: u.label, nation: u.nation })),
    resources: view.world.resources,
    ...(view.world.tradeRoutes.length ? { routes: view.world.tradeRoutes.map((r) => ({ from: r.fromHex, to: r.toHex, label: `Trade route ${r.from} – ${r.to}` })) } : {}),
  };
}
