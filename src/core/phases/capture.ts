import type { TurnContext } from '../context.js';
import { compareIds, type NationId, type UnitId } from '../ids.js';
import type { SettlementState } from '../state.js';
import { settlementTax } from '../settlement-tax.js';
import { leaveWork } from './movement.js';

/**
 * A settlement changes hands: the loser's garrison of diplomats is taken, all
 * sieges of it end, and both nations pay the indicator tax (the taker in full,
 * as if no structures were there; the loser as a blow to the realm).
 */
export function captureSettlement(ctx: TurnContext, s: SettlementState, by: NationId, units: UnitId[]): void {
  const from = s.nation;
  const nations = [from, by].sort(compareIds);
  ctx.emit({ type: 'settlement_captured', nations, settlement: s.id, from, to: by, by: [...units] });
  for (const u of ctx.unitsAt(s.hex)) {
    if (u.nation === from) ctx.destroyUnit(u, `taken when ${s.name} fell`, nations);
  }
  for (const u of ctx.unitsAt(s.hex)) {
    if (u.besieging === s.id) delete u.besieging;
  }
  // The loser loses what it was paying; the taker pays as a captor (in full unless captureTaxRelief).
  const lost = settlementTax(ctx, s);
  changeHands(s, by);
  s.captured = true;
  s.gainedTurn = ctx.turn;
  const tax = settlementTax(ctx, s);
  ctx.changeIndicator(by, 'prosperity', -tax, `took ${s.name}`);
  ctx.changeIndicator(by, 'happiness', -tax, `took ${s.name}`);
  if (ctx.rules.lossTax) {
    ctx.changeIndicator(from, 'prosperity', -lost, `lost ${s.name}`);
    ctx.changeIndicator(from, 'happiness', -lost, `lost ${s.name}`);
  }
  for (const id of units) {
    const u = ctx.unit(id);
    if (u && u.hex !== s.hex) {
      const fromHex = u.hex;
      leaveWork(ctx, u);
      ctx.placeUnit(u, s.hex);
      ctx.emit({ type: 'unit_moved', nations: [u.nation], unit: u.id, from: fromHex, to: s.hex, path: [s.hex] });
    }
  }
}

/**
 * The settlement's new owner, remembering whose home it was (`takenFrom`) until that nation takes it back:
 * what a caretaker may retake (docs/operations.md, "Missing players").
 */
export function changeHands(s: SettlementState, to: NationId): void {
  if (s.home) s.takenFrom = s.nation;
  s.nation = to;
  s.home = false;
  if (s.takenFrom === to) delete s.takenFrom;
}

/** Infantry is needed to take a settlement. */
export function hasInfantry(ctx: TurnContext, units: UnitId[]): boolean {
  return units.some((id) => {
    const u = ctx.unit(id);
    return u !== undefined && ctx.unitType(u).class === 'infantry';
  });
}
