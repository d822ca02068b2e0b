import type { LoggedEvent } from '../core/events.js';
import type { NationId, UnitId } from '../core/ids.js';
import { leaderCostChange } from '../core/leaders.js';
import type { GameState, NationState, UnitState } from '../core/state.js';
import type { Namer } from './namer.js';
import { byId, capsOf, catalogueOf, classRulesOf, externalsOf, goalsOf, ownProjects, ownSettlements, ownUnits } from './facts.js';
import { unitsNamedIn } from './nation-events.js';
import type { ReportIndex } from './report-index.js';
import type { NationView } from './types.js';

/**
 * A nation's report, its own part: the units it may name, and its own
 * goals, units, settlements, works, caps and what it can build.
 */

/** The units a nation may know by name: its own before and after the turn, the foreign ones it sees, and those its events name. */
export function knownUnits(index: ReportIndex, nation: NationId, foreignUnitsSeen: readonly UnitState[], mine: readonly LoggedEvent[]): (id: UnitId) => boolean {
  const known = new Set<string>();
  for (const w of [index.worldBefore, index.world]) for (const u of w.unitsOf(nation)) known.add(u.id);
  for (const u of foreignUnitsSeen) known.add(u.id);
  for (const e of mine) for (const id of unitsNamedIn(e)) known.add(id);
  return (id) => known.has(id);
}

/** The nation's own affairs as its report lists them; `besiegedBy` names the foreign units it sees besieging a settlement. */
export function ownPart(
  index: ReportIndex,
  state: GameState,
  nation: NationId,
  ns: NationState,
  names: Namer,
  besiegedBy: (settlement: string) => string[],
): Pick<NationView, 'goals' | 'units' | 'classRules' | 'settlements' | 'projects' | 'externals' | 'caps' | 'catalogue'> {
  const { campaign } = index;
  const units = ownUnits(campaign, state, nation, names);
  return {
    goals: goalsOf(campaign, ns, nation),
    units,
    classRules: classRulesOf(campaign, units),
    settlements: ownSettlements(index, nation, names, besiegedBy),
    projects: ownProjects(index, nation, names),
    externals: externalsOf(campaign, index.world.externalsByNation.get(nation) ?? []),
    caps: capsOf(index, nation),
    catalogue: catalogueOf(campaign, nation, ns.unlocked, (of, cls) => leaderCostChange(campaign, state, nation, of, cls)),
  };
}

/** The foreign units seen besieging a settlement, by id, as the nation names them. */
export function besiegersSeen(foreignUnitsSeen: readonly UnitState[], names: Namer): (settlement: string) => string[] {
  return (settlement) =>
    foreignUnitsSeen
      .filter((u) => u.besieging === settlement)
      .sort(byId)
      .map((u) => names.unit(u.id));
}
