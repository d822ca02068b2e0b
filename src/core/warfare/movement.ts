import { neighbours } from './battlefield.js';
import { applyStressCard, tellFall } from './actions.js';
import { capital, cmdSkill, unitsOf, zoneName, type WarState } from './state.js';
import type { Commander } from './types.js';

/**
 * Movement (seed 001 lines 152–157; docs/rules.md W4). A commander moves
 * with all its units, as far as the slowest unit's Movement; entering a zone
 * with an obstacle costs one more; at least one zone always. Our readings:
 * a move stops on entering a zone that holds enemy units (they are engaged),
 * and no attacker enters a zone whose ramparts stand (line 89).
 */
export function speed(st: WarState, c: Commander): number {
  const us = unitsOf(st, c);
  if (!us.length) return 1;
  return Math.max(1, Math.min(...us.map((u) => st.catalogue.units[u.type]!.skills.movement ?? 0)));
}

const enemyIn = (st: WarState, c: Commander, zone: string) => st.commanders.some((e) => e.side !== c.side && !e.gone && e.zone === zone && unitsOf(st, e).length > 0);

/** The cheapest path (zone ids after the start) to the goal, or to the reachable zone nearest it; ties broken by zone id. */
export function path(st: WarState, c: Commander, goal: string): string[] {
  const next = neighbours(st.field);
  const obstacle = new Set(st.field.zones.filter((z) => z.obstacle).map((z) => z.id));
  // Zones the commander may not enter: ramparts standing against an attacker (line 89).
  const walls = new Set(c.side === 'attacker' ? st.ramparts.filter((r) => !r.fallen).map((r) => r.zone) : []);
  const cost = new Map<string, number>([[c.zone, 0]]);
  const prev = new Map<string, string>();
  const open = [c.zone];
  while (open.length) {
    open.sort((a, b) => cost.get(a)! - cost.get(b)! || (a < b ? -1 : 1));
    const z = open.shift()!;
    for (const n of next.get(z) ?? []) {
      if (walls.has(n)) continue;
      const k = cost.get(z)! + (obstacle.has(n) ? 2 : 1);
      if (k < (cost.get(n) ?? Infinity)) {
        cost.set(n, k);
        prev.set(n, z);
        open.push(n);
      }
    }
  }
  let end = goal;
  if (!cost.has(goal)) {
    const reach = [...cost.keys()].sort((a, b) => st.distance(a, goal) - st.distance(b, goal) || cost.get(a)! - cost.get(b)! || (a < b ? -1 : 1));
    end = reach[0]!;
  }
  const out: string[] = [];
  for (let z = end; z !== c.zone; z = prev.get(z)!) out.unshift(z);
  return out;
}

/**
 * Moves toward the goal, at most `limit` zones' worth of movement. Leaving a
 * zone with an enemy commander of equal or higher Tactics costs a stress
 * card; a novice there is pinned (line 157). Returns the zones entered.
 */
export function moveToward(st: WarState, c: Commander, goal: string, limit = speed(st, c)): number {
  const route = path(st, c, goal);
  if (!route.length) return 0;
  const from = c.zone;
  const holders = st.commanders.filter((e) => e.side !== c.side && !e.gone && e.zone === c.zone && unitsOf(st, e).length > 0 && cmdSkill(e, 'tactics') >= cmdSkill(c, 'tactics'));
  if (holders.length) {
    if (c.novice) {
      st.log.push({ exchange: st.exchange, kind: 'move', side: c.side, commander: c.id, text: `${c.name} is pinned in ${c.zone}: a novice cannot break away`, story: `${capital(c.name)} is pinned where it stands (${zoneName(st, c.zone)}): a novice cannot break away.` });
      return 0;
    }
    const name = c.name;
    const card = applyStressCard(st, c);
    st.log.push({ exchange: st.exchange, kind: 'stress', side: c.side, commander: c.id, text: `${name} breaks away from ${holders.map((h) => h.name).join(', ')} at the cost of a stress card (${card.words})`, story: `${capital(name)} breaks away from the enemy, at a cost.` });
    tellFall(st, c, card.fall);
  }
  const obstacle = new Set(st.field.zones.filter((z) => z.obstacle).map((z) => z.id));
  let budget = limit;
  let steps = 0;
  for (const z of route) {
    const k = obstacle.has(z) ? 2 : 1;
    if (steps > 0 && k > budget) break;
    budget -= k;
    c.zone = z;
    steps++;
    if (enemyIn(st, c, z) || budget <= 0) break;
  }
  c.moved = true;
  st.log.push({ exchange: st.exchange, kind: 'move', side: c.side, commander: c.id, text: `${c.name} moves ${from} → ${c.zone}`, story: `${capital(c.name)} marches from ${zoneName(st, from)} to ${zoneName(st, c.zone)}.` });
  return steps;
}
