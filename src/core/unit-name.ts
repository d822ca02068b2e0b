import type { Campaign } from './campaign.js';
import type { UnitState } from './state.js';

/**
 * A unit as the rules name it in prose: "Troll Brutes 'Bonecrushers'", or
 * its type and id when it has no name ("Marines (argenta-2)", the id being
 * what the player orders it by). Reasons the engine writes into events
 * ("lost in the battle at 8,7 against …") use it instead of bare ids.
 */
export function unitName(campaign: Campaign, unit: UnitState): string {
  const type = campaign.nations[unit.nation]?.unitTypes[unit.type]?.name ?? unit.type;
  return unit.name ? `${type} '${unit.name}'` : `${type} (${unit.id})`;
}
