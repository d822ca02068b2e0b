import type { Campaign, SettlementLevel } from './campaign.js';
import type { RuleSettings } from './settings.js';
import type { SettlementState } from './state.js';

/**
 * The indicator tax of a settlement (rule R7), less the relief of the
 * structures in it (`taxRelief`). A captured settlement pays in full, "as if
 * no structures were present" (F 99), unless the campaign grants relief to
 * captured ones too (`captureTaxRelief`, the text's "ways around this").
 */
export function settlementTax(world: { campaign: Campaign; rules: RuleSettings }, s: SettlementState, level: SettlementLevel = s.level): number {
  return Math.max(0, world.rules.settlementTax[level] - taxRelief(world, s));
}

export function taxRelief(world: { campaign: Campaign; rules: RuleSettings }, s: SettlementState): number {
  if (s.captured && !world.rules.captureTaxRelief) return 0;
  return s.structures.reduce((sum, id) => sum + (world.campaign.structures[id]?.taxRelief ?? 0), 0);
}
