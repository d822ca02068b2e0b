import type { Ability, Campaign, UnitClass } from './campaign.js';
import type { NationId, UnitId } from './ids.js';
import type { GameState, NationState } from './state.js';

/** Who rules a nation now: the state's leader after a succession, else the campaign's. */
export interface Leader {
  name: string | null;
  ability?: Ability;
  unit?: UnitId;
}

export function leaderOf(campaign: Campaign, ns: NationState): Leader {
  if (ns.leader) return { name: ns.leader.name, ...ability(campaign, ns.leader.ability), ...(ns.leader.unit ? { unit: ns.leader.unit } : {}) };
  const def = campaign.nations[ns.id];
  return { name: def?.leader ?? null, ...ability(campaign, def?.leaderAbility), ...(def?.leaderUnit ? { unit: def.leaderUnit } : {}) };
}

const ability = (campaign: Campaign, id: string | undefined) => {
  const a = id === undefined ? undefined : campaign.abilities[id];
  return a ? { ability: a } : {};
};

/** The ability a nation's ruler applies now: none while the throne is empty. */
function ruling(campaign: Campaign, state: GameState, nation: NationId): { name: string; ability: Ability } | undefined {
  const ns = state.nations[nation];
  if (!ns) return undefined;
  const { name, ability: a } = leaderOf(campaign, ns);
  return name !== null && a ? { name, ability: a } : undefined;
}

/** The leader's bonuses for the nation's units, shaped like a global structure grant. */
export function leaderGrants(campaign: Campaign, state: GameState, nation: NationId): { bonus: NonNullable<Ability['bonuses']>[number]['bonus']; classes: UnitClass[]; source: string }[] {
  const r = ruling(campaign, state, nation);
  if (!r) return [];
  return (r.ability.bonuses ?? []).map((b) => ({ bonus: b.bonus, classes: b.classes, source: `${r.name}: ${r.ability.name}` }));
}

/** Renown the leader's ability adds to (or takes off) a build; the build never costs less than nothing. */
export function leaderCostChange(campaign: Campaign, state: GameState, nation: NationId, of: 'unit' | 'structure', unitClass?: UnitClass): number {
  const costs = ruling(campaign, state, nation)?.ability.costs ?? [];
  return costs.filter((c) => c.of === of && (!c.classes || (unitClass !== undefined && c.classes.includes(unitClass)))).reduce((sum, c) => sum + c.change, 0);
}

/** The leader's bonus to the rolls of the nation's units' actions (all, or the actions named), as a roll modifier. */
export function leaderActionBonus(campaign: Campaign, state: GameState, nation: NationId, action: string): { value: number; source: string } | undefined {
  const r = ruling(campaign, state, nation);
  const value = (r?.ability.actions ?? []).filter((x) => !x.actions || x.actions.includes(action)).reduce((n, x) => n + x.value, 0);
  return r && value ? { value, source: `${r.name}: ${r.ability.name}` } : undefined;
}
