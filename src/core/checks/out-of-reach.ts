import type { TurnContext } from '../context.js';
import type { HexKey } from '../ids.js';
import type { UnitState } from '../state.js';
import { reachOf } from './lookup.js';

/**
 * Why a unit cannot get to a hex this turn, in the words a refusal needs:
 * the ground it cannot enter, the missing route, or the movement points the
 * cheapest route costs against the unit's speed, with the terrain that makes
 * it dear. Only refusals ask, so the wider search it runs costs nothing on a
 * valid order.
 */
export interface OutOfReach {
  /** "it is 7 movement points away (…), and its speed is 4". */
  why: string;
  /** What the player can do instead. */
  hint?: string;
  /** The unit gets there in later turns: the refusal says "this turn". */
  later: boolean;
}

export function outOfReach(ctx: TurnContext, unit: UnitState, to: HexKey): OutOfReach {
  const type = ctx.unitType(unit);
  const naval = type.class === 'naval';
  const domain = naval ? 'naval' : 'land';
  const ports = naval ? ctx.portsOf(unit.nation) : undefined;
  const ground = terrainName(ctx.map.terrainAt(to));
  if (unit.aboard) return { why: `it is aboard ship, and goes only ashore next to it`, hint: 'move the ship, then land the unit', later: true };
  if (ctx.map.entryCost(to, domain, ports) === undefined) {
    const rule = ctx.map.ruleAt(to);
    if (!rule || rule.impassable) return { why: `${to} is ${ground}, which no unit can enter`, later: false };
    if (!naval) return { why: `${to} is ${ground}, and land units do not go on water`, hint: 'land units cross water aboard a ship: order the ship to move "carrying" them', later: false };
    return { why: `${to} is ${ground}, and ships sail only on water and into your own ports`, later: false };
  }
  const budget = searchBudget(type.speed);
  const cost = ctx.map.travelCost(unit.hex, to, budget, domain, ports);
  if (cost === 'farther') return { why: `it is more than ${budget} movement points away, and its speed is ${type.speed}`, later: true };
  if (cost === undefined) {
    return naval
      ? { why: `there is no way by water from ${unit.hex} to ${to}`, hint: 'ships sail on water and put in at your own ports', later: false }
      : { why: `there is no way over land from ${unit.hex} to ${to}: water or impassable ground lies between`, hint: 'land units cross water aboard a ship: order the ship to move "carrying" them', later: false };
  }
  const path = ctx.map.reach(unit.hex, cost, domain, ports).pathTo(to) ?? [];
  const dear = ctx.rules.minimumMove ? undefined : path.find((h) => (ctx.map.entryCost(h, domain, ports) ?? 0) > type.speed);
  if (dear !== undefined) {
    return { why: `entering the ${terrainName(ctx.map.terrainAt(dear))} at ${dear} costs ${ctx.map.entryCost(dear, domain, ports)} movement points, more than its speed of ${type.speed}`, later: false };
  }
  const reach = reachOf(ctx, unit);
  const farthest = [...path].reverse().find((h) => reach.has(h));
  return {
    why: `it is ${cost} movement points away (${stepsText(ctx, path, domain, ports)}), and its speed is ${type.speed}`,
    ...(farthest ? { hint: `this turn it can go as far as ${farthest}, on the way` } : {}),
    later: true,
  };
}

/**
 * How far a refusal looks for the route: eight turns of the unit's moves (at
 * least 16 points). Beyond, "more than N points away" says enough, and a
 * thousand refused far moves on a big map stay cheap to explain.
 */
const searchBudget = (speed: number): number => Math.max(16, 8 * speed);

/** "2 plains hexes at 1, 1 mountains hex at 3": what the route's hexes cost, by terrain, in the order first met. */
function stepsText(ctx: TurnContext, path: readonly HexKey[], domain: 'land' | 'naval', ports: ReadonlySet<HexKey> | undefined): string {
  const groups = new Map<string, { count: number; cost: number }>();
  for (const hex of path) {
    const cost = ctx.map.entryCost(hex, domain, ports) ?? 0;
    const key = `${terrainName(ctx.map.terrainAt(hex))}\u0000${cost}`;
    const g = groups.get(key) ?? { count: 0, cost };
    g.count += 1;
    groups.set(key, g);
  }
  return [...groups]
    .map(([key, g]) => `${g.count} ${key.split('\u0000')[0]} ${g.count === 1 ? 'hex' : 'hexes'} at ${g.cost}`)
    .join(', ');
}

const terrainName = (id: string) => id.replace(/_/g, ' ');
