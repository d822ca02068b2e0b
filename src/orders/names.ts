import type { Campaign } from '../core/campaign.js';
import { parseHex, hexKey } from '../core/hex.js';
import type { HexKey, NationId, SettlementId, UnitId } from '../core/ids.js';
import type { GameState } from '../core/state.js';
import { didYouMean } from './suggest.js';

/**
 * Resolves what players write — ids, names in any case, coordinates, place
 * names — to ids, for one nation's point of view. Built once per order sheet.
 */
export type Resolved<T> = { ok: true; value: T } | { ok: false; reason: string; hint?: string };

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

export class NameBook {
  private readonly ownUnits = new Map<string, UnitId>();
  private readonly anyUnits = new Map<string, UnitId>();
  private readonly settlements = new Map<string, SettlementId>();
  private readonly places = new Map<string, HexKey>();

  constructor(
    private readonly campaign: Campaign,
    private readonly state: GameState,
    readonly nation: NationId,
  ) {
    for (const u of Object.values(state.units)) {
      const keys = [u.id, ...(u.name ? [u.name] : [])].map(norm);
      for (const k of keys) {
        if (u.nation === nation) this.ownUnits.set(k, u.id);
        this.anyUnits.set(k, u.id);
      }
    }
    for (const s of Object.values(state.settlements)) {
      this.settlements.set(norm(s.id), s.id);
      this.settlements.set(norm(s.name), s.id);
    }
    for (const [name, hex] of Object.entries(campaign.map.places)) this.places.set(norm(name), hex);
  }

  ownUnit(text: string): Resolved<UnitId> {
    const id = this.ownUnits.get(norm(text));
    if (id) return { ok: true, value: id };
    if (this.anyUnits.has(norm(text))) return { ok: false, reason: `"${text}" is not one of your units` };
    return { ok: false, reason: `you have no unit "${text}"`, hint: didYouMean(text, this.ownUnits.keys()) };
  }

  /** A unit or a settlement: attack and defend targets may be either. */
  target(text: string): Resolved<{ unit: UnitId } | { settlement: SettlementId }> {
    const s = this.settlements.get(norm(text));
    if (s) return { ok: true, value: { settlement: s } };
    const u = this.anyUnits.get(norm(text));
    if (u) return { ok: true, value: { unit: u } };
    return { ok: false, reason: `no unit or settlement "${text}"`, hint: didYouMean(text, [...this.anyUnits.keys(), ...this.settlements.keys()]) };
  }

  settlement(text: string): Resolved<SettlementId> {
    const s = this.settlements.get(norm(text));
    if (s) return { ok: true, value: s };
    return { ok: false, reason: `no settlement "${text}"`, hint: didYouMean(text, this.settlements.keys()) };
  }

  unit(text: string): Resolved<UnitId> {
    const u = this.anyUnits.get(norm(text));
    if (u) return { ok: true, value: u };
    return { ok: false, reason: `no unit "${text}"`, hint: didYouMean(text, this.anyUnits.keys()) };
  }

  hex(text: string): Resolved<HexKey> {
    const at = parseHex(text);
    if (at) {
      if (at.col < 0 || at.row < 0 || at.col >= this.campaign.map.width || at.row >= this.campaign.map.height) {
        return { ok: false, reason: `${at.col},${at.row} is off the map`, hint: `the map runs from 0,0 to ${this.campaign.map.width - 1},${this.campaign.map.height - 1}` };
      }
      return { ok: true, value: hexKey(at.col, at.row) };
    }
    const place = this.places.get(norm(text));
    if (place) return { ok: true, value: place };
    const s = this.settlements.get(norm(text));
    if (s) {
      const settlement = this.state.settlements[s];
      if (settlement) return { ok: true, value: settlement.hex };
    }
    return { ok: false, reason: `"${text}" is not a hex ("col,row") or a known place`, hint: didYouMean(text, [...this.places.keys(), ...this.settlements.keys()]) };
  }
}
