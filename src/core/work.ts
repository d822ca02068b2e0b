import { plural } from './prose.js';
import { typeAndName } from './unit-name.js';
import type { Campaign } from './campaign.js';
import { unitCost } from './checks/settlement-orders.js';
import type { HexKey, NationId, SettlementId, UnitId } from './ids.js';
import { perCampaignAndState } from './memo.js';
import { pushTo } from './multimap.js';
import { allUnits } from './world-index.js';
import type { BuildState, GameState, Project, UnitState } from './state.js';

/**
 * Work in progress a unit is tied to: a build it stands on (founding a
 * settlement, constructing an external structure) or a siege it holds. An
 * order that takes the unit away ends the work, so the checks ask for the
 * player's word first (rules.abandonWork) and the receipt says what is lost.
 */
export type UnitWork =
  | { kind: 'build'; unit: UnitId; build: string; what: string; at: HexKey; renownPaid: number; turnsDone: number; turnsLeft: number }
  | { kind: 'siege'; unit: UnitId; settlement: SettlementId; name: string; otherBesiegers: number };

/** A project's name as players read it: "Silver mine", "Marines 'Iron Guard'", "+1 battlement". */
export function projectName(campaign: Campaign, p: Project, nation: NationId): string {
  switch (p.kind) {
    case 'unit': {
      const type = campaign.nations[nation]?.unitTypes[p.unitType];
      return typeAndName(type?.name ?? p.unitType, p.name);
    }
    case 'structure':
      return campaign.structures[p.structure]?.name ?? p.structure;
    case 'battlement':
      return `+${p.level} battlement`;
    case 'upgrade':
      return `upgrade to ${p.to}`;
    case 'settlement':
      return `new settlement ${p.name}`;
    case 'external':
      return campaign.externals[p.structure]?.name ?? p.structure;
  }
}

/** What the work cost when it was ordered, at the campaign's prices. */
export function renownPaid(campaign: Campaign, b: BuildState): number {
  const p = b.project;
  const rules = campaign.rules;
  switch (p.kind) {
    case 'unit':
      return campaign.nations[b.nation]?.unitTypes[p.unitType] ? unitCost(campaign, b.nation, p.unitType, p.extraBonuses ?? []) : 0;
    case 'structure':
      return campaign.structures[p.structure]?.cost ?? 0;
    case 'battlement':
      return rules.battlementCost[String(p.level)] ?? 0;
    case 'upgrade':
      return p.to === 'town' || p.to === 'city' ? rules.upgradeCost[p.to] : 0;
    case 'settlement':
      return rules.newSettlementCost;
    case 'external':
      return campaign.externals[p.structure]?.cost ?? 0;
  }
}

/**
 * Turns of work a build has had by the end of turn `turn` (it works in the
 * turn it starts), and how many it still needs.
 */
export function buildProgress(b: BuildState, turn: number): { done: number; left: number } {
  return { done: Math.max(0, turn - b.startedTurn + 1), left: b.turnsLeft };
}


/** "building Silver mine at 9,4, 1 turn left" / "besieging Ironhold": what a unit is doing. */
export function workText(w: UnitWork): string {
  return w.kind === 'build' ? `building ${w.what} at ${w.at}, ${plural(w.turnsLeft, 'turn')} left` : `besieging ${w.name}`;
}

/** What giving the work up costs: "Silver mine at 9,4 (20 Renown paid, 1 of 3 turns of work done)". */
export function lossText(w: UnitWork): string {
  if (w.kind === 'build') {
    return `${w.what} at ${w.at} (${w.renownPaid} Renown paid, ${w.turnsDone} of ${plural(w.turnsDone + w.turnsLeft, 'turn')} of work done)`;
  }
  return `the siege of ${w.name} (${w.otherBesiegers ? `${plural(w.otherBesiegers, 'other besieger')} hold${w.otherBesiegers === 1 ? 's' : ''} it` : 'it is lifted: no other unit besieges it'})`;
}

/**
 * Builds by the unit working them and besiegers by settlement, taken in one
 * pass over a state that no longer changes (TurnContext.start in the engine,
 * a resolved turn's state in reports), so asking about one unit is a look-up.
 */
export class WorkIndex {
  private readonly buildsByBuilder = new Map<UnitId, BuildState[]>();
  private readonly besiegers = new Map<SettlementId, number>();

  private constructor(
    private readonly campaign: Campaign,
    private readonly state: GameState,
  ) {
    for (const b of state.builds) if (b.builder) pushTo(this.buildsByBuilder, b.builder, b);
    for (const u of allUnits(state)) if (u.besieging) this.besiegers.set(u.besieging, (this.besiegers.get(u.besieging) ?? 0) + 1);
  }

  private static readonly made = perCampaignAndState((campaign, state) => new WorkIndex(campaign, state));

  static of(campaign: Campaign, state: GameState): WorkIndex {
    return WorkIndex.made(campaign, state);
  }

  /** The builds a unit works on where it stands, in creation order. */
  buildsBy(unit: UnitState): BuildState[] {
    return (this.buildsByBuilder.get(unit.id) ?? []).filter((b) => b.hex === unit.hex);
  }

  /** Everything the unit would leave behind if it went: its builds on this hex, then its siege. */
  workOf(unit: UnitState): UnitWork[] {
    const out: UnitWork[] = this.buildsBy(unit).map((b) => {
      const { done, left } = buildProgress(b, this.state.turn);
      return { kind: 'build', unit: unit.id, build: b.id, what: projectName(this.campaign, b.project, b.nation), at: b.hex, renownPaid: renownPaid(this.campaign, b), turnsDone: done, turnsLeft: left };
    });
    if (unit.besieging) {
      const s = this.state.settlements[unit.besieging];
      out.push({ kind: 'siege', unit: unit.id, settlement: unit.besieging, name: s?.name ?? unit.besieging, otherBesiegers: Math.max(0, (this.besiegers.get(unit.besieging) ?? 1) - 1) });
    }
    return out;
  }
}
