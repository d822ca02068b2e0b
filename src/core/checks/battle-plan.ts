import type { TurnContext } from '../context.js';
import type { HexKey, NationId } from '../ids.js';
import type { AttackOrder, BattlePlanOrder, BurnSkill } from '../orders.js';
import { catalogue } from '../warfare/catalogue.js';
import { findAspects, mayUseFree } from '../aspects/places.js';
import { DEFAULT_RESERVE_UNTIL } from '../warfare/commander.js';
import { reject, type Verdict } from './verdict.js';

const SKILL_NAMES: Record<BurnSkill, string> = { fighting: 'Fighting', marksmanship: 'Marksmanship', armor: 'Armor', lore: 'Lore', tactics: 'Tactics', athletics: 'Athletics' };

const TIE = { boost: 'a tie is bought with a minor advantage to the other side', stress: 'a tie is bought with a stress card', fail: 'a tie is left as a failure' } as const;

/** The catalogue's key for a target written in any case, or undefined when there is none. */
export function targetType(ctx: TurnContext, target: string): string | undefined {
  if (target === 'commander') return 'commander';
  return Object.keys(catalogue(ctx.rules.warfare.catalogue).units).find((k) => k.toLowerCase() === target.toLowerCase());
}

/** A battle plan (docs/rules.md W13): only where Warfare is on; one a turn; a target the catalogue knows. */
export function checkBattlePlan(ctx: TurnContext, nation: NationId, o: BattlePlanOrder): Verdict {
  if (!ctx.rules.warfare.enabled) return reject('Warfare is off in this campaign: no battle follows a plan', 'leave the plan out');
  const type = o.target === undefined ? undefined : targetType(ctx, o.target);
  if (o.target !== undefined && !type) {
    const names = Object.keys(catalogue(ctx.rules.warfare.catalogue).units).join(', ');
    return reject(`no Warfare unit type "${o.target}" to target`, `target one of: ${names}; or "commander"`);
  }
  const stance = o.stance === 'aggressive' ? 'your commanders seek the enemy (attacking: the strategic zone)' : 'your commanders hold the strategic zone (attacking: advance on it)';
  const withdraw = o.withdrawAt ? `they withdraw with ${o.withdrawAt} unit${o.withdrawAt === 1 ? '' : 's'} or fewer left` : 'they fight to the last';
  const parts = [stance, withdraw, TIE[o.onTie ?? 'boost']];
  if (type === 'commander') parts.push('they attack the enemy commanders in person when they meet them');
  else if (type) parts.push(`they strike at ${catalogue(ctx.rules.warfare.catalogue).units[type]!.name} first`);
  if (o.field && o.field !== 'grid') parts.push(`they build the field ${o.field === 'deep' ? 'deep (a long approach)' : 'wide (room on the flanks)'} with the other side`);
  if (o.obstacles && o.obstacles !== 'map') parts.push(o.obstacles === 'none' ? 'defending, they place no obstacles' : `defending, they place their obstacles ${o.obstacles === 'ahead' ? 'ahead of the strategic zone' : o.obstacles === 'flanks' ? 'on its flanks' : 'where the attackers form up'}`);
  if (o.burn) {
    const found = findAspects(ctx.start, nation, o.burn.aspect).filter((a) => !a.boost);
    if (!ctx.rules.fate.aspects) return reject('aspects are not used in this campaign: there is nothing to burn', 'leave out "burn"');
    const usable = found.find((a) => mayUseFree(a, nation) && a.free > 0);
    if (!usable) return reject(found.length ? `"${found[0]!.name}" has no free invoke of yours to burn` : `there is no aspect "${o.burn.aspect}" that you know of`, 'burn an aspect with free invokes that are yours');
    const invokes = `${usable.free} free invoke${usable.free === 1 ? '' : 's'}`;
    if (o.burn.for === 'zones' || o.burn.for === 'obstacles') {
      parts.push(`in the first of them, "${usable.name}" is burned: its ${invokes} become ${usable.free} ${o.burn.for === 'zones' ? 'zone' : 'obstacle'}${usable.free === 1 ? '' : 's'}, and the aspect is gone`);
    } else {
      // Units and assets, at the campaign's prices (W24): what the invokes buy, and what is lost with the aspect.
      const unit = o.burn.for === 'units';
      const price = unit ? ctx.rules.warfare.burn.unit : ctx.rules.warfare.burn.asset;
      const what = unit ? 'a unit' : 'an asset';
      if (usable.free < price) return reject(`"${usable.name}" has ${invokes} of yours; ${what} costs ${price}`, `burn it for zones or obstacles (one a free invoke), or add free invokes to it first`);
      const n = Math.floor(usable.free / price);
      const left = usable.free - n * price;
      const bought = unit
        ? `${n} unit${n === 1 ? '' : 's'} of ${catalogue(ctx.rules.warfare.catalogue).units[ctx.rules.warfare.burn.unitType]?.name ?? ctx.rules.warfare.burn.unitType} (${price} free invokes a unit) to fight for you in that battle only`
        : `${n} asset${n === 1 ? '' : 's'} (${price} free invokes an asset), each fortune on your ${SKILL_NAMES[o.burn.skill ?? 'fighting']} checks in that battle`;
      parts.push(`in the first of them, "${usable.name}" is burned: its ${invokes} buy ${bought}${left ? `, the ${left} left over ${left === 1 ? 'is' : 'are'} lost with it` : ''}, and the aspect is gone`);
    }
  }
  if (o.reserve !== undefined) {
    const what = typeof o.reserve === 'number' ? `${o.reserve} unit${o.reserve === 1 ? '' : 's'}` : `your ${o.reserve}`;
    parts.push(`${what} held in reserve until exchange ${o.reserveUntil ?? DEFAULT_RESERVE_UNTIL}`);
  }
  return { ok: true, claims: [], slots: [{ key: 'battle_plan', limit: 1, label: 'one battle plan a turn' }], summary: `Battle plan for your Warfare battles this turn: ${o.stance} — ${parts.join('; ')}` };
}

