/**
 * Branded identifiers. Mixing a unit id with a settlement id is the classic
 * adjudicator bug (an attack on "argentum" the unit vs "argentum" the city),
 * so the compiler keeps them apart; at the edges `asX` casts validated strings.
 */
declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

export type NationId = Brand<string, 'NationId'>;
export type UnitId = Brand<string, 'UnitId'>;
export type SettlementId = Brand<string, 'SettlementId'>;
export type ExternalId = Brand<string, 'ExternalId'>;
/** An offset hex coordinate written "col,row", exactly as the maps show it. */
export type HexKey = Brand<string, 'HexKey'>;

export const asNationId = (s: string): NationId => s as NationId;
export const asUnitId = (s: string): UnitId => s as UnitId;
export const asSettlementId = (s: string): SettlementId => s as SettlementId;
export const asExternalId = (s: string): ExternalId => s as ExternalId;
export const asHexKey = (s: string): HexKey => s as HexKey;

/** Sorted copy of ids; all iteration that can influence results goes through this. */
export function sortedIds<T extends string>(ids: Iterable<T>): T[] {
  return [...ids].sort(compareIds);
}

/** Code-unit order, never locale order: results must not depend on the machine's locale. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortedKeys<T extends string, V>(record: Record<T, V>): T[] {
  return sortedIds(Object.keys(record) as T[]);
}
