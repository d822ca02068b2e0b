import { invokeInBattle } from './aspects/battle-invokes.js';
import { unitModifiers, sumModifiers } from './bonuses.js';
import { fateModifier } from './checks/lookup.js';
import type { TurnContext } from './context.js';
import type { BattleSide, Casualty, DieRoll, Modifier, UnitRoll } from './events.js';
import { compareIds, type ExternalId, type HexKey, type NationId, type UnitId } from './ids.js';
import type { UnitState } from './state.js';
import { unitName } from './unit-name.js';
import { foughtAsWarfare, fightWarfare } from './warfare/turn-battle.js';

/**
 * One battle, open or an assault: every unit rolls (d6 healthy, d3 bloodied),
 * adds its modifiers, each side adds its Fate and side bonuses, and the side
 * that rolled lower pays the deficit (see allocateCasualties).
 */
export interface BattleForce {
  nation: NationId;
  units: UnitState[];
  /** Fate the side pledged; it buys the best modifier the table sells for that. */
  fatePledged: number;
  /** Loss order chosen in the orders; units first in it are lost first. */
  casualtyPriority?: readonly UnitId[];
  sideModifiers: Modifier[];
}

export interface BattleSpec {
  id: string;
  at: HexKey;
  kind: 'open' | 'assault';
  attacker: BattleForce;
  defender: BattleForce;
  /** A fight for an external structure (docs/rules.md X2): its id and its name in prose; the attackers roll as against walls. */
  structure?: { external: ExternalId; name: string };
}

export interface BattleOutcome {
  winner: 'attacker' | 'defender' | 'draw';
  survivors: { attacker: UnitState[]; defender: UnitState[] };
  /** A Warfare battle the attackers won by holding the strategic zone (docs/rules.md W18): an assault takes the settlement. */
  heldStrategicZone?: true;
}

/**
 * A battle as a side names it in prose: "the battle at 8,7 against Valian Cog 'Stormwarden'", after the
 * other side's leading unit (the attacker, or the unit attacked), else the settlement assaulted. The id
 * (spec.id) names the dice stream only.
 */
export function battleName(ctx: TurnContext, spec: BattleSpec, side: 'attacker' | 'defender'): string {
  if (spec.structure) return `the fight for ${spec.structure.name}`;
  const settlement = ctx.settlementAt(spec.at)?.name;
  if (spec.kind === 'assault' && settlement) return `the assault on ${settlement} at ${spec.at}`;
  const enemy = side === 'attacker' ? spec.defender : spec.attacker;
  const lead = enemy.units[0];
  return `the battle at ${spec.at} against ${lead ? unitName(ctx.campaign, lead) : ctx.nationDef(enemy.nation).name}`;
}

/** A unit's strength on paper, for the default loss order: the weakest are lost first. */
function bonusCount(ctx: TurnContext, unit: UnitState): number {
  return ctx.unitBonuses(unit).reduce((s, b) => s + b.value, 0);
}

