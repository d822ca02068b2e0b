import { typeAndName } from '../unit-name.js';
import { leaderCostChange } from '../leaders.js';
import { isMilitaryClass, type Bonus, type Campaign } from '../campaign.js';
import type { TurnContext } from '../context.js';
import type { NationId, SettlementId } from '../ids.js';
import type { BuildBattlementOrder, BuildStructureOrder, BuildUnitOrder, UpgradeOrder } from '../orders.js';
import { isRejected, ownSettlement, startOfTurn } from './lookup.js';
import { withArticle } from '../prose.js';
import { reject, type Verdict } from './verdict.js';
import { externalExtraBuilds } from '../structure-perks.js';

/** Checkers for orders given to a settlement: builds and upgrades. */

export function bonusText(b: Bonus): string {
  const sign = b.value >= 0 ? '+' : '';
  const vs = b.vs ? ` vs ${[...(b.vs.classes ?? []), b.vs.affiliation].filter(Boolean).join('/')}` : '';
  return `${sign}${b.value}${vs}${b.situation ? ` (${b.situation})` : ''}`;
}

const queuedIn = (ctx: TurnContext, id: SettlementId) => startOfTurn(ctx).buildsBySettlement.get(id) ?? [];

const sameBonus = (a: Bonus, b: Bonus): boolean => bonusText(a) === bonusText(b);

/** Renown cost of a unit: class base plus costPerBonusPoint per point of positive bonus. */
export function unitCost(campaign: Campaign, nation: NationId, unitType: string, extra: readonly Bonus[] = []): number {
  const type = campaign.nations[nation]?.unitTypes[unitType];
  if (!type) throw new Error(`unknown unit type ${unitType}`);
  const points = [...type.bonuses, ...extra].reduce((sum, b) => sum + Math.max(0, b.value), 0);
  return (type.cost ?? campaign.rules.unitCost[type.class]) + campaign.rules.costPerBonusPoint * points;
}

export function checkBuildUnit(ctx: TurnContext, nation: NationId, o: BuildUnitOrder): Verdict {
  const s = ownSettlement(ctx, nation, o.settlement);
  if (isRejected(s)) return s;
  const types = ctx.nationDef(nation).unitTypes;
  const type = types[o.unitType];
  if (!type) return reject(`your nation has no unit type "${o.unitType}"`, `you can build: ${Object.keys(types).sort().join(', ')}`);
  if (type.locked && !ctx.start.nations[nation]?.unlocked?.unitTypes?.includes(type.id)) return reject(`your nation has not yet learnt to raise ${type.name}`, 'an event must unlock it first');
  if (type.requiresStructure) {
    if (!s.home) return reject(`${type.name} can only be raised in your home settlements; ${s.name} was captured`);
    if (!s.structures.includes(type.requiresStructure)) {
      const need = ctx.campaign.structures[type.requiresStructure]?.name ?? type.requiresStructure;
      return reject(`${type.name} needs ${withArticle(need)} in ${s.name}`);
    }
  }
  if (type.class === 'naval' && !ctx.map.isCoast(s.hex)) return reject(`${s.name} is not on the coast; ships are built in ports`);
  const extra = o.bonuses ?? [];
  for (const b of extra) {
    const granted = s.structures.some((id) => {
      const g = ctx.campaign.structures[id]?.grants;
      return g?.scope === 'circumstantial' && g.classes.includes(type.class) && sameBonus(g.bonus, b);
    });
    if (!granted) return reject(`no structure in ${s.name} teaches ${bonusText(b)} to ${type.class}`);
  }
  const kinds = type.bonuses.length + extra.length;
  if (kinds > ctx.rules.maxBonusKinds) return reject(`a unit can have at most ${ctx.rules.maxBonusKinds} kinds of bonus; this one would have ${kinds}`);
  const military = isMilitaryClass(type.class);
  const cap = ctx.nationDef(nation).caps[military ? 'military' : 'diplomatic'];
  const cost = Math.max(0, unitCost(ctx.campaign, nation, type.id, extra) + leaderCostChange(ctx.campaign, ctx.start, nation, 'unit', type.class));
  const capKey = military ? 'military' : 'diplomatic';
  const perTurn = ctx.rules.buildsPerSettlement[capKey] + s.structures.reduce((n, id) => n + (ctx.campaign.structures[id]?.extraBuilds?.[capKey] ?? 0), 0) + externalExtraBuilds(ctx, nation, s.id, capKey);
  return {
    ok: true,
    claims: [],
    renown: cost,
    slots: [
      { key: `cap:${nation}:${capKey}`, limit: Math.max(0, cap - (startOfTurn(ctx).heldUnits.get(`${nation}:${capKey}`) ?? 0)), label: `your ${capKey} unit cap of ${cap}` },
      { key: `build:${s.id}:${capKey}`, limit: perTurn, label: `${perTurn} ${capKey} unit${perTurn === 1 ? '' : 's'} a turn in ${s.name}` },
    ],
    summary: `${s.name} builds ${typeAndName(type.name, o.name)}${extra.length ? ` with ${extra.map(bonusText).join(', ')}` : ''} (${cost} Renown, ready next turn)`,
  };
}

