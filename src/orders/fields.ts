import { stringify } from 'yaml';
import { clip, type Resolved } from './names.js';

/**
 * The small readers every order's fields share (interpret.ts, act-order.ts):
 * a refusal carries the reason and a hint back to the receipt.
 */

/** Largest Fate pledge read; more than any nation holds, small enough to stay a safe integer. */
const MAX_FATE = 1_000_000;

/** An order's field could not be read: thrown out of the field readers, caught once per order. */
export class Refusal extends Error {
  override readonly name = 'Refusal';
  constructor(
    readonly reason: string,
    readonly hint?: string,
  ) {
    super(reason);
  }
}

/** A field's value as the player wrote it, for a refusal: a map or list in YAML's flow form ("{at: 2}"), never "[object Object]". */
export function written(value: unknown): string {
  return clip(typeof value === 'object' && value !== null ? stringify(value, { collectionStyle: 'flow', flowCollectionPadding: false, lineWidth: 0 }).trim() : String(value));
}

export function take<T>(r: Resolved<T>): T {
  if (!r.ok) throw new Refusal(r.reason, r.hint);
  return r.value;
}

export function text(value: unknown, key: string): string {
  if (typeof value === 'string' && value.trim()) return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new Refusal(`"${key}" needs a name or id`);
}

export function list(value: unknown, key: string): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map((v) => text(v, key));
  if (typeof value === 'string') return value.split(/\s*,\s*|\s+and\s+/i).filter((s) => s.trim());
  throw new Refusal(`"${key}" needs a list`);
}

export function fate(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' && /^\s*\+?\d+\s*$/.test(value) ? Number(value.trim()) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_FATE) {
    throw new Refusal(`Fate must be a whole number of Fate points, not "${written(value)}"`, 'e.g. "fate 4"');
  }
  return n === 0 ? undefined : n;
}

export const opt = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));
