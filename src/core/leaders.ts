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

/** The leader's bonuses for the nation's units, shaped like a global structure grant. */
export function leaderGrants(campaign: Campaign, state: GameState, nation: NationId): { bonus: NonNullable<Ability['bonuses']>[number]['bonus']; classes: UnitClass[]; source: string }[] {
  const ns = state.nations[nation];
  if (!ns) return [];
  const { name, ability: a } = leaderOf(campaign, ns);
  if (!a?.bonuses || name === null) return [];
  return a.bonuses.map((b) => ({ bonus: b.bonus, classes: b.classes, source: `${name}: ${a.name}` }));
}

/** Renown the leader's ability adds to (or takes off) a build; the build never costs less than nothing. */
export function leaderCostChange(campaign: Campaign, state: GameState, nation: NationId, of: 'unit' | 'structure', unitClass?: UnitClass): number {
  const ns = state.nations[nation];
  if (!ns) return 0;
  const { name, ability: a } = leaderOf(campaign, ns);
  if (!a?.costs || name === null) return 0;
  return a.costs.filter((c) => c.of === of && (!c.classes || (unitClass !== undefined && c.classes.includes(unitClass)))).reduce((sum, c) => sum + c.change, 0);
}
