import { fightBattle, type BattleForce } from '../battle.js';
import { isMilitaryClass } from '../campaign.js';
import type { AcceptedOrder, TurnContext } from '../context.js';
import { compareIds, type HexKey, type NationId } from '../ids.js';
import type { AttackOrder, DefendOrder } from '../orders.js';
import type { SettlementState, UnitState } from '../state.js';
import { captureSettlement, hasInfantry } from './capture.js';
import { moveUnit } from './movement.js';
import { attackExternal } from './external-fight.js';
import type { Phase } from './phase.js';
import { pushTo } from '../multimap.js';
import { lostName, orderUnmet, supportersLeft, unitOf } from '../unmet.js';

/**
 * Open battles and attacks on settlements, one per attack order in attacker id
 * order. Each battle draws dice from its own scope ("battle:attack:<unit>"),
 * so no other order can change its rolls.
 */
export const combatPhase: Phase = {
  name: 'combat',
  run(ctx: TurnContext) {
    const fought = new Set<string>();
    const attacks = [...ctx.acceptedOf('attack')].sort((a, b) => compareIds(a.order.unit, b.order.unit));
    for (const a of attacks) {
      const attacker = ctx.unit(a.order.unit);
      if (!attacker) {
        orderUnmet(ctx, a, 'unit_lost', `did not attack: ${lostName(ctx, a.order.unit)} was lost before it could strike`);
        continue;
      }
      if (ctx.escapedFrom.has(attacker.id)) continue;
      const target = a.order.target;
      if ('external' in target) {
        attackExternal(ctx, a, attacker, target.external);
        continue;
      }
      if ('settlement' in target) {
        const s = ctx.settlement(target.settlement);
        if (s) attackSettlement(ctx, a, attacker, s);
        else orderUnmet(ctx, a, 'target_lost', `did not attack: the settlement it was sent against is gone`);
        continue;
      }
      const defender = ctx.unit(target.unit);
      if (!defender) {
        orderUnmet(ctx, a, 'target_lost', `did not attack: ${lostName(ctx, target.unit, a.nation)} was already destroyed`);
        continue;
      }
      const pair = [attacker.id, defender.id].sort(compareIds).join('|');
      if (fought.has(pair)) {
        orderUnmet(ctx, a, 'fought_already', `did not attack: it had already fought ${unitOf(ctx, defender, a.nation)} this turn`);
        continue;
      }
      fought.add(pair);
      openBattle(ctx, a, attacker, defender);
    }
  },
};

/** Fate pledged for defence by units of a force, spent once: by the first battle they join. */
export function takeDefencePledges(ctx: TurnContext, units: UnitState[]): number {
  let total = 0;
  for (const u of units) {
    total += ctx.defencePledges.get(u.id) ?? 0;
    ctx.defencePledges.delete(u.id);
  }
  return total;
}

const swornCache = new WeakMap<TurnContext, Map<string, AcceptedOrder<DefendOrder>[]>>();

/** Defend orders by what they protect ("unit:<id>" / "settlement:<id>" / "external:<id>"), indexed once per turn. */
function sworn(ctx: TurnContext, key: string): AcceptedOrder<DefendOrder>[] {
  let index = swornCache.get(ctx);
  if (!index) {
    index = new Map();
    for (const d of ctx.acceptedOf('defend')) {
      const p = d.order.protect;
      const k = 'unit' in p ? `unit:${p.unit}` : 'external' in p ? `external:${p.external}` : `settlement:${p.settlement}`;
      pushTo(index, k, d);
    }
    for (const list of index.values()) list.sort((a, b) => compareIds(a.order.unit, b.order.unit));
    swornCache.set(ctx, index);
  }
  return index.get(key) ?? [];
}

/** The defenders that join: units ordered to defend the target first, then its comrades in the hex. */
export function defendersOf(ctx: TurnContext, nation: NationId, at: HexKey, first: UnitState[], max: number, protectKey: string): UnitState[] {
  const chosen = [...first];
  const add = (u: UnitState) => {
    if (chosen.length < max && !chosen.some((c) => c.id === u.id)) chosen.push(u);
  };
  for (const d of sworn(ctx, protectKey)) {
    const u = ctx.unit(d.order.unit);
    if (u) add(u);
  }
  for (const u of ctx.unitsAt(at)) {
    const busy = ctx.orderFor(u.id)?.order.kind;
    if (u.nation === nation && isMilitaryClass(ctx.unitType(u).class) && busy !== 'move' && busy !== 'attack') add(u);
  }
  return chosen;
}

function attackingForce(ctx: TurnContext, a: AcceptedOrder<AttackOrder>, attacker: UnitState): BattleForce {
  return {
    nation: attacker.nation,
    units: [attacker, ...supportersLeft(ctx, a, a.order.support)],
    fatePledged: a.order.fate ?? 0,
    casualtyPriority: a.order.casualties ?? ctx.casualtyPriority.get(attacker.nation),
    sideModifiers: [],
  };
}

function openBattle(ctx: TurnContext, a: AcceptedOrder<AttackOrder>, attacker: UnitState, target: UnitState): void {
  const at = target.hex;
  const attack = attackingForce(ctx, a, attacker);
  const defenders = defendersOf(ctx, target.nation, at, [target], 1 + ctx.rules.maxSupportUnits, `unit:${target.id}`);
  const defence: BattleForce = {
    nation: target.nation,
    units: defenders,
    fatePledged: takeDefencePledges(ctx, defenders),
    casualtyPriority: ctx.casualtyPriority.get(target.nation),
    sideModifiers: [],
  };
  // The attacker closes in: it ends next to the target, on its own path.
  const approach = a.path && a.path.length > 1 ? a.path.slice(0, -1) : [];
  if (approach.length) moveUnit(ctx, attacker, approach);
  const outcome = fightBattle(ctx, { id: `attack:${attacker.id}`, at, kind: 'open', attacker: attack, defender: defence });
  if (outcome.winner === 'attacker' && outcome.survivors.defender.length === 0 && ctx.rules.advanceAfterVictory) {
    const stillThere = ctx.unitsAt(at).some((u) => u.nation === target.nation && isMilitaryClass(ctx.unitType(u).class));
    if (!stillThere) for (const u of outcome.survivors.attacker) moveUnit(ctx, u, [at]);
  }
}

function attackSettlement(ctx: TurnContext, a: AcceptedOrder<AttackOrder>, attacker: UnitState, s: SettlementState): void {
  if (s.nation === attacker.nation) {
    orderUnmet(ctx, a, 'already_yours', `did not attack: ${s.name} is already yours`);
    return;
  }
  const force = [attacker, ...supportersLeft(ctx, a, a.order.support)];
  const garrison = ctx.unitsAt(s.hex).filter((u) => u.nation === s.nation && isMilitaryClass(ctx.unitType(u).class));
  const ids = force.map((u) => u.id);
  if (garrison.length === 0 && ctx.rules.siege.captureUndefended && hasInfantry(ctx, ids)) {
    captureSettlement(ctx, s, attacker.nation, ids);
    return;
  }
  for (const u of force) {
    if (u.hex !== s.hex) moveUnit(ctx, u, [s.hex]);
    u.besieging = s.id;
  }
  ctx.emit({ type: 'siege_started', nations: [attacker.nation, s.nation].sort(compareIds), settlement: s.id, besieger: attacker.id });
}
