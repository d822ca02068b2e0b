import { compareIds } from '../core/ids.js';
import { nationColour } from './palette.js';
import type { GmView, MapChanges, NationView, ResourceSite, TerrainGrid } from './types.js';

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

/** An external structure (a mine, a port...) standing on the map. */
export interface MapStructure {
  hex: string;
  name: string;
  nation: string;
}

export interface MapModel {
  title: string;
  grid: TerrainGrid;
  /** Hexes in sight; null when everything is (the GM's map). */
  seen: ReadonlySet<string> | null;
  /** The reader's nation, drawn first in a crowded hex; null for the GM. */
  reader: string | null;
  /** The nations drawn, each with its colour and letter: the reader's first. */
  nations: MapNation[];
  settlements: MapSettlement[];
  units: MapUnit[];
  resources: ResourceSite[];
  structures: MapStructure[];
  /** This turn's moves and marks; null on the GM's map. */
  changes: MapChanges | null;
  /** The reader's own units' and settlements' hexes, for the overview; null on the GM's map (which is the whole map). */
  own: string[] | null;
  /** Trade routes, drawn as lines between their settlements. */
  routes?: { from: string; to: string; label: string }[];
}

/**
 * Colours and letters for the nations a map draws, in the order given: the
 * first colour of the palette (palette.ts) goes to the first nation, so a
 * nation's own map draws it in the same colour every turn, and the few
 * nations on one map get the colours most apart. Letters are unique on the
 * map (the first letter of its id where free, as in argenta's A); past 26 nations there are none left
 * and the marker shows only the count.
 */
export function mapNations(list: readonly { id: string; name: string }[]): MapNation[] {
  const used = new Set<string>();
  return list.map((n, i) => {
    const candidates = [...`${n.id}${n.name}`.toUpperCase()].filter((c) => /[A-Z]/.test(c));
    const letter = candidates.find((c) => !used.has(c)) ?? [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].find((c) => !used.has(c)) ?? '?';
    used.add(letter);
    return { id: n.id, name: n.name, letter, colour: nationColour(i) };
  });
}

export function nationMapModel(view: NationView): MapModel {
  const me = view.nation.id;
  const settlements = [
    ...view.settlements.map((s) => ({ hex: s.hex, name: s.name, nation: me, level: s.level })),
    ...view.sight.settlements.map((s) => ({ hex: s.hex, name: s.name, nation: s.nation, level: s.level })),
  ];
  const units = [...view.units.map((u) => ({ hex: u.hex, label: u.label, nation: me })), ...view.sight.units.map((u) => ({ hex: u.hex, label: u.label, nation: u.nation }))];
  const structures = [...view.externals, ...view.sight.externals].map((e) => ({ hex: e.hex, name: e.name, nation: e.nation }));
  // Only the nations this map draws, the reader first: their colours are then the palette's most distinct.
  const drawn = new Set<string>([...settlements, ...units, ...structures, ...view.changes.moves].map((x) => x.nation));
  drawn.delete(me);
  const names = new Map<string, string>([...view.nations.map((n) => [n.id, n.name] as const), ...view.sight.units.map((u) => [u.nation, u.nationName] as const), ...view.sight.settlements.map((s) => [s.nation, s.nationName] as const), ...view.sight.externals.map((e) => [e.nation, e.nationName] as const)]);
  const others = [...drawn].sort(compareIds).map((id) => ({ id, name: names.get(id) ?? id }));
  return {
    title: `${view.nation.name}: the area around your nation after turn ${view.header.turn}`,
    grid: view.map,
    seen: new Set(view.sight.hexes),
    reader: me,
    nations: mapNations([{ id: me, name: view.nation.name }, ...others]),
    settlements,
    units,
    resources: view.sight.resources,
    structures,
    changes: view.changes,
    own: [...view.units.map((u) => u.hex), ...view.settlements.map((s) => s.hex)],
    ...(view.tradeRoutes.length ? { routes: view.tradeRoutes.map((r) => ({ from: r.fromHex, to: r.toHex, label: `Trade route ${r.from} – ${r.to}` })) } : {}),
  };
}

export function gmMapModel(view: GmView): MapModel {
  return {
    title: `The whole world after turn ${view.header.turn}`,
    grid: view.map,
    seen: null,
    reader: null,
    nations: mapNations([...view.table].sort((a, b) => compareIds(a.id, b.id))),
    settlements: view.world.settlements.map((s) => ({ hex: s.hex, name: s.name, nation: s.nation, level: s.level })),
    units: view.world.units.map((u) => ({ hex: u.hex, label: u.label, nation: u.nation })),
    resources: view.world.resources,
    structures: view.world.externals.map((e) => ({ hex: e.hex, name: e.name, nation: e.nation })),
    changes: null,
    own: null,
    ...(view.world.tradeRoutes.length ? { routes: view.world.tradeRoutes.map((r) => ({ from: r.fromHex, to: r.toHex, label: `Trade route ${r.from} – ${r.to}` })) } : {}),
  };
}
