import { settlementTax } from '../settlement-tax.js';
import { isMilitaryClass } from '../campaign.js';
import type { TurnContext } from '../context.js';
import { asNationId, type NationId, type UnitId } from '../ids.js';
import type { SettlementState } from '../state.js';
import type { EventScene } from './scene.js';
import { changeHands } from '../phases/capture.js';

/**
 * A settlement rises against its owner: it passes to the campaign's rebels
 * with a garrison to be retaken, the owner pays the loss tax (rules R7) and
 * its diplomats there are taken, as in a capture. A settlement where one of
 * the owner's military units stands holds: the garrison keeps order.
 */
export function garrisoned(ctx: TurnContext, s: SettlementState): boolean {
  return ctx.unitsAt(s.hex).some((u) => u.nation === s.nation && isMilitaryClass(ctx.unitType(u).class));
}

export function revolt(ctx: TurnContext, scene: EventScene, s: SettlementState, reason: string): boolean {
  const settings = ctx.campaign.events?.settings.rebellion;
  const rebels = settings?.nation ? asNationId(settings.nation) : undefined;
  if (!settings || !rebels || !ctx.state.nations[rebels] || s.nation === rebels) return false;
  if (garrisoned(ctx, s)) return false;
  const from: NationId = s.nation;
  for (const u of ctx.unitsAt(s.hex)) {
    if (u.nation === from) {
      ctx.destroyUnit(u, `taken when ${s.name} rose`, [from]);
      scene.unitRemoved(u);
    }
  }
  const lostTax = settlementTax(ctx, s);
  changeHands(s, rebels);
  s.captured = false;
  s.gainedTurn = ctx.turn;
  scene.settlementMoved(s, from);
  const garrison: UnitId[] = [];
  const type = settings.garrison.unitType;
  if (type && ctx.campaign.nations[rebels]?.unitTypes[type]) {
    for (let i = 0; i < settings.garrison.count; i++) {
      const unit = ctx.createUnit(rebels, type, s.hex);
      scene.unitAdded(unit);
      garrison.push(unit.id);
    }
  }
  ctx.emit({ type: 'settlement_revolted', nations: [from, rebels], settlement: s.id, from, to: rebels, garrison });
  ctx.nationState(rebels).alive = true;
  if (ctx.rules.lossTax) {
    const tax = lostTax;
    ctx.changeIndicator(from, 'prosperity', -tax, `lost ${s.name}, ${reason}`);
    ctx.changeIndicator(from, 'happiness', -tax, `lost ${s.name}, ${reason}`);
  }
  return true;
}