/**
 * When a battle at `at` may be fought as Warfare (docs/rules.md W15, W18), in
 * words for a receipt; undefined when it cannot be: Warfare off, an assault
 * while assaults stay d6 battles, or a threshold no battle there can reach.
 */
function warfareWhen(ctx: TurnContext, at: HexKey, kind: 'open' | 'assault'): string | undefined {
  const w = ctx.rules.warfare;
  if (!w.enabled || (kind === 'assault' && !w.assaults)) return undefined;
  if (w.hexes.includes(at)) return `the battle at ${at} is fought as Warfare (the GM's flag)`;
  const defenders = kind === 'assault' ? ctx.rules.maxSettlementDefenders : 1 + ctx.rules.maxSupportUnits;
  if (w.minUnitsPerSide > Math.min(1 + ctx.rules.maxSupportUnits, defenders)) return undefined;
  return `a battle at ${at} is fought as Warfare when each side brings ${w.minUnitsPerSide} units or more`;
}

const PLEDGE = 'your commanders spend the Fate pledged as fate points, one an invoke, and the rest stays with you';

/**
 * What the receipt says of an attack or an assault that may be fought as
 * Warfare (docs/rules.md W15, W18, W20), so a pledge or a loss order is not a
 * surprise: "" when it cannot be. `units` is the attacking force.
 */
export function warfareNote(ctx: TurnContext, at: HexKey, units: number, o: Pick<AttackOrder, 'fate' | 'casualties'>, kind: 'open' | 'assault' = 'open'): string {
  const w = ctx.rules.warfare;
  const flagged = w.hexes.includes(at);
  if (!warfareWhen(ctx, at, kind) || (!flagged && units < w.minUnitsPerSide)) return '';
  const when = flagged ? `the battle at ${at} is fought as Warfare (the GM's flag)` : `if the defence brings ${w.minUnitsPerSide} units or more, it is fought as Warfare`;
  const parts = [o.fate ? PLEDGE : '', o.casualties?.length ? 'the loss order does not apply there' : ''].filter(Boolean);
  return `; ${when}${parts.length ? `: ${parts.join('; ')}` : ''}`;
}

/** What the receipt says of a defence pledge (`hold`, `defend … fate N`) that a Warfare battle may spend (W20): "" when none can. */
export function pledgeNote(ctx: TurnContext, at: HexKey, kind: 'open' | 'assault', fate: number | undefined): string {
  const when = fate ? warfareWhen(ctx, at, kind) : undefined;
  return when ? `; ${when}: ${PLEDGE}` : '';
}

/** Whether a battle or an assault at `at` may be fought as Warfare, for an invoke's receipt. */
export const invokeWarfareWhen = (ctx: TurnContext, at: HexKey, kind: 'open' | 'assault'): boolean => warfareWhen(ctx, at, kind) !== undefined;

/** What the receipt says of an invoke on a battle that may be fought as Warfare (W20): the commanders spend it, or not. */
export function invokeNote(ctx: TurnContext, at: HexKey, kind: 'open' | 'assault', reroll: boolean | undefined): string {
  if (!invokeWarfareWhen(ctx, at, kind)) return '';
  return `; if that battle is fought as Warfare, your commanders spend it only ${reroll ? 'for another card on a check it may turn' : 'on a check it turns (+2)'}, or not at all`;
}
