import { findAspects, mayUseFree } from '../aspects/places.js';
import { removeAspect } from '../aspects/store.js';
import type { BattleSpec } from '../battle.js';
import type { TurnContext } from '../context.js';
import { hexesWithin, hexKey, offsetOf } from '../hex.js';
import type { BattlePlanOrder } from '../orders.js';
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
}

const START: Record<Side, string[]> = { attacker: ['z4,1', 'z4,0', 'z4,2'], defender: ['z0,1', 'z1,1', 'z0,0'] };
/** Where a reserve waits on the default field: behind the main body — the attackers' far row, beside the defenders' strategic zone. */
const RESERVE_START: Record<Side, string[]> = { attacker: ['z4,0', 'z4,2', 'z4,1'], defender: ['z0,0', 'z0,2', 'z0,1'] };

type Plans = Record<Side, BattlePlanOrder | undefined>;

/** Burns each side's `burn` aspect (its first Warfare battle of the turn; the aspect is gone after): what it buys. */
function burn(ctx: TurnContext, spec: BattleSpec, plans: Plans): Record<'zones' | 'obstacles', Record<Side, number>> {
  const out = { zones: { attacker: 0, defender: 0 }, obstacles: { attacker: 0, defender: 0 } };
  for (const side of ['attacker', 'defender'] as const) {
    const b = plans[side]?.burn;
    const nation = spec[side].nation;
    if (!b || !ctx.rules.fate.aspects) continue;
    const aspect = findAspects(ctx.state, nation, b.aspect).find((a) => !a.boost && mayUseFree(a, nation) && a.free > 0);
    if (!aspect) continue;
    out[b.for][side] += aspect.free;
    removeAspect(ctx, aspect, `burned: ${aspect.free} free invoke${aspect.free === 1 ? '' : 's'} for ${aspect.free} ${b.for === 'zones' ? 'zone' : 'obstacle'}${aspect.free === 1 ? '' : 's'} on the Warfare battle at ${spec.at}`, [nation]);
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
  if (plain) return { field, starts: START, reserveStarts: RESERVE_START };
  const att = startZones(field, distance, 'attacker');
  const def = startZones(field, distance, 'defender');
  return { field, starts: { attacker: att.slice(0, 3), defender: walled ? [field.strategic] : def.slice(0, 3) }, reserveStarts: { attacker: att.slice(0, 3), defender: def.slice(1, 4) } };
}