export function fightBattle(ctx: TurnContext, spec: BattleSpec): BattleOutcome {
  if (foughtAsWarfare(ctx, spec)) return fightWarfare(ctx, spec);
  const stream = ctx.dice.stream(`battle:${spec.id}`);
  // A fight for a structure is no open field: open-field bonuses (a cavalry charge) do not count (docs/rules.md X2).
  const situation = spec.kind === 'open' && !spec.structure ? 'open' : 'siege';
  const rollUnits = (force: BattleForce, enemy: BattleForce, attackingWalls: boolean, dice = stream): UnitRoll[] =>
    force.units.map((unit) => {
      const type = ctx.unitType(unit);
      const modifiers = unitModifiers(ctx, unit, { situation, opponents: enemy.units, againstStructure: attackingWalls });
      // Diplomatic units are defenceless: they are there to be protected, not to fight.
      const roll: DieRoll = type.class === 'diplomatic' ? { die: 'd6', value: 0 } : dice.roll(unit.health === 'healthy' ? 'd6' : 'd3', unit.nation);
      const total = type.class === 'diplomatic' ? 0 : roll.value + sumModifiers(modifiers);
      return { unit: unit.id, nation: unit.nation, health: unit.health, roll, modifiers, total };
    });
  const rollSide = (force: BattleForce, enemy: BattleForce, attackingWalls: boolean): BattleSide => {
    const rolls = rollUnits(force, enemy, attackingWalls);
    const available = Math.min(force.fatePledged, ctx.nationState(force.nation).fate);
    const fate = fateModifier(ctx.rules.fateTable, available);
    if (fate.cost > 0) ctx.changeResource(force.nation, 'fate', -fate.cost, `Fate spent for +${fate.modifier} in ${battleName(ctx, spec, force === spec.attacker ? 'attacker' : 'defender')}`);
    const total = rolls.reduce((s, r) => s + r.total, 0) + fate.modifier + sumModifiers(force.sideModifiers);
    return {
      nation: force.nation,
      units: force.units.map((u) => u.id),
      rolls,
      fateSpent: fate.cost,
      fateModifier: fate.modifier,
      sideModifiers: force.sideModifiers,
      total,
    };
  };
  // Storming walls, or a structure out in the world: bonuses "vs structure" count for the attackers.
  const walls = spec.kind === 'assault' || spec.structure !== undefined;
  const attacker = rollSide(spec.attacker, spec.defender, walls);
  const defender = rollSide(spec.defender, spec.attacker, false);
  // Aspects are invoked after the roll (seed 000), before the sides are compared.
  if (ctx.rules.fate.aspects) {
    invokeInBattle(ctx, spec, attacker, defender, (side, dice) =>
      side === attacker ? rollUnits(spec.attacker, spec.defender, walls, dice) : rollUnits(spec.defender, spec.attacker, false, dice),
    );
  }
  const deficit = Math.abs(attacker.total - defender.total);
  const winner = attacker.total > defender.total ? 'attacker' : attacker.total < defender.total ? 'defender' : 'draw';

  let casualties: Casualty[] = [];
  let overkill = 0;
  if (winner === 'draw') {
    // On a draw each side loses one unit's health.
    for (const force of [spec.attacker, spec.defender]) {
      const hit = allocateCasualties(ctx, force.units, 0, force.casualtyPriority, { drawHit: true });
      casualties = casualties.concat(hit.casualties);
    }
  } else {
    const loser = winner === 'attacker' ? spec.defender : spec.attacker;
    const hit = allocateCasualties(ctx, loser.units, deficit, loser.casualtyPriority);
    casualties = hit.casualties;
    overkill = hit.overkill;
  }
  const nations = [spec.attacker.nation, spec.defender.nation].sort(compareIds);
  ctx.emit({ type: 'battle', nations, battle: spec.id, at: spec.at, kind: spec.kind, attacker, defender, winner, deficit, casualties, overkill, ...(spec.structure ? { external: spec.structure.external } : {}) });
  for (const c of casualties) {
    const unit = ctx.unit(c.unit);
    if (!unit) continue;
    const where = battleName(ctx, spec, unit.nation === spec.attacker.nation ? 'attacker' : 'defender');
    if (c.result === 'destroyed') ctx.destroyUnit(unit, `lost in ${where}`, nations);
    else ctx.setHealth(unit, 'bloodied', `bloodied in ${where}`, nations);
  }
  for (const u of [...spec.attacker.units, ...spec.defender.units]) ctx.fought.add(u.id);
  if (winner !== 'draw') {
    const won = winner === 'attacker' ? spec.attacker.nation : spec.defender.nation;
    ctx.nationState(won).battlesWon += 1;
    ctx.changeResource(won, 'renown', ctx.rules.victoryRenown, `victory in ${battleName(ctx, spec, winner)}`);
  }
  const alive = (units: UnitState[]) => units.filter((u) => ctx.unit(u.id) !== undefined);
  return { winner, survivors: { attacker: alive(spec.attacker.units), defender: alive(spec.defender.units) } };
}

/**
 * The deficit rule: each full 6 destroys a unit, each further full 3 bloodies
 * one, and a remainder of 1–2 bloodies one more or finishes a bloodied one.
 * Bloodying a unit that is already bloodied destroys it. Units are taken in
 * the loser's priority order, then weakest first; what is left over when the
 * side runs out of units is reported as overkill.
 */
export function allocateCasualties(
  ctx: TurnContext,
  units: readonly UnitState[],
  deficit: number,
  priority: readonly UnitId[] | undefined,
  opts: { drawHit?: boolean } = {},
): { casualties: Casualty[]; overkill: number } {
  const explicit = (priority ?? []).filter((id) => units.some((u) => u.id === id));
  const rest = units
    .filter((u) => !explicit.includes(u.id))
    .sort((a, b) => {
      if (a.health !== b.health) return a.health === 'bloodied' ? -1 : 1;
      return bonusCount(ctx, a) - bonusCount(ctx, b) || compareIds(a.id, b.id);
    })
    .map((u) => u.id);
  const order = [...explicit, ...rest];
  const health = new Map(units.map((u) => [u.id, u.health as 'healthy' | 'bloodied' | 'destroyed']));
  const casualties: Casualty[] = [];
  let overkill = 0;
  const firstAlive = () => order.find((id) => health.get(id) !== 'destroyed');
  const firstHealthy = () => order.find((id) => health.get(id) === 'healthy');
  const hit = (id: UnitId | undefined, result: 'bloodied' | 'destroyed') => {
    if (!id) {
      overkill += 1;
      return;
    }
    health.set(id, result);
    const existing = casualties.find((c) => c.unit === id);
    if (existing) existing.result = result;
    else casualties.push({ unit: id, result });
  };
  const bloodyOne = () => {
    const healthy = firstHealthy();
    if (healthy) hit(healthy, 'bloodied');
    else hit(firstAlive(), 'destroyed');
  };

  if (opts.drawHit) {
    bloodyOne();
    return { casualties, overkill: 0 };
  }
  const destroyed = Math.floor(deficit / 6);
  const bloodied = Math.floor((deficit % 6) / 3);
  const remainder = deficit % 3;
  for (let i = 0; i < destroyed; i++) hit(firstAlive(), 'destroyed');
  for (let i = 0; i < bloodied; i++) bloodyOne();
  if (remainder > 0) {
    if (explicit.length > 0) {
      // The loser named its losses: the first unit named pays, whatever its health.
      const id = firstAlive();
      hit(id, id && health.get(id) === 'bloodied' ? 'destroyed' : 'bloodied');
    } else {
      bloodyOne();
    }
  }
  return { casualties, overkill };
}
