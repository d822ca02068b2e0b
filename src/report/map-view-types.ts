/**
 * What a report's map is drawn from (types.ts gathers every view type): the window, its terrain, the
 * sites, and what moved or happened at a hex this turn.
 */

export interface MapWindow {
  col: number;
  row: number;
  cols: number;
  rows: number;
}

/** Terrain of the map window, one character per hex, with the legend. */
export interface TerrainGrid {
  width: number;
  height: number;
  window: MapWindow;
  legend: Record<string, string>;
  rows: string[];
}

export interface ResourceSite {
  hex: string;
  kind: string;
  name: string;
}

/** A unit's way across the map this turn: the hexes it passed, where it started first. */
export interface MapMove {
  /** The unit as the reader names it. */
  unit: string;
  nation: string;
  hexes: string[];
  /** It fled from an attack rather than marched. */
  fled: boolean;
}

/** Something that happened at a hex this turn, as the map marks it. */
export interface MapMark {
  kind: 'battle' | 'siege' | 'lost' | 'new';
  hex: string;
  /** One sentence, the mark's tooltip. */
  text: string;
}

/**
 * What the map draws of this turn: taken from the events the nation took part
 * in (the same ones its report tells), so a mark shows nothing the text does not.
 */
export interface MapChanges {
  moves: MapMove[];
  marks: MapMark[];
}
