import type { Bonus, Campaign } from '../core/campaign.js';
import type { HexKey, UnitId } from '../core/ids.js';
import type { Order, SiegeAction } from '../core/orders.js';
import type { NameBook, Resolved } from './names.js';
import { didYouMean } from './suggest.js';

/**
 * One order as written, before names are resolved: the first key names the
 * order kind and holds its subject ({ move: "Iron Guard", to: "12,7" }).
 * YAML files and plain-text mail both produce these, so both formats mean
 * exactly the same orders.
 */
export type RawFields = Record<string, unknown>;

export type Interpreted = { ok: true; order: Order } | { ok: false; reason: string; hint?: string };

/** The order keywords, with the other keys each one takes. */
export const ORDER_KEYS: Record<string, readonly string[]> = {
  move: ['to', 'path', 'carry', 'land'],
  attack: ['target', 'support', 'fate', 'casualties'],
  defend: ['protect', 'fate'],
  rest: [],
  hold: ['fate'],
  build: ['unit', 'name', 'bonuses', 'structure', 'battlement'],
  construct: ['structure'],
  found: ['name'],
  upgrade: [],
  siege: ['action', 'fate'],
  sortie: ['target', 'fate'],
  assault: ['support', 'fate', 'casualties'],
  note: [],
};

const SIEGE_ACTIONS: Record<string, SiegeAction> = {
  destroy_battlement: 'destroy_battlement',
  battlement: 'destroy_battlement',
  battlements: 'destroy_battlement',
  poison_water: 'poison_water',
  poison: 'poison_water',
  water: 'poison_water',
};

class Refusal {
  constructor(
    readonly reason: string,
    readonly hint?: string,
  ) {}
}

function take<T>(r: Resolved<T>): T {
  if (!r.ok) throw new Refusal(r.reason, r.hint);
  return r.value;
}

function text(value: unknown, key: string): string {
  if (typeof value === 'string' && value.trim()) return value.trim();
  if (typeof value === 'number') return String(value);
  throw new Refusal(`"${key}" needs a name or id`);
}

function list(value: unknown, key: string): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map((v) => text(v, key));
  if (typeof value === 'string') return value.split(/\s*,\s*|\s+and\s+/i).filter(Boolean);
  throw new Refusal(`"${key}" needs a list`);
}

function fate(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' ? Number(value.trim()) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new Refusal(`fate must be a whole number of Fate points, not "${String(value)}"`);
  return n === 0 ? undefined : n;
}

/** Paths: "11,7 12,7" or "11,7 -> 12,7" or a list of hexes. */
function path(value: unknown, book: NameBook): HexKey[] | undefined {
  if (value === undefined || value === null) return undefined;
  const parts = Array.isArray(value) ? value.map((v) => text(v, 'path')) : text(value, 'path').split(/\s*(?:->|→|;|\s)\s*/).filter(Boolean);
  return parts.map((p) => take(book.hex(p)));
}

const opt = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

export function interpretOrder(fields: RawFields, book: NameBook, campaign: Campaign): Interpreted {
  const keys = Object.keys(fields);
  const kind = keys[0];
  if (!kind) return { ok: false, reason: 'an empty order' };
  const allowed = ORDER_KEYS[kind];
  if (!allowed) return { ok: false, reason: `unknown order "${kind}"`, hint: didYouMean(kind, Object.keys(ORDER_KEYS)) ?? `orders are: ${Object.keys(ORDER_KEYS).join(', ')}` };
  for (const k of keys.slice(1)) {
    if (!allowed.includes(k)) {
      return { ok: false, reason: `"${k}" does not belong to a ${kind} order`, hint: allowed.length ? didYouMean(k, allowed) ?? `a ${kind} order takes: ${allowed.join(', ')}` : `a ${kind} order takes nothing else` };
    }
  }
  try {
    return { ok: true, order: build(kind, fields, book, campaign) };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, reason: e.reason, ...(e.hint ? { hint: e.hint } : {}) };
    throw e;
  }
}

