import { unitName } from '../unit-name.js';
import { fateModifier } from '../checks/lookup.js';
import type { AcceptedOrder, TurnContext } from '../context.js';
import type { DiceStream } from '../dice.js';
import type { Modifier } from '../events.js';
import type { NationId } from '../ids.js';
import { leaderActionBonus } from '../leaders.js';
import type { ActOrder } from '../orders.js';
import { placeOf, type ActionPlace } from './action-target.js';
import type { ActionDef, ActionEffect } from './action-types.js';
import { holds } from './conditions.js';
import { applyEffect, type Struck } from './effects.js';
import { filler } from './fire.js';
import { revealSecret } from './secrets.js';
import { damage } from './sabotage.js';
import { openRoute } from './trade.js';
import { lostName, orderUnmet } from '../unmet.js';
import type { EventScene } from './scene.js';
import type { RollOutcome } from './types.js';

/**
 * One unit's action, resolved: where its target stands now, the roll (a d6
 * from the unit's own stream `action:<nation>:<unit>`, plus Fate, the
 * leader's bonus and the modifiers the catalogue writes; the target's are
 * summed as "the target's defences" so the roll gives away nothing of them),
 * then the outcome's effects on each side, and the target told when the
 * catalogue says it notices (docs/rules.md D1).
 */
export function resolveAction(ctx: TurnContext, scene: EventScene, a: AcceptedOrder<ActOrder>): void {
  const nation = a.nation;
  const o = a.order;
  const def = ctx.campaign.actions?.entries[o.action];
  const unit = ctx.unit(o.unit);
  // Lost in a battle this turn: the action ends with it.
  if (!def) return;
  if (!unit || unit.nation !== nation) return orderUnmet(ctx, a, 'unit_lost', `did not take its action (${def.name}): ${lostName(ctx, o.unit)} was lost before it could`);
  const base = { type: 'action_taken' as const, nations: [nation], nation, unit: unit.id, action: def.id, name: def.name, modifiers: [] as Modifier[], fateSpent: 0 };
  const place = placeOf(ctx, scene, unit.hex, o.target);
  if (typeof place === 'string') return ctx.emit({ ...base, target: '', at: unit.hex, void: place });
  const changed = def.whose === 'own' && place.owner !== nation ? `${place.label} is no longer yours` : def.whose === 'foreign' && place.owner === nation ? `${place.label} is yours now` : undefined;
  if (changed) return ctx.emit({ ...base, target: place.label, at: place.hex, void: changed });
  const stream = ctx.dice.stream(`action:${nation}:${unit.id}`);
  let outcome: RollOutcome = 'success';
  if (def.roll) {
    const modifiers = rollModifiers(ctx, scene, def, nation, unit.id, unit.hex, place);
    const bought = fateModifier(ctx.rules.fateTable, Math.min(o.fate ?? 0, ctx.nationState(nation).fate));
    if (bought.cost > 0) ctx.changeResource(nation, 'fate', -bought.cost, `Fate spent for +${bought.modifier} on ${def.name} with ${unitName(ctx.campaign, unit)}`);
    const roll = stream.roll('d6');
    const total = roll.value + bought.modifier + modifiers.reduce((n, m) => n + m.value, 0);
    outcome = total <= def.roll.beat ? 'fail' : total >= def.roll.beat + 1 + def.roll.greatBy ? 'great' : 'success';
    ctx.emit({ ...base, target: place.label, at: place.hex, beat: def.roll.beat, roll, modifiers, fateSpent: bought.cost, total, outcome });
  } else ctx.emit({ ...base, target: place.label, at: place.hex, outcome });
  const effects = def.outcomes[outcome] ?? (outcome === 'great' ? def.outcomes.success : undefined);
  const side = { ctx, scene, def, nation, unitId: unit.id, unitHex: unit.hex, place, stream, aim: o.aim, outcome };
  for (const e of effects?.actor ?? []) applyActorEffect(side, e);
  if (place.owner) for (const e of effects?.target ?? []) applyTargetEffect(side, place.owner, e);
  if (place.owner && place.owner !== nation && def.noticed.includes(outcome)) {
    const named = def.named.includes(outcome);
    ctx.emit({ type: 'action_noticed', nations: [place.owner], nation: place.owner, action: def.id, name: def.name, place: place.label, at: place.hex, outcome, ...(named ? { by: nation } : {}) });
  }
}

function rollModifiers(ctx: TurnContext, scene: EventScene, def: ActionDef, nation: NationId, unit: string, hex: ActionPlace['hex'], place: ActionPlace): Modifier[] {
  const out: Modifier[] = [];
  let defence = 0;
  for (const m of def.roll?.modifiers ?? []) {
    if (m.of === 'target') {
      if (place.owner && holds(m.when, { scene, nation: place.owner, target: place.where })) defence += m.value;
    } else if (holds(m.when, { scene, nation, target: { scope: 'unit', id: unit, hex }, besides: unit })) out.push({ value: m.value, source: m.label ?? 'circumstances' });
  }
  if (defence) out.push({ value: defence, source: "the target's defences" });
  const leader = leaderActionBonus(ctx.campaign, ctx.state, nation, def.id);
  if (leader) out.push(leader);
  return out;
}