export function checkBuildStructure(ctx: TurnContext, nation: NationId, o: BuildStructureOrder): Verdict {
  const s = ownSettlement(ctx, nation, o.settlement);
  if (isRejected(s)) return s;
  const st = ctx.campaign.structures[o.structure];
  if (!st) return reject(`there is no structure "${o.structure}"`, `known: ${Object.keys(ctx.campaign.structures).sort().join(', ')}`);
  if (st.locked && !ctx.start.nations[nation]?.unlocked?.structures?.includes(st.id)) return reject(`your nation does not yet know the secret of the ${st.name}`, 'an event must unlock it first');
  if (s.structures.includes(st.id)) return reject(`${s.name} already has ${withArticle(st.name)}`);
  if (queuedIn(ctx, s.id).some((b) => b.project.kind === 'structure' && b.project.structure === st.id)) {
    return reject(`${withArticle(st.name)} is already being built in ${s.name}`);
  }
  const cost = Math.max(0, st.cost + leaderCostChange(ctx.campaign, ctx.start, nation, 'structure'));
  return {
    ok: true,
    claims: [],
    renown: cost,
    slots: [{ key: `structure:${s.id}:${st.id}`, limit: 1, label: `one ${st.name} in ${s.name}` }],
    summary: `${s.name} builds ${withArticle(st.name)} (${cost} Renown, ${st.turns} turn${st.turns === 1 ? '' : 's'})`,
  };
}

export function checkBuildBattlement(ctx: TurnContext, nation: NationId, o: BuildBattlementOrder): Verdict {
  const s = ownSettlement(ctx, nation, o.settlement);
  if (isRejected(s)) return s;
  const cost = ctx.rules.battlementCost[String(o.level)];
  if (cost === undefined) return reject(`there is no +${o.level} battlement`, `battlements are ${Object.keys(ctx.rules.battlementCost).map((l) => `+${l}`).join(', ')}`);
  const queued = queuedIn(ctx, s.id).filter((b) => b.project.kind === 'battlement').length;
  if (queued > 0) return reject(`${s.name} is already building a battlement`, 'one battlement a turn per settlement');
  if (s.battlements.length >= ctx.rules.maxBattlements) return reject(`${s.name} already has ${s.battlements.length} battlements, the most a settlement can have`);
  return {
    ok: true,
    claims: [],
    renown: cost,
    slots: [{ key: `battlement:${s.id}`, limit: 1, label: `one battlement a turn in ${s.name}` }],
    summary: `${s.name} builds a +${o.level} battlement (${cost} Renown, 1 turn)`,
  };
}

export function checkUpgrade(ctx: TurnContext, nation: NationId, o: UpgradeOrder): Verdict {
  const s = ownSettlement(ctx, nation, o.settlement);
  if (isRejected(s)) return s;
  if (s.level === 'capital' || s.level === 'city') {
    return reject(`${s.name} is ${withArticle(s.level)} and cannot be upgraded`, 'each nation has one Capital, and no more can be built');
  }
  if (queuedIn(ctx, s.id).some((b) => b.project.kind === 'upgrade')) return reject(`${s.name} is already being upgraded`);
  const to = s.level === 'village' ? 'town' : 'city';
  const cost = ctx.rules.upgradeCost[to];
  return {
    ok: true,
    claims: [],
    renown: cost,
    slots: [{ key: `upgrade:${s.id}`, limit: 1, label: `one upgrade of ${s.name}` }],
    summary: `${s.name} grows from ${s.level} to ${to} (${cost} Renown, 1 turn)`,
  };
}
