import { unitLabelOf } from '../core/unit-name.js';
import type { Campaign } from '../core/campaign.js';
import type { NationId, SettlementId, UnitId } from '../core/ids.js';
import type { GameState, UnitState } from '../core/state.js';

/**
 * Names for ids, as one reader sees them. A unit is named (type and name)
 * only when `knows` says the reader may know it; otherwise it is "an unseen
 * unit". Looks in the state after the turn first, then before it, so units
 * lost this turn keep their names.
 */
export class Namer {
  constructor(
    readonly campaign: Campaign,
    private readonly before: GameState,
    private readonly after: GameState,
    private readonly knows: (unit: UnitId) => boolean,
    /** The reader's nation, whose own units are not marked with a nation (null: the GM, who sees every nation's mark). */
    private readonly reader: NationId | null,
  ) {}

  /** The report is the GM's, who may read everything. */
  readsAll(): boolean {
    return this.reader === null;
  }

  /** The report is this nation's own. */
  readsAs(nation: NationId): boolean {
    return this.reader === nation;
  }

  unitState(id: UnitId): UnitState | undefined {
    return this.after.units[id] ?? this.before.units[id];
  }

  nationName(id: string): string {
    return this.campaign.nations[id as NationId]?.name ?? id;
  }

  /** The class of a unit's type ("infantry", "diplomatic"…), undefined for a unit the state no longer knows. */
  unitClass(id: UnitId): string | undefined {
    const u = this.unitState(id);
    return u ? this.campaign.nations[u.nation]?.unitTypes[u.type]?.class : undefined;
  }

  typeName(unit: UnitState): string {
    return this.campaign.nations[unit.nation]?.unitTypes[unit.type]?.name ?? unit.type;
  }

  private labels: Map<UnitId, UnitLabel> | undefined;

  /** "Infantry 'Iron Guard' (iron-guard)", with " of Borea" for another nation's unit. */
  unit(id: UnitId): string {
    const labels = (this.labels ??= unitLabels(this.campaign, this.before, this.after));
    let label = labels.get(id);
    if (label === undefined) {
      const u = this.unitState(id);
      if (!u) return id;
      labels.set(id, (label = { nation: u.nation, own: unitLabelOf(this.typeName(u), u), foreign: undefined }));
    }
    if (!this.knows(id)) return 'an unseen unit';
    if (label.nation === this.reader) return label.own;
    return (label.foreign ??= `${label.own} of ${this.nationName(label.nation)}`);
  }

  settlement(id: SettlementId): string {
    return this.after.settlements[id]?.name ?? this.before.settlements[id]?.name ?? id;
  }

  private byHex: ReadonlyMap<string, string> | undefined;

  /** Where something stands, in words: "in Argentum" at a settlement's hex (as the turn ends, else as it began), else "at 25,6". */
  where(hex: string): string {
    const name = (this.byHex ??= settlementNamesByHex(this.before, this.after)).get(hex);
    return name !== undefined ? `in ${name}` : `at ${hex}`;
  }

  goalText(nation: NationId, goal: string): string {
    return this.campaign.nations[nation]?.goals.find((g) => g.id === goal)?.text ?? goal;
  }
}

/** A unit's label as its own nation reads it, and as every other reader (the GM too) does: the same for every reader. */
interface UnitLabel {
  nation: NationId;
  own: string;
  /** With " of <nation>", made when a first reader needs it. */
  foreign: string | undefined;
}

const labelsByTurn = new WeakMap<Campaign, WeakMap<GameState, WeakMap<GameState, Map<UnitId, UnitLabel>>>>();

/**
 * The units' labels of one turn (a campaign, the states before and after it), made once for every reader:
 * a thousand nations' reports name the same units (a battle's both sides, the units each sees), and the
 * label of a unit does not depend on who reads it, beyond the " of <nation>" every other reader sees.
 */
function unitLabels(campaign: Campaign, before: GameState, after: GameState): Map<UnitId, UnitLabel> {
  let forCampaign = labelsByTurn.get(campaign);
  if (!forCampaign) labelsByTurn.set(campaign, (forCampaign = new WeakMap()));
  let forBefore = forCampaign.get(before);
  if (!forBefore) forCampaign.set(before, (forBefore = new WeakMap()));
  let labels = forBefore.get(after);
  if (!labels) forBefore.set(after, (labels = new Map<UnitId, UnitLabel>()));
  return labels;
}

const namesByHex = new WeakMap<GameState, WeakMap<GameState, ReadonlyMap<string, string>>>();

/**
 * Each settlement's name by its hex, the turn's end winning over its start:
 * made once per pair of states, not once per reader (a thousand nations'
 * namers over the world's settlements were a sixth of the 1,000-nation turn).
 */
function settlementNamesByHex(before: GameState, after: GameState): ReadonlyMap<string, string> {
  let forAfter = namesByHex.get(before);
  if (!forAfter) namesByHex.set(before, (forAfter = new WeakMap()));
  let names = forAfter.get(after);
  if (!names) {
    const made = new Map<string, string>();
    for (const s of Object.values(before.settlements)) made.set(s.hex, s.name);
    for (const s of Object.values(after.settlements)) made.set(s.hex, s.name);
    forAfter.set(after, (names = made));
  }
  return names;
}
