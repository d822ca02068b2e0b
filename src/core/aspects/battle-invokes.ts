import type { BattleSpec } from '../battle.js';
import type { TurnContext } from '../context.js';
import type { DiceStream } from '../dice.js';
import type { BattleSide, UnitRoll } from '../events.js';
import { sumModifiers } from '../bonuses.js';
import { applyInvokes, type Invoked } from './invoke.js';

/** The battle's name in invokes and reports: an assault names its settlement, else the hex. */
export function battleRollName(ctx: TurnContext, spec: BattleSpec): string {
  const s = ctx.settlementAt(spec.at);
  return spec.kind === 'assault' && s ? `the assault on ${s.name}` : `the battle at ${spec.at}`;
}

/**
 * Both sides' invokes on a battle, after the dice and before the totals are
 * compared (rules.md A3): first each side's +2s and boosts, then a side still
 * behind takes its first re-roll — all its units' dice again, from its own
 * invoke stream — and so on while it is behind and has re-rolls ordered.
 * The side's total is rebuilt from its rolls so the event adds up.
 */
export function invokeInBattle(ctx: TurnContext, spec: BattleSpec, attacker: BattleSide, defender: BattleSide, reroll: (side: BattleSide, dice: DiceStream) => UnitRoll[]): void {
  const what = battleRollName(ctx, spec);
  const settlement = ctx.settlementAt(spec.at)?.id;
  const units = [...attacker.units, ...defender.units];
  const nations = [attacker.nation, defender.nation];
  const streams = new Map<BattleSide, DiceStream>();
  const invoked = new Map<BattleSide, Invoked>();
  for (const [side, other] of [
    [attacker, defender],
    [defender, attacker],
  ] as const) {
    const stream = ctx.dice.stream(`invoke:${spec.id}:${side.nation}`);
    streams.set(side, stream);
    const got = applyInvokes(ctx, { nation: side.nation, key: `battle:${spec.at}`, what, scene: { nations, hex: spec.at, ...(settlement ? { settlement } : {}), units }, against: other.nation, stream, skill: 'battle', opposition: 'side' });
    invoked.set(side, got);
    if (got.modifiers.length) {
      side.invokes = [...(side.invokes ?? []), ...got.modifiers];
      side.total += sumModifiers(got.modifiers);
    }
    // Obstacles invoked against this side (docs/rules.md A10): +2 each to the side it fights.
    if (got.opposition?.length) {
      other.invokes = [...(other.invokes ?? []), ...got.opposition];
      other.total += sumModifiers(got.opposition);
    }
  }
  for (const [side, other] of [
    [attacker, defender],
    [defender, attacker],
  ] as const) {
    for (const r of invoked.get(side)?.rerolls ?? []) {
      if (side.total > other.total) break;
      if (!r.take()) continue;
      side.firstRolls ??= side.rolls.map((x) => x.roll);
      const before = side.rolls.reduce((s, x) => s + x.total, 0);
      side.rolls = reroll(side, streams.get(side)!);
      side.total += side.rolls.reduce((s, x) => s + x.total, 0) - before;
    }
  }
}
