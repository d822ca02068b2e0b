import { findAspects, mayUseFree } from '../aspects/places.js';
import { removeAspect } from '../aspects/store.js';
import type { BattleSpec } from '../battle.js';
import type { TurnContext } from '../context.js';
import { hexesWithin, hexKey, offsetOf } from '../hex.js';
import type { BattlePlanOrder, BurnSkill } from '../orders.js';
import { distanceTable, zoneId } from './battlefield.js';
import { fieldOf, placeObstacles, placeZones, startZones, type FieldShape } from './field-builder.js';
import type { Battlefield, Side } from './types.js';

/**
 * The field of a Warfare battle in the turn (docs/rules.md W4, W15, W23,
 * W24): built by both sides' plans (`field`), zones and obstacles bought by
 * burning an aspect's free invokes (`burn`), the defender's obstacles where
 * its plan puts them (`obstacles`, else from the map's rough ground), each
 * zone's terrain from the hexes around the battle. Two plans that say
 * nothing build today's fixed grid, with the same starting zones.
 */
export interface TurnField {
  field: Battlefield;
  /** Where each side's commanders form up, and where its reserve waits. */
  starts: Record<Side, string[]>;
  reserveStarts: Record<Side, string[]>;
  /** What each side burned an aspect for (W24). */
  burned: Burned;
}

const START: Record<Side, string[]> = { attacker: ['z4,1', 'z4,0', 'z4,2'], defender: ['z0,1', 'z1,1', 'z0,0'] };
/** Where a reserve waits on the default field: behind the main body — the attackers' far row, beside the defenders' strategic zone. */
const RESERVE_START: Record<Side, string[]> = { attacker: ['z4,0', 'z4,2', 'z4,1'], defender: ['z0,0', 'z0,2', 'z0,1'] };

type Plans = Record<Side, BattlePlanOrder | undefined>;

/** What a side bought by burning an aspect (W24): zones and obstacles for the field; units and assets for its force. */
export interface Burned {
  zones: Record<Side, number>;
  obstacles: Record<Side, number>;
  units: Record<Side, { count: number; from: string }>;
  assets: Record<Side, { count: number; name: string; skill: BurnSkill } | undefined>;
}

/** Burns each side's `burn` aspect (its first Warfare battle of the turn; the aspect is gone after): what it buys. */
function burn(ctx: TurnContext, spec: BattleSpec, plans: Plans): Burned {
  const out: Burned = { zones: { attacker: 0, defender: 0 }, obstacles: { attacker: 0, defender: 0 }, units: { attacker: { count: 0, from: '' }, defender: { count: 0, from: '' } }, assets: { attacker: undefined, defender: undefined } };
  const prices = ctx.rules.warfare.burn;
  for (const side of ['attacker', 'defender'] as const) {
    const b = plans[side]?.burn;
    const nation = spec[side].nation;
    if (!b || !ctx.rules.fate.aspects) continue;
    const aspect = findAspects(ctx.state, nation, b.aspect).find((a) => !a.boost && mayUseFree(a, nation) && a.free > 0);
    if (!aspect) continue;
    const invokes = `${aspect.free} free invoke${aspect.free === 1 ? '' : 's'}`;
    const where = `on the Warfare battle at ${spec.at}`;
    if (b.for === 'zones' || b.for === 'obstacles') {
      out[b.for][side] += aspect.free;
      removeAspect(ctx, aspect, `burned: ${invokes} for ${aspect.free} ${b.for === 'zones' ? 'zone' : 'obstacle'}${aspect.free === 1 ? '' : 's'} ${where}`, [nation]);
      continue;
    }
    // Units and assets at the campaign's prices; too few free invokes left by now (spent earlier in the turn): nothing burned.
    const price = b.for === 'units' ? prices.unit : prices.asset;
    const count = Math.floor(aspect.free / price);
    if (!count) {
      ctx.emit({ type: 'order_not_applied', nations: [nation], nation, what: `your burn of "${aspect.name}"`, reason: `it had ${invokes} left at the Warfare battle at ${spec.at}; ${b.for === 'units' ? 'a unit' : 'an asset'} costs ${price}` });
      continue;
    }
    const left = aspect.free - count * price;
    const lost = left ? ` (${left} lost with it)` : '';
    if (b.for === 'units') {
      out.units[side] = { count, from: aspect.name };
      removeAspect(ctx, aspect, `burned: ${invokes} for ${count} unit${count === 1 ? '' : 's'}${lost} ${where}`, [nation]);
    } else {
      out.assets[side] = { count, name: aspect.name, skill: b.skill ?? 'fighting' };
      removeAspect(ctx, aspect, `burned: ${invokes} for ${count} asset${count === 1 ? '' : 's'} (${b.skill ?? 'fighting'})${lost} ${where}`, [nation]);
    }
  }
  return out;
}

export function turnField(ctx: TurnContext, spec: BattleSpec, plans: Plans, walled: boolean): TurnField {
  const bought = burn(ctx, spec, plans);
  const shapes: Record<Side, FieldShape> = { attacker: plans.attacker?.field ?? 'grid', defender: plans.defender?.field ?? 'grid' };
  const cells = placeZones(shapes, bought.zones);
  const plain = shapes.attacker === 'grid' && shapes.defender === 'grid' && !bought.zones.attacker && !bought.zones.defender;
  // The terrain: the battle hex on the strategic zone, the hexes within two on the others, nearest first, in the order placed.
  const at = spec.at;
  const ring = hexesWithin(offsetOf(at), 2)
    .filter((o) => ctx.map.inBounds(o))
    .map((o) => hexKey(o.col, o.row))
    .filter((k) => k !== at);
  const aspects: Record<string, string[]> = {};
  const rough: string[] = [];
  cells.forEach(([r, c], i) => {
    const z = zoneId(r, c);
    const hex = i === 0 ? at : ring.length ? ring[(i - 1) % ring.length]! : at;
    aspects[z] = [ctx.map.terrainAt(hex)];
    if (i > 0 && (ctx.map.ruleAt(hex)?.cost ?? 1) > 1) rough.push(z);
  });
  const bare = fieldOf(cells, { aspects });
  const distance = distanceTable(bare);
  // The defender's four obstacles (line 144): the map's rough ground, or where its plan puts them; then the burned ones.
  const where = plans.defender?.obstacles ?? 'map';
  const defence = where === 'map' ? rough.slice(0, 4) : placeObstacles(bare, distance, where, 4);
  const more = (side: Side, plan: 'ahead' | 'flanks', taken: string[]) => placeObstacles(bare, distance, plan, bought.obstacles[side] + taken.length).filter((z) => !taken.includes(z)).slice(0, bought.obstacles[side]);
  const withDefence = [...defence, ...more('defender', 'ahead', defence)];
  const obstacles = [...withDefence, ...more('attacker', 'flanks', withDefence)];
  const field = fieldOf(cells, { aspects, obstacles });
  if (plain) return { field, starts: START, reserveStarts: RESERVE_START, burned: bought };
  const att = startZones(field, distance, 'attacker');
  const def = startZones(field, distance, 'defender');
  return { field, starts: { attacker: att.slice(0, 3), defender: walled ? [field.strategic] : def.slice(0, 3) }, reserveStarts: { attacker: att.slice(0, 3), defender: def.slice(1, 4) }, burned: bought };
}
