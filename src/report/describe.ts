import { plural } from '../core/prose.js';
import { unitLabelOf } from '../core/unit-name.js';
import type { Campaign } from '../core/campaign.js';
import type { BattleSide, DieRoll, LoggedEvent, Modifier } from '../core/events.js';
import type { NationId, SettlementId, UnitId } from '../core/ids.js';
import type { GameState, UnitState } from '../core/state.js';
import { sentence, withArticle } from '../core/prose.js';
import { drawText, fateResultText, luckText } from './draw-text.js';
import { ladderValue, rated, signed } from './ladder.js';
import type { BattleSideView, BattleView, ModifierView, RollView, SiegeRollView, WarfareView } from './types.js';

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

/**
 * "d6 4" for a plain die — "d6 4 (forced)" on the GM's page, when the GM set it: a player reads the
 * roll, not how it came — and a Fate draw in words with the value it gives ("rolled + 0 0 − (Mediocre (+0)) on 3: 3").
 */
function dieWords(roll: DieRoll, names: Namer): string {
  const draw = drawText(roll);
  if (draw) return `${draw}: ${roll.value}`;
  return `${roll.die} ${roll.value}${forcedMark(roll, names)}`;
}

/** " (forced)" on the GM's page for a die the GM set; nothing in a nation's report. */
const forcedMark = (roll: DieRoll, names: Namer) => (roll.forced && names.readsAll() ? ' (forced)' : '');

/** The text with a capital first letter; most labels have one already, and come back as themselves. */
const cap = (s: string) => {
  const first = s.charAt(0);
  const upper = first.toUpperCase();
  return first === upper ? s : upper + s.slice(1);
};

export function modifierViews(mods: readonly Modifier[]): ModifierView[] {
  return mods.map((m) => ({ value: m.value, signed: signed(m.value), source: m.source }));
}

function sideView(side: BattleSide, role: 'attacker' | 'defender', names: Namer, showFateOf: (nation: NationId) => boolean): BattleSideView {
  const rolls: RollView[] = side.rolls.map((r) => ({
    unit: r.unit,
    label: names.unit(r.unit),
    health: r.health,
    die: r.roll.die,
    value: r.roll.value,
    forced: r.roll.forced === true && names.readsAll(),
    draw: drawText(r.roll),
    modifiers: modifierViews(r.modifiers),
    total: r.total,
    fights: names.unitClass(r.unit) !== 'diplomatic',
  }));
  return {
    nation: side.nation,
    nationName: names.nationName(side.nation),
    role,
    rolls,
    fateModifier: side.fateModifier,
    fateSpent: showFateOf(side.nation) ? side.fateSpent : null,
    // Invokes (rules.fate.aspects) print as side modifiers: "+2 "High Walls" invoked (free invoke)".
    sideModifiers: modifierViews(side.invokes ? [...side.sideModifiers, ...side.invokes] : side.sideModifiers),
    ...(side.firstRolls ? { rerolled: rerolledText(side.firstRolls) } : {}),
    total: side.total,
  };
}

/** What a side first drew before an invoke re-rolled it: the cards or Fate dice in words (F8), or the d6s as numbers. */
function rerolledText(first: readonly DieRoll[]): string {
  const drawn = first.map((d) => {
    const w = drawText(d);
    return w ? `${w}: ${d.value}` : null;
  });
  if (drawn.every((w) => w !== null)) return `re-rolled by an invoke (first drawn: ${drawn.join('; ')})`;
  return `re-rolled by an invoke (first dice: ${first.map((d) => d.value).join(', ')})`;
}

type BattleEvent = Extract<LoggedEvent, { type: 'battle' }>;
type SiegeRollEvent = Extract<LoggedEvent, { type: 'siege_roll' }>;

/**
 * A battle with every die and every modifier, as both sides saw it. Fate
 * points spent are shown only for the sides `showFateOf` allows (the reader's
 * own): the modifier they bought was seen by all, the price was not.
 */