function build(kind: string, f: RawFields, book: NameBook, campaign: Campaign): Order {
  const subject = f[kind];
  const ownUnit = () => take(book.ownUnit(text(subject, kind)));
  const units = (key: string): UnitId[] => list(f[key], key).map((u) => take(book.ownUnit(u)));
  switch (kind) {
    case 'move': {
      if (f.to === undefined) throw new Refusal('a move needs "to": where the unit goes');
      const to = take(book.hex(text(f.to, 'to')));
      const carry = units('carry');
      const land = f.land === undefined ? undefined : take(book.hex(text(f.land, 'land')));
      return { kind: 'move', unit: ownUnit(), to, ...opt('path', path(f.path, book)), ...(carry.length ? { carry } : {}), ...opt('landAt', land) };
    }
    case 'attack': {
      if (f.target === undefined) throw new Refusal('an attack needs a "target": a unit or a settlement');
      const support = units('support');
      const casualties = units('casualties');
      return { kind: 'attack', unit: ownUnit(), target: take(book.target(text(f.target, 'target'))), ...(support.length ? { support } : {}), ...opt('fate', fate(f.fate)), ...(casualties.length ? { casualties } : {}) };
    }
    case 'defend': {
      if (f.protect === undefined) throw new Refusal('a defend order needs "protect": one of your units or settlements');
      return { kind: 'defend', unit: ownUnit(), protect: take(book.target(text(f.protect, 'protect'))), ...opt('fate', fate(f.fate)) };
    }
    case 'rest':
      return { kind: 'rest', unit: ownUnit() };
    case 'hold':
      return { kind: 'hold', unit: ownUnit(), ...opt('fate', fate(f.fate)) };
    case 'build': {
      const settlement = take(book.settlement(text(subject, 'build')));
      const what = ['unit', 'structure', 'battlement'].filter((k) => f[k] !== undefined);
      if (what.length !== 1) throw new Refusal('say what to build: "unit", "structure" or "battlement" (one of them)');
      if (f.unit !== undefined) {
        const unitType = text(f.unit, 'unit').toLowerCase();
        const types = Object.keys(campaign.nations[book.nation]?.unitTypes ?? {});
        if (!types.includes(unitType)) throw new Refusal(`your nation has no unit type "${unitType}"`, didYouMean(unitType, types) ?? `you can build: ${types.join(', ')}`);
        const name = f.name === undefined ? undefined : text(f.name, 'name');
        return { kind: 'build_unit', settlement, unitType, ...opt('name', name), ...opt('bonuses', bonuses(f.bonuses)) };
      }
      if (f.structure !== undefined) {
        const structure = text(f.structure, 'structure').toLowerCase();
        if (!campaign.structures[structure]) throw new Refusal(`there is no structure "${structure}"`, didYouMean(structure, Object.keys(campaign.structures)));
        return { kind: 'build_structure', settlement, structure };
      }
      const level = Number(String(f.battlement).replace(/^\+/, ''));
      if (!Number.isInteger(level) || level < 1) throw new Refusal(`a battlement is +1, +2 or +3, not "${String(f.battlement)}"`);
      return { kind: 'build_battlement', settlement, level };
    }
    case 'construct': {
      const structure = text(f.structure, 'structure').toLowerCase();
      if (!campaign.externals[structure]) throw new Refusal(`there is no external structure "${structure}"`, didYouMean(structure, Object.keys(campaign.externals)));
      return { kind: 'construct', unit: ownUnit(), structure };
    }
    case 'found':
      return { kind: 'found', unit: ownUnit(), name: text(f.name, 'name') };
    case 'upgrade':
      return { kind: 'upgrade', settlement: take(book.settlement(text(subject, 'upgrade'))) };
    case 'siege': {
      const word = text(f.action ?? 'destroy_battlement', 'action').toLowerCase().replace(/[\s-]+/g, '_');
      const action = SIEGE_ACTIONS[word];
      if (!action) throw new Refusal(`unknown siege action "${word}"`, 'siege actions are destroy_battlement and poison_water');
      return { kind: 'siege_action', unit: ownUnit(), action, ...opt('fate', fate(f.fate)) };
    }
    case 'sortie':
      return { kind: 'sortie', unit: ownUnit(), target: take(book.unit(text(f.target, 'target'))), ...opt('fate', fate(f.fate)) };
    case 'assault': {
      const support = units('support');
      const casualties = units('casualties');
      return { kind: 'assault', unit: ownUnit(), ...(support.length ? { support } : {}), ...opt('fate', fate(f.fate)), ...(casualties.length ? { casualties } : {}) };
    }
    case 'note':
      return { kind: 'note', text: text(subject, 'note') };
    default:
      throw new Refusal(`unknown order "${kind}"`);
  }
}

function bonuses(value: unknown): Bonus[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new Refusal('bonuses must be a list like [{value: 2, vs: {classes: [cavalry]}}]');
  return value.map((b) => {
    if (typeof b !== 'object' || b === null || typeof (b as Bonus).value !== 'number') throw new Refusal('each bonus needs a number "value"');
    return b as Bonus;
  });
}
