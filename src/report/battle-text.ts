import { plural } from '../core/prose.js';
import type { BattleSide, DieRoll, LoggedEvent, Modifier } from '../core/events.js';
import type { NationId } from '../core/ids.js';
import { drawText } from './draw-text.js';
import { ladderValue, signed } from './ladder.js';
import type { Namer } from './namer.js';
import type { BattleSideView, BattleView, ModifierView, RollView, SiegeRollView, WarfareView } from './types.js';

/**
 * Battles in a report: every die and modifier of a battle, a siege roll, a
 * Warfare battle's account, as a reader may see them; and the small pieces of
 * dice text the event sentences (describe.ts) share with them.
 */

/**
 * "d6 4" for a plain die — "d6 4 (forced)" on the GM's page, when the GM set it: a player reads the
 * roll, not how it came — and a Fate draw in words with the value it gives ("rolled + 0 0 − (Mediocre (+0)) on 3: 3").
 */
export function dieWords(roll: DieRoll, names: Namer): string {
  const draw = drawText(roll);
  if (draw) return `${draw}: ${roll.value}`;
  return `${roll.die} ${roll.value}${forcedMark(roll, names)}`;
}

/** " (forced)" on the GM's page for a die the GM set; nothing in a nation's report. */
export const forcedMark = (roll: DieRoll, names: Namer) => (roll.forced && names.readsAll() ? ' (forced)' : '');

/** The text with a capital first letter; most labels have one already, and come back as themselves. */
export const cap = (s: string) => {
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

type WarfareEvent = Extract<LoggedEvent, { type: 'warfare' }>;

export function warfareHeadline(e: WarfareEvent, names: Namer): string {
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
