import type { Campaign } from '../campaign.js';
import { hexDistance, offsetOf } from '../hex.js';
import type { HexKey, NationId, SettlementId, UnitId } from '../ids.js';
import type { AspectPlace, AspectState, GameState } from '../state.js';
import { unitName } from '../unit-name.js';

/**
 * Where aspects sit and who sees them (docs/rules.md A1). Aspects are found
 * by their readable name, compared without case, quotes or doubled spaces.
 */
export const aspectKey = (name: string): string =>
  name
    .replace(/["“”]/g, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();

/**
 * Who may spend an aspect's free invokes: its owner, or anyone when it has
 * none (seed 000 "Free Invokes") — but never the nation whose failed attempt
 * brought it into play (seed 000 line 107).
 */
export const mayUseFree = (a: AspectState, nation: NationId): boolean => (a.owner === undefined || a.owner === nation) && a.backfired !== nation;

/** The nation an aspect is on, if any: the nation itself, or the owner of the settlement or unit. A region is no one's. */
export function holderOf(state: GameState, place: AspectPlace): NationId | undefined {
  if ('nation' in place) return place.nation;
  if ('settlement' in place) return state.settlements[place.settlement]?.nation;
  if ('unit' in place) return state.units[place.unit]?.nation;
  return undefined;
}

/**
 * A secret aspect is seen by its owner only (with no owner, by the nation it
 * is on); every other aspect by everyone. The GM sees them all.
 */
export function canSee(state: GameState, aspect: AspectState, nation: NationId): boolean {
  if (!aspect.secret) return true;
  return (aspect.owner ?? holderOf(state, aspect.on)) === nation;
}

export function visibleAspects(state: GameState, nation: NationId): AspectState[] {
  return (state.aspects ?? []).filter((a) => canSee(state, a, nation));
}

/** The aspects a nation sees under this name (several places may share a name). */
export function findAspects(state: GameState, nation: NationId, name: string): AspectState[] {
  const key = aspectKey(name);
  return visibleAspects(state, nation).filter((a) => aspectKey(a.name) === key);
}

export function samePlace(a: AspectPlace, b: AspectPlace): boolean {
  if ('nation' in a) return 'nation' in b && a.nation === b.nation;
  if ('settlement' in a) return 'settlement' in b && a.settlement === b.settlement;
  if ('unit' in a) return 'unit' in b && a.unit === b.unit;
  return 'hex' in b && a.hex === b.hex && (a.radius ?? 0) === (b.radius ?? 0);
}

/** The hex an aspect's place stands on, if it is on the map (a region's centre). */
export function placeHex(state: GameState, place: AspectPlace): HexKey | undefined {
  if ('settlement' in place) return state.settlements[place.settlement]?.hex;
  if ('unit' in place) return state.units[place.unit]?.hex;
  if ('hex' in place) return place.hex;
  return undefined;
}

/** The place in words, as reports and receipts say it: "Argenta", "Cinderford", "Iron Guard", "the region around 25,6". */
export function placeText(campaign: Campaign, state: GameState, place: AspectPlace): string {
  if ('nation' in place) return campaign.nations[place.nation]?.name ?? place.nation;
  if ('settlement' in place) return state.settlements[place.settlement]?.name ?? place.settlement;
  if ('unit' in place) {
    const u = state.units[place.unit];
    return u ? unitName(campaign, u) : place.unit;
  }
  return place.radius ? `the region within ${place.radius} of ${place.hex}` : `the region at ${place.hex}`;
}

/** What a roll touches: the aspects on these are in play for it (docs/rules.md A3). */
export interface RollScene {
  nations: readonly NationId[];
  hex?: HexKey;
  settlement?: SettlementId;
  units: readonly UnitId[];
}

export function inPlay(state: GameState, aspect: AspectState, scene: RollScene): boolean {
  const on = aspect.on;
  if ('nation' in on) return scene.nations.includes(on.nation);
  if ('settlement' in on) return on.settlement === scene.settlement || (scene.hex !== undefined && state.settlements[on.settlement]?.hex === scene.hex);
  if ('unit' in on) return scene.units.includes(on.unit);
  return scene.hex !== undefined && hexDistance(offsetOf(on.hex), offsetOf(scene.hex)) <= (on.radius ?? 0);
}