export function battleView(e: BattleEvent, names: Namer, showFateOf: (nation: NationId) => boolean): BattleView {
  const attacker = sideView(e.attacker, 'attacker', names, showFateOf);
  const defender = sideView(e.defender, 'defender', names, showFateOf);
  const kindText = e.external ? 'fight for a structure' : e.kind === 'open' ? 'open battle' : 'assault';
  const where = e.kind === 'assault' ? `the walls at ${e.at}` : e.at;
  const headline = `${attacker.nationName} attacked ${defender.nationName} at ${where} (${kindText})`;
  const outcome =
    e.winner === 'draw'
      ? `A draw at ${attacker.total} each: both sides lose one unit's health.`
      : `${(e.winner === 'attacker' ? attacker : defender).nationName} won, ${Math.max(attacker.total, defender.total)} to ${Math.min(attacker.total, defender.total)}: a deficit of ${e.deficit}.`;
  return {
    id: e.battle,
    at: e.at,
    kind: e.kind,
    kindText,
    headline,
    attacker,
    defender,
    winner: e.winner,
    outcome,
    deficit: e.deficit,
    casualties: e.casualties.map((c) => ({ unit: c.unit, label: names.unit(c.unit), result: c.result })),
    overkill: e.overkill,
  };
}

const SIEGE_ACTIONS: Record<SiegeRollEvent['action'], string> = {
  destroy_battlement: 'tried to destroy a battlement of',
  poison_water: 'tried to poison the water of',
  sortie: 'sallied out of',
};

export function siegeRollView(e: SiegeRollEvent, names: Namer): SiegeRollView {
  const headline = `${cap(names.unit(e.unit))} ${SIEGE_ACTIONS[e.action]} ${names.settlement(e.settlement)}: needed more than ${ladderValue(names.campaign, e.target)}, rolled ${e.total} — ${e.successes ? plural(e.successes, 'success') : 'failed'}.`;
  return {
    headline,
    action: e.action,
    unit: names.unit(e.unit),
    settlement: names.settlement(e.settlement),
    target: e.target,
    die: e.roll.die,
    value: e.roll.value,
    forced: e.roll.forced === true && names.readsAll(),
    draw: drawText(e.roll),
    modifiers: modifierViews(e.modifiers),
    total: e.total,
    successes: e.successes,
    effects: [...e.effects],
  };
}

const RESOURCE_NAME = { renown: 'Renown', fate: 'Fate' } as const;
const INDICATOR_NAME = { prosperity: 'Prosperity', happiness: 'Happiness' } as const;

/** One sentence for an event, as `names` may name things. */
type WarfareEvent = Extract<LoggedEvent, { type: 'warfare' }>;

function warfareHeadline(e: WarfareEvent, names: Namer): string {
  const n = (id: string) => names.nationName(id);
  const lost = e.casualties.map((c) => `${names.unit(c.unit)} ${c.result}`).join(', ');
  return `Warfare at ${e.at}: ${n(e.attacker)} attacked ${n(e.defender)}; ${n(e.winner === 'attacker' ? e.attacker : e.defender)} won after ${e.exchanges} exchange${e.exchanges === 1 ? '' : 's'} (${e.reason})${lost ? `; taken out: ${lost}` : ''}.`;
}

/**
 * The terms of a Warfare battle, explained once a report (docs/rules.md
 * W16; issue 36): the first battle of the section carries them.
 */
export const WARFARE_KEY: readonly string[] = [
  'Key: a battle over zones — stretches of the field hundreds of yards across, shown as boxes, the strategic zone (*) at the bottom; A attackers, D defenders (units in the zone), ~ an obstacle (one more to enter), # standing ramparts.',
  'Commanders lead the units; each exchange every commander moves and acts, in the order of their Command. The attackers win by holding the strategic zone with no defender in it.',
  'A card is drawn for each side of every roll (-4 to +4), added to the skills. A minor advantage lets a commander draw one roll again. An aspect (a free invoke, or a fate point spent) adds +2 after the draw or draws again; a free invoke costs nothing. Under each line, the numbers.',
];

