import type { Campaign } from './campaign.js';
import type { NationId } from './ids.js';
import type { UnitState } from './state.js';

/**
 * A unit as the rules name it in prose: "Troll Brutes 'Bonecrushers'", or
 * its type and id when it has no name ("Marines (argenta-2)", the id being
 * what the player orders it by). Reasons the engine writes into events
 * ("lost in the battle at 8,7 against …") use it instead of bare ids.
 */
export function unitName(campaign: Campaign, unit: UnitState): string {
  const type = campaign.nations[unit.nation]?.unitTypes[unit.type]?.name ?? unit.type;
  if (!unit.name) return `${type} (${unit.id})`;
  return typeAndName(type, unit.name);
}

/** "Marines 'Iron Guard' (argenta-1)": the unit, and the id orders may name it by. */
export function unitLabelOf(typeName: string, unit: Pick<UnitState, 'id' | 'name'>): string {
  if (!unit.name) return `${typeName} (${unit.id})`;
  return `${typeAndName(typeName, unit.name)} (${unit.id})`;
}

/**
 * A unit (or a unit to be raised) by type and name, with the one rule for quotes in players' text: names
 * as written, in quotes only right after the type, where they mark where the type ends and the name
 * begins ("Marines 'Iron Guard'"); a name that says its type stands alone, unquoted ("1st Slave Levy",
 * "Prospector Durga Flintbeard"); no name, the type alone.
 */
export function typeAndName(type: string, name: string | null | undefined): string {
  if (!name) return type;
  return namedAfterType(name, type) ? name : `${type} '${name}'`;
}

/** A name that already says its type ("Prospector Durga Flintbeard", "3rd Argentine Marines") is not prefixed with it again. */
export function namedAfterType(name: string, type: string): boolean {
  const n = name.toLowerCase();
  const t = type.toLowerCase();
  return n.startsWith(`${t} `) || n.endsWith(` ${t}`);
}

/**
 * The name a unit raised without one takes (by a build, an event, a revolt): the first of its nation's
 * `unitNames` (campaign.yaml, a list the GM extends) that no unit of the nation bears, else the first of
 * "1st Argentine Marines", "2nd …" that none bears.
 */
export function nameForRaised(campaign: Campaign, nation: NationId, type: string, taken: ReadonlySet<string>): string {
  for (const name of campaign.nations[nation]?.unitNames ?? []) if (!taken.has(name.toLowerCase())) return name;
  const typeName = campaign.nations[nation]?.unitTypes[type]?.name ?? type;
  for (let k = 1; ; k++) {
    const name = `${ordinal(k)} ${typeName}`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
