import { unitLabelOf } from '../unit-name.js';
import { isMilitaryClass, type Campaign } from '../campaign.js';
import { perCampaignAndState } from '../memo.js';
import type { TurnContext } from '../context.js';
import type { HexKey, NationId, SettlementId, UnitId } from '../ids.js';
import type { Reach } from '../map.js';
import type { BuildState, GameState, SettlementState, UnitState } from '../state.js';
import { reject, type Rejected } from './verdict.js';
import { allUnits } from '../world-index.js';

/** Lookups shared by the order checkers, each answering with a ready rejection. */

export function ownUnit(ctx: TurnContext, nation: NationId, id: UnitId): UnitState | Rejected {
  const unit = ctx.unit(id);
  if (!unit) return reject(`there is no unit ${id}`);
  if (unit.nation !== nation) return reject(`unit ${id} is not yours`);
  return unit;
}

export function ownSettlement(ctx: TurnContext, nation: NationId, id: SettlementId): SettlementState | Rejected {
  const s = ctx.settlement(id);
  if (!s) return reject(`there is no settlement ${id}`);
  if (s.nation !== nation) return reject(`${s.name} is not yours`);
  return s;
}

export const isRejected = (x: unknown): x is Rejected =>
  typeof x === 'object' && x !== null && (x as Rejected).ok === false;

export function unitLabel(ctx: TurnContext, unit: UnitState): string {
  return unitLabelOf(ctx.unitType(unit).name, unit);
}

/** Units by their labels ("Marines 'Salt and Iron' (argenta-2)"), as receipts list supporters: never by bare ids. */
export function unitsText(ctx: TurnContext, ids: readonly UnitId[]): string {
  return ids.map((id) => {
    const u = ctx.unit(id);
    return u ? unitLabel(ctx, u) : id;
  }).join(', ');
}

const reachCache = new WeakMap<TurnContext, Map<string, Reach>>();

/**
 * Where a unit can get to this turn, by its own speed and movement domain. Units stacked on one hex with one
 * speed reach the same hexes (a fleet's also depend on its nation's ports): one search serves them all.
 */
export function reachOf(ctx: TurnContext, unit: UnitState): Reach {
  let cache = reachCache.get(ctx);
  if (!cache) reachCache.set(ctx, (cache = new Map<string, Reach>()));
  const type = ctx.unitType(unit);
  const naval = type.class === 'naval';
  const key = naval ? `naval ${unit.nation} ${type.speed} ${unit.hex}` : `land ${type.speed} ${unit.hex}`;
  let reach = cache.get(key);
  if (!reach) {
    reach = ctx.map.reach(unit.hex, type.speed, naval ? 'naval' : 'land', naval ? ctx.portsOf(unit.nation) : undefined, ctx.rules.minimumMove);
    cache.set(key, reach);
  }
  return reach;
}

export function canReach(ctx: TurnContext, unit: UnitState, hex: HexKey): boolean {
  if (unit.hex === hex) return true;
  if (unit.aboard) return false;
  return reachOf(ctx, unit).has(hex);
}

/** Fate bought with a pledge: the largest modifier the table sells for at most that much. */
export function fateModifier(table: readonly number[], pledged: number): { modifier: number; cost: number } {
  let best = { modifier: 0, cost: 0 };
  table.forEach((cost, i) => {
    if (cost <= pledged) best = { modifier: i + 1, cost };
  });
  return best;
}

interface StartOfTurnIndex {
  heldUnits: Map<string, number>;
  buildsBySettlement: Map<SettlementId, BuildState[]>;
  externalHexes: Set<HexKey>;
}

/**
 * Counts the checkers need, taken once from the turn's starting state (checks run before anything
 * changes), so checking stays linear in orders. Kept with that state and campaign (memo.ts), so every
 * receipt checked against the same state (a mail run's, the web desk's live check) shares them.
 */
export function startOfTurn(ctx: TurnContext): StartOfTurnIndex {
  return startIndex(ctx.campaign, ctx.start);
}

const startIndex = perCampaignAndState((campaign: Campaign, state: GameState): StartOfTurnIndex => {
  // Counted by nation first: one key string per nation and kind, not one per unit.
  const counts = new Map<NationId, { military: number; diplomatic: number }>();
  const bump = (nation: NationId, military: boolean) => {
    let c = counts.get(nation);
    if (!c) counts.set(nation, (c = { military: 0, diplomatic: 0 }));
    if (military) c.military++;
    else c.diplomatic++;
  };
  const classOf = (nation: NationId, unitType: string) => campaign.nations[nation]?.unitTypes[unitType]?.class;
  for (const u of allUnits(state)) {
    const cls = classOf(u.nation, u.type);
    if (cls === undefined) throw new Error(`unit ${u.id} has unknown type ${u.type}`);
    bump(u.nation, isMilitaryClass(cls));
  }
  const buildsBySettlement = new Map<SettlementId, BuildState[]>();
  for (const b of state.builds) {
    if (b.project.kind === 'unit') {
      const cls = classOf(b.nation, b.project.unitType);
      if (cls !== undefined) bump(b.nation, isMilitaryClass(cls));
    }
    if (b.settlement) {
      const list = buildsBySettlement.get(b.settlement) ?? [];
      list.push(b);
      buildsBySettlement.set(b.settlement, list);
    }
  }
  const externalHexes = new Set<HexKey>(Object.values(state.externals).map((e) => e.hex));
  for (const b of state.builds) if (b.project.kind === 'external') externalHexes.add(b.hex);
  const heldUnits = new Map<string, number>();
  for (const [nation, c] of counts) {
    if (c.military) heldUnits.set(`${nation}:military`, c.military);
    if (c.diplomatic) heldUnits.set(`${nation}:diplomatic`, c.diplomatic);
  }
  return { heldUnits, buildsBySettlement, externalHexes };
});