export interface Side {
  ctx: TurnContext;
  scene: EventScene;
  def: ActionDef;
  nation: NationId;
  unitId: string;
  unitHex: ActionPlace['hex'];
  place: ActionPlace;
  stream: DiceStream;
  aim: string | undefined;
  outcome: RollOutcome;
}

function struck(s: Side, nation: NationId, target: Struck['target'], reason: string): Struck {
  const fill = filler(s.ctx, s.scene, nation, target);
  return { scene: s.scene, nation, target, event: s.def.id, title: s.def.name, fill: (t) => fill(t.replace(/\{target\}/g, s.place.label)), reason };
}

/**
 * The target tries to catch the one who acted: a d6 from its own stream
 * `catch:<actor nation>:<unit>` (the GM can force it), above `beat` catches
 * the unit, which is destroyed. Both nations learn the outcome of a catch;
 * an escape is told to the target alone.
 */
function catchActor(s: Side, owner: NationId, beat: number): void {
  const unit = s.ctx.unit(s.unitId as Parameters<TurnContext['unit']>[0]);
  if (!unit || owner === s.nation) return;
  // The target sees the unit it caught, or the one that got away if the action names its actor; else only that someone did.
  const named = s.def.named.includes(s.outcome);
  const hunt = s.ctx.acceptedOf('hunt_spies').find((h) => h.nation === owner)?.order;
  if (hunt?.letGo) {
    s.ctx.emit({ type: 'catch_waived', nations: [owner], nation: owner, ...(named ? { unit: unit.id } : {}), action: s.def.name, place: s.place.label });
    return;
  }
  const bonus = huntBonus(s.ctx, owner, hunt?.fate ?? 0);
  const roll = s.ctx.dice.stream(`catch:${s.nation}:${unit.id}`).roll('d6');
  const total = roll.value + (bonus?.modifier ?? 0);
  const caught = total > beat;
  const seen = caught || named;
  const hunted = bonus ? { fateSpent: bonus.spent, modifiers: [{ value: bonus.modifier, source: 'Fate' }], total } : {};
  s.ctx.emit({ type: 'catch_roll', nations: caught ? [owner, s.nation].sort() : [owner], nation: owner, ...(seen ? { unit: unit.id } : {}), action: s.def.name, place: s.place.label, beat, roll, caught, ...hunted });
  if (caught) {
    s.ctx.destroyUnit(unit, `caught at ${s.def.name} by ${s.ctx.nationDef(owner).name}`, [s.nation, owner]);
    s.scene.unitRemoved(unit);
  }
}

/** The Fate a nation's `hunt spies fate N` bought, spent at its first catch roll of the turn; every catch roll of the turn has its bonus. */
const HUNTS = new WeakMap<TurnContext, Map<NationId, { modifier: number; spent: number }>>();

function huntBonus(ctx: TurnContext, nation: NationId, pledged: number): { modifier: number; spent: number } | undefined {
  if (pledged <= 0) return undefined;
  let byNation = HUNTS.get(ctx);
  if (!byNation) HUNTS.set(ctx, (byNation = new Map<NationId, { modifier: number; spent: number }>()));
  const known = byNation.get(nation);
  if (known) return known.modifier > 0 ? { modifier: known.modifier, spent: 0 } : undefined;
  const bought = fateModifier(ctx.rules.fateTable, Math.min(pledged, ctx.nationState(nation).fate));
  if (bought.cost > 0) ctx.changeResource(nation, 'fate', -bought.cost, 'Fate spent hunting spies');
  const hunt = { modifier: bought.modifier, spent: bought.cost };
  byNation.set(nation, hunt);
  return bought.modifier > 0 ? hunt : undefined;
}

function applyActorEffect(s: Side, e: ActionEffect): void {
  if (e.kind === 'reveal') return revealSecret(s, e);
  if (e.kind === 'damage' || e.kind === 'trade_route' || e.kind === 'catch') return;
  applyEffect(s.ctx, struck(s, s.nation, { scope: 'unit', id: s.unitId, hex: s.unitHex }, `${s.def.name} on ${s.place.label}`), e);
}

/** Effects on the target's side give the action's name as their reason, never who took it. */
function applyTargetEffect(s: Side, owner: NationId, e: ActionEffect): void {
  if (e.kind === 'reveal') return;
  if (e.kind === 'damage') return damage(s, e.delay);
  if (e.kind === 'trade_route') return openRoute(s);
  if (e.kind === 'catch') return catchActor(s, owner, e.beat);
  applyEffect(s.ctx, struck(s, owner, s.place.where, s.def.name), e);
}