/** The whole account of a Warfare battle (docs/rules.md W16): the story of each exchange, with every action's draws and shifts under it. */
export function warfareView(e: WarfareEvent, names: Namer, withKey = false): WarfareView {
  return { headline: warfareHeadline(e, names), ...(withKey ? { key: [...WARFARE_KEY] } : {}), lines: e.story ?? ['Zones: the strategic zone (*) at the bottom; A attackers, D defenders, ~ an obstacle, # standing ramparts.', ...e.account] };
}

/** An external structure type by its name ("Silver mine"), never its id. */
const externalName = (names: Namer, type: string) => names.campaign.externals[type]?.name ?? type.replace(/_/g, ' ');

/** Who plays a nation now, in words (the nation's own report and the GM's; others hear a rumour). */
function seatChangeText(e: Extract<LoggedEvent, { type: 'seat_changed' }>, nation: string): string {
  switch (e.to) {
    case 'caretaker':
      return `${nation} has sent no orders for too long: a caretaker keeps it until its player is back (it defends, keeps the work going and starts no war).`;
    case 'disorder':
      return `${nation} has sent no orders for too long and falls into civil disorder: its forces only defend, nothing is built, and Happiness drifts down until its player is back.`;
    case 'player':
      return `${nation}'s player is back and gives its orders again (in others' hands since turn ${e.since ?? '?'}).`;
    case 'hold':
      return `${nation} is no longer in others' hands (since turn ${e.since ?? '?'}): without orders its forces hold where they stand.`;
  }
}

