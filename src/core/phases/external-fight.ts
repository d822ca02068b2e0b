import { fightBattle } from '../battle.js';
import type { AcceptedOrder, TurnContext } from '../context.js';
import { compareIds, type ExternalId, type NationId, type UnitId } from '../ids.js';
import type { AttackOrder } from '../orders.js';
import type { ExternalState, UnitState } from '../state.js';
import { defendersOf, takeDefencePledges } from './combat.js';
import { orderUnmet, supportersLeft } from '../unmet.js';

/**
 * An attack on an external structure (docs/rules.md X1-X4), fought in the
 * combat phase in attacker id order. The owner's military units at its hex
 * and those sworn to defend it fight for it, as one battle on the dice
 * stream "battle:external:<id>"; the attackers roll as against walls (the
 * classes' "vs structure" bonuses: cavalry's penalty, siege engines' +3).
 * Unguarded, it falls without a fight. Fallen, it is captured when a unit of
 * rules.externals.captureClasses is among the surviving attackers and the
 * order did not say `destroy`; otherwise it is razed. Nothing here runs
 * unless someone attacks a structure.
 */
export function attackExternal(ctx: TurnContext, a: AcceptedOrder<AttackOrder>, attacker: UnitState, id: ExternalId): void {
  const e = ctx.state.externals[id];
  if (!e) {
    orderUnmet(ctx, a, 'target_lost', 'did not attack: the structure it was sent against was already destroyed');
    return;
  }
  const name = externalName(ctx, e);
  if (e.nation === attacker.nation) {
    orderUnmet(ctx, a, 'already_yours', `did not attack: ${name} is already yours`);
    return;
  }
  const force = [attacker, ...supportersLeft(ctx, a, a.order.support)];
  const defenders = defendersOf(ctx, e.nation, e.hex, [], ctx.rules.externals.maxDefenders, `external:${e.id}`);
  let survivors: UnitId[] = force.map((u) => u.id);
  let battle: string | undefined;
  if (defenders.length > 0) {
    battle = `external:${e.id}`;
    const outcome = fightBattle(ctx, {
      id: battle,
      at: e.hex,
      kind: 'open',
      structure: { external: e.id, name },
      attacker: { nation: attacker.nation, units: force, fatePledged: a.order.fate ?? 0, casualtyPriority: a.order.casualties ?? ctx.casualtyPriority.get(attacker.nation), sideModifiers: [] },
      defender: { nation: e.nation, units: defenders, fatePledged: takeDefencePledges(ctx, defenders), casualtyPriority: ctx.casualtyPriority.get(e.nation), sideModifiers: [] },
    });
    if (outcome.winner !== 'attacker') {
      ctx.emit({ type: 'external_held', nations: nationsOf(e.nation, attacker.nation), external: e.id, structure: e.type, at: e.hex, nation: e.nation, by: attacker.nation, battle });
      return;
    }
    survivors = outcome.survivors.attacker.map((u) => u.id);
  }
  const takers = ctx.rules.externals.captureClasses;
  const canTake = survivors.some((u) => {
    const unit = ctx.unit(u);
    return unit !== undefined && takers.includes(ctx.unitType(unit).class);
  });
  if (canTake && !a.order.destroy) capture(ctx, e, attacker.nation, survivors, name, battle);
  else raze(ctx, e, attacker.nation, survivors, battle);
}

/** "the Silver mine at 9,4": how prose names the structure fought for. */
function externalName(ctx: TurnContext, e: ExternalState): string {
  return `the ${ctx.campaign.externals[e.type]?.name ?? e.type} at ${e.hex}`;
}

const nationsOf = (a: NationId, b: NationId) => [a, b].sort(compareIds);

/**
 * The structure changes nation: what it yields each turn goes to the taker
 * from this turn's income on (upkeep reads the owner), and the first owner is
 * kept as its builder for goals. The loser's diplomats there are taken, as in
 * a settlement (rules.externals.takeDiplomats).
 */
function capture(ctx: TurnContext, e: ExternalState, to: NationId, by: UnitId[], name: string, battle: string | undefined): void {
  const from = e.nation;
  const nations = nationsOf(from, to);
  ctx.emit({ type: 'external_captured', nations, external: e.id, structure: e.type, at: e.hex, from, to, by: [...by], ...(battle ? { battle } : {}) });
  if (ctx.rules.externals.takeDiplomats) {
    for (const u of [...ctx.unitsAt(e.hex)]) {
      if (u.nation === from && ctx.unitType(u).class === 'diplomatic') ctx.destroyUnit(u, `taken when ${name} fell`, nations);
    }
  }
  e.builtBy ??= from;
  e.nation = to;
}

function raze(ctx: TurnContext, e: ExternalState, by: NationId, units: UnitId[], battle: string | undefined): void {
  ctx.emit({ type: 'external_destroyed', nations: nationsOf(e.nation, by), external: e.id, structure: e.type, at: e.hex, nation: e.nation, by, units: [...units], ...(battle ? { battle } : {}) });
  delete ctx.state.externals[e.id];
}