export function describeEvent(e: LoggedEvent, names: Namer): string {
  const n = (id: string) => names.nationName(id);
  const u = (id: UnitId) => names.unit(id);
  switch (e.type) {
    case 'order_rejected':
      return `${n(e.nation)}: order refused${e.line !== undefined ? ` (line ${e.line})` : ''}: ${e.order} — ${e.reason}`;
    case 'order_warned':
      return `${n(e.nation)}: order carried out with a warning${e.line !== undefined ? ` (line ${e.line})` : ''}: ${e.order} — ${e.reason}`;
    case 'order_unmet':
      return `${n(e.nation)}: order did not happen${e.line !== undefined ? ` (line ${e.line})` : ''}: ${e.order} — ${e.reason}`;
    case 'nmr':
      return `${n(e.nation)} sent no orders (${plural(e.missedTurns, 'turn')} in a row)${e.policy === 'caretaker' ? '; a caretaker gave its orders' : e.policy === 'disorder' ? '; it is in civil disorder and only defends' : ''}.`;
    case 'seat_changed':
      return seatChangeText(e, n(e.nation));
    case 'resource':
      return `${n(e.nation)}: ${RESOURCE_NAME[e.resource]} ${signed(e.delta)} (${e.reason}), now ${e.balance}.`;
    case 'indicator':
      return `${n(e.nation)}: ${INDICATOR_NAME[e.indicator]} ${signed(e.delta)} (${e.reason}), now ${rated(e.value).text}.`;
    case 'build_started':
      return `Work began on ${e.what} ${names.where(e.at)} (${plural(e.turnsLeft, 'turn')}).`;
    case 'build_completed':
      return `Work finished on ${e.what} ${names.where(e.at)}.`;
    case 'build_lost':
      return `Work on ${e.what} was lost: ${e.reason}.`;
    case 'work_abandoned':
      return `${cap(u(e.unit))} left its work: given up ${e.lost}.`;
    case 'unit_created':
      return `${cap(u(e.unit))} was raised ${names.where(e.at)}.`;
    case 'unit_moved':
      return `${cap(u(e.unit))} moved ${[e.from, ...e.path].join(' → ')}${e.carried?.length ? `, carrying ${e.carried.map(u).join(', ')}` : ''}.`;
    case 'unit_fled':
      return `${cap(u(e.unit))} got away from ${u(e.attacker)}, ${e.from} → ${e.to}${e.coin ? ` (coin: ${e.coin.value === 1 ? 'heads' : 'tails'})` : ''}.`;
    case 'pursuit':
      return `${cap(u(e.attacker))} pursued ${u(e.target)}: ${e.caught ? 'caught it' : 'it escaped'} (${e.reason}).`;
    case 'battle':
      return `${battleView(e, names, () => false).headline}: ${e.winner === 'draw' ? 'a draw' : `${n(e.winner === 'attacker' ? e.attacker.nation : e.defender.nation)} won by ${e.deficit}`}.`;
    case 'warfare':
      return warfareHeadline(e, names);
    case 'attack_cancelled':
      return `${cap(u(e.unit))}: ${e.reason}.`;
    case 'unit_health':
      return e.to === 'destroyed' ? `${cap(u(e.unit))} was destroyed (${e.reason}).` : `${cap(u(e.unit))} is now ${e.to} (${e.reason}).`;
    case 'unit_rested':
      return `${cap(u(e.unit))} rested.`;
    case 'rest_interrupted':
      return `${cap(u(e.unit))} could not rest: ${e.reason}.`;
    case 'siege_started':
      return `${cap(u(e.besieger))} laid siege to ${names.settlement(e.settlement)}.`;
    case 'siege_lifted':
      return `The siege of ${names.settlement(e.settlement)} was lifted: ${e.reason}.`;
    case 'siege_roll':
      return siegeRollView(e, names).headline;
    case 'battlement_destroyed':
      return `A +${e.level} battlement of ${names.settlement(e.settlement)} was destroyed.`;
    case 'settlement_captured':
      return `${names.settlement(e.settlement)} was taken from ${n(e.from)} by ${n(e.to)}${e.by.length ? ` (${e.by.map(u).join(', ')})` : ''}.`;
    case 'settlement_founded':
      return `${n(e.nation)} founded ${e.name} at ${e.at}.`;
    case 'settlement_upgraded':
      return `${names.settlement(e.settlement)} grew from ${withArticle(e.from)} into ${withArticle(e.to)}.`;
    case 'external_built':
      return `${n(e.nation)} completed ${withArticle(names.campaign.externals[e.structure]?.name ?? e.structure)} at ${e.at}.`;
    case 'external_captured':
      return `${n(e.to)} took ${n(e.from)}'s ${externalName(names, e.structure)} at ${e.at}${e.by.length ? ` (${e.by.map(u).join(', ')})` : ''}; what it yields is now ${n(e.to)}'s.`;
    case 'external_destroyed':
      if (!e.by) return `${e.reason ?? 'Someone'} destroyed ${n(e.nation)}'s ${externalName(names, e.structure)} at ${e.at}.`;
      return `${n(e.by)} destroyed ${n(e.nation)}'s ${externalName(names, e.structure)} at ${e.at}${e.units.length ? ` (${e.units.map(u).join(', ')})` : e.reason ? ` (${e.reason})` : ''}.`;
    case 'external_held':
      return `${n(e.nation)} held its ${externalName(names, e.structure)} at ${e.at} against ${n(e.by)}.`;
    case 'goal_completed':
      return `${n(e.nation)} achieved a goal: ${sentence(names.goalText(e.nation, e.goal))}`;
    case 'nation_fallen':
      return `${n(e.nation)} has fallen: it holds no settlement and no unit.`;
    case 'press': {
      const to = e.to === 'all' ? 'every nation' : e.to.map(n).join(', ');
      const from = e.anonymous && !names.readsAs(e.from) && !names.readsAll() ? 'Someone' : cap(n(e.from));
      return `${from} wrote${e.anonymous ? ' (unsigned)' : ''} to ${to}: “${e.text}”`;
    }
    case 'heir_named':
      return `${cap(n(e.nation))} named ${e.name} heir${e.ability ? `, to bring ${names.campaign.abilities[e.ability]?.name ?? e.ability}` : ''}${e.by === 'gm' ? ' (by the GM)' : ''}.`;
    case 'leader_died':
      return `${e.name}, who ruled ${n(e.nation)}, has died: ${e.reason}.`;
    case 'leader_succeeded':
      return `${e.name} now rules ${n(e.nation)}${e.after ? `, after ${e.after}` : ''}${e.ability ? `, bringing ${names.campaign.abilities[e.ability]?.name ?? e.ability}` : ''}.`;
    case 'leader_vacant':
      return `${cap(n(e.nation))} has no leader and no heir: an heir order names one.`;
    case 'gm_note':
      return `${cap(n(e.nation))} wrote to the GM: “${e.text}”`;
    case 'season':
      return `The season turns: ${e.season} of ${e.year}.`;
    case 'event_draw':
      return `${n(e.nation)} drew for events (${e.draw}): ${e.quiet.die} ${e.quiet.value} against ${e.quietChance}% quiet${e.event ? `; ${e.pick?.die ?? 'd100'} ${e.pick?.value ?? '?'} among ${plural(e.candidates, 'candidate')} picked "${e.event}"` : e.quiet.value <= e.quietChance ? ' — a quiet turn' : ' — nothing could happen'}.`;
    case 'event_fired':
      return `${n(e.nation)}: ${e.title}${e.how === 'gm' ? ' (by the GM)' : ''} — ${e.text}`;
    case 'event_message':
      return e.text;
    case 'structure_destroyed':
      return `The ${names.campaign.structures[e.structure]?.name ?? e.structure} of ${names.settlement(e.settlement)} was destroyed (${e.reason}).`;
    case 'battlement_damaged':
      return `A +${e.from} battlement of ${names.settlement(e.settlement)} was damaged to +${e.to} (${e.reason}).`;
    case 'resource_revealed':
      return `${n(e.nation)} found ${e.name} (${e.kind}) at ${e.hex}.`;
    case 'unlocked':
      return `${n(e.nation)} can now build ${e.what === 'unit_type' ? 'units of type' : 'the structure'} ${e.name}.`;
    case 'unit_forgone':
      return `${n(e.nation)} did without a new ${names.campaign.nations[e.nation]?.unitTypes[e.unitType]?.name ?? e.unitType} (${e.reason}).`;
    case 'follow_up_set':
      return `${n(e.nation)}: "${e.event}" will follow on turn ${e.turn}.`;
    case 'revolt_roll':
      return `${names.settlement(e.settlement)} ${e.revolted ? 'rose in revolt' : 'stayed loyal'} (risk ${e.chance}%, ${e.roll.die} rolled ${e.roll.value}${e.roll.forced && names.readsAll() ? ', forced' : ''}).`;
    case 'roll_asked':
      return `${n(e.nation)}: "${e.title}" asks for a roll, answered with the orders for turn ${e.turn}.`;
    case 'event_roll': {
      const fate = e.fateSpent ? ` + ${e.modifier} for ${e.fateSpent} Fate` : '';
      const how = e.answered ? `answered "${e.option}"` : `unanswered, so "${e.option}" was taken`;
      const result = e.outcome === 'fail' ? 'failed' : e.outcome === 'great' ? 'a great success' : 'a success';
      return `${n(e.nation)}: the roll for "${e.title}" (${how}): ${dieWords(e.roll, names)}${fate} = ${e.total} against ${ladderValue(names.campaign, e.beat)} to beat — ${result}.`;
    }
    case 'explore_roll': {
      const fate = e.fateSpent ? ` + ${e.modifier} for ${e.fateSpent} Fate` : '';
      const result = e.total <= e.beat ? 'nothing found' : e.found ? 'a find' : 'a good search, but nothing is hidden there';
      return `${u(e.unit)} explored around ${e.at}: ${dieWords(e.roll, names)}${fate} = ${e.total} against ${ladderValue(names.campaign, e.beat)} to beat — ${result}.`;
    }
    case 'task_set':
      return `${n(e.nation)}: a task — ${e.text.replace(/[.!]+$/, "")} (deadline: turn ${e.deadline}).`;
    case 'task_met':
      return `${n(e.nation)}: the task of "${e.title}" is met (${e.how}).`;
    case 'task_missed':
      return `${n(e.nation)}: the task of "${e.title}" is missed: ${e.why}.`;
    case 'action_taken': {
      if (e.void) return `${u(e.unit)} did not take the action ${e.name}: ${e.void}.`;
      if (!e.roll) return `${u(e.unit)}: ${e.name} — ${e.target}.`;
      const mods = e.modifiers.map((m) => ` ${signed(m.value)} ${m.source}`).join('');
      const fate = e.fateSpent ? ` + Fate (${e.fateSpent} spent)` : '';
      const result = e.outcome === 'fail' ? 'failed' : e.outcome === 'great' ? 'a great success' : 'a success';
      return `${u(e.unit)}: ${e.name} — ${e.target}: ${e.roll.die} ${e.roll.value}${forcedMark(e.roll, names)}${mods}${fate} = ${e.total} against ${e.beat} to beat — ${result}.`;
    }
    case 'secret_learned':
      return `Your agents learned: ${e.text}`;
    case 'action_noticed': {
      const who = e.by ? ` by agents of ${n(e.by)}` : '';
      return e.outcome === 'fail' ? `${e.name} against ${e.place} was foiled${who}.` : `${e.name} at ${e.place}${e.by ? `, by agents of ${n(e.by)}` : ', by agents unknown'}.`;
    }
    case 'work_delayed':
      return `The ${e.what} was set back ${plural(e.by, 'turn')} (${e.reason}); ${plural(e.turnsLeft, 'turn')} left.`;
    case 'catch_roll': {
      const fate = e.total !== undefined ? `, +${e.total - e.roll.value} for ${e.fateSpent ? `${e.fateSpent} Fate` : 'the Fate spent on the hunt'} = ${e.total}` : '';
      return `${names.readsAs(e.nation) ? 'Your guards' : `The guards of ${n(e.nation)}`} tried to catch ${e.unit ? u(e.unit) : 'the culprit'} after the ${e.action} at ${e.place}: d6 ${e.roll.value}${forcedMark(e.roll, names)}${fate} against ${e.beat} to beat — ${e.caught ? 'caught' : 'it got away'}.`;
    }
    case 'catch_waived':
      return `${names.readsAs(e.nation) ? 'Your guards' : `The guards of ${n(e.nation)}`} let ${e.unit ? u(e.unit) : 'the culprit'} go after the ${e.action} at ${e.place}, as ordered.`;
    case 'trade_route_opened':
      return `A trade route opened between ${names.settlement(e.from)} and ${names.settlement(e.to)}: ${e.income} Renown a turn to each nation while it is open.`;
    case 'trade_route_cut':
      return `The trade route between ${names.settlement(e.from)} and ${names.settlement(e.to)} was cut: ${e.reason}.`;
    case 'civil_war': {
      const what = [e.settlements.map((x) => names.settlement(x)).join(', '), e.units.length ? `${e.units.length} unit${e.units.length === 1 ? '' : 's'}` : ''].filter(Boolean).join(' and ');
      return names.readsAs(e.into)
        ? `Civil war (${e.event}): ${e.leader} raises the banner of ${n(e.into)} against ${n(e.from)}; ${what} are yours.`
        : `Civil war (${e.event}): ${n(e.into)}, under ${e.leader}, broke away from ${n(e.from)}, taking ${what}.`;
    }
    case 'settlement_revolted':
      return `${names.settlement(e.settlement)} rose against ${n(e.from)} and is now held by ${n(e.to)}${e.garrison.length ? ` (garrison: ${e.garrison.map(u).join(', ')})` : ''}.`;
    case 'aspect_created':
      return e.refreshed
        ? `The aspect "${e.aspect}" on ${e.place} now has ${plural(e.free, 'free invoke')}.`
        : `${e.boost ? 'A boost' : 'A new aspect'}, "${e.aspect}", on ${e.place}${e.boost ? '' : ` with ${plural(e.free, 'free invoke')}`}${e.owner ? ` (${n(e.owner)}'s)` : e.backfired ? ` (anyone's but ${n(e.backfired)}'s: a failed attempt backfired)` : ''}${e.secret ? ', secret' : ''}.`;
    case 'aspect_removed':
      return `The aspect "${e.aspect}" on ${e.place} is gone: ${e.reason}.`;
    case 'aspect_roll': {
      const what = e.action === 'create_advantage' ? `to create the advantage "${e.aspect}"` : `to overcome "${e.aspect}"`;
      const faces = e.faces.map((f) => (f > 0 ? '+' : f < 0 ? '−' : '0')).join('');
      // Under the Deck of Fate the four dice are one card (docs/rules.md A2): it has no faces to show.
      const drawn = e.faces.length === 0 && e.dice.length === 1 ? fateResultText(e.dice[0]!) : null;
      const result = { fail: 'failed', tie: 'a tie', success: 'a success', style: 'a success with style' }[e.outcome];
      return `${e.by} tried ${what}: ${drawn ? `${drawn},` : `4dF [${faces}]`} + ${e.skill} = ${e.total} against ${e.difficulty} — ${result}.`;
    }
    case 'aspect_invoked': {
      const effect = e.effect === 'plus2' ? '+2' : e.effect === 'reroll' ? 'a re-roll' : `fortune +${e.value}`;
      const paid = e.pay === 'fate' ? `${e.cost} Fate${e.paidTo ? `, paid to ${n(e.paidTo)}` : ''}` : e.pay === 'boost' ? 'the boost used up' : `a free invoke, ${e.freeLeft} left`;
      return `${n(e.nation)} invoked "${e.aspect}" on ${e.roll}: ${effect} (${paid}).`;
    }
    case 'aspect_action_void':
      return `${n(e.nation)}: ${e.action === 'overcome' ? `the overcome roll against "${e.aspect}"` : `the create-advantage roll for "${e.aspect}"`} was not made: ${e.reason}.`;
    case 'invoke_unused':
      return `${n(e.nation)}: "${e.aspect}" was not invoked on ${e.roll}: ${e.reason}; nothing was spent.`;
    case 'aspect_luck':
      return `${n(e.nation)} drew ${e.kind} from ${e.aspects.map((a) => `"${a}"`).join(', ')} on ${e.roll}: ${e.value >= 0 ? '+' : ''}${e.value} (${e.draws.map(luckText).join('; ')}).`;
    case 'warfare_fate': {
      const kept = e.pledged - e.spent;
      const spent = e.spent ? `spent ${e.spent} of the ${e.pledged} Fate pledged (${plural(e.invokes, 'invoke')}, a fate point each)` : `spent none of the ${e.pledged} Fate pledged`;
      const short = e.pool < e.pledged ? ` — only ${e.pool} could be spent, all ${n(e.nation)} had` : '';
      return `${n(e.nation)}'s commanders ${spent} on the Warfare battle at ${e.at}${short}; ${kept > 0 ? `the other ${kept} stay${kept === 1 ? 's' : ''} in the treasury` : 'none is left over'}.`;
    }
    case 'compel_offered':
      return `${e.by === 'gm' ? 'The GM compels' : 'Events compel'} ${n(e.nation)}'s aspect "${e.aspect}": ${e.text} (answer "${e.id}" next turn: accept for a fate point, or refuse for ${e.cost}).`;
    case 'compel_void':
      return `A compel "${e.id}" of "${e.aspect}" for ${n(e.nation)} was not made: ${e.reason}.`;
    case 'compel_answered':
      return e.accepted
        ? `${n(e.nation)} ${e.answered ? 'accepted' : 'did not answer, and so accepted,'} the compel of "${e.aspect}" (${e.text}): a fate point${e.reason ? `; ${e.reason}` : ''}.`
        : `${n(e.nation)} refused the compel of "${e.aspect}" (${e.text}), paying a fate point.`;
    case 'order_not_applied':
      return `${n(e.nation)}: ${e.what} did not apply: ${e.reason}.`;
  }
  // An event type added to the engine after this was written: show it plainly.
  return `${(e as { type: string }).type} event.`;
}
