import { DECK, symbolsText } from '../core/fate/deck.js';
import type { DieRoll, LuckDraw } from '../core/events.js';
import { ladderText } from '../core/ladder.js';

/**
 * A Fate draw in words, for the reports (docs/rules.md F8): "rolled + + 0 −
 * (+1) on 3", "drew Average (+1), a sun and a moon, on 3", "forced Great (+4)
 * on 3". The number after "on" is the base the result is added to (F2). A
 * plain die (d6, d3, coin, d100) has no words here: null, and the reports
 * print it as they always have.
 */
const FACE_TEXT = { '+': '+', '0': '0', '-': '−' } as const;

export function drawText(roll: DieRoll): string | null {
  const f = roll.fate;
  if (!f) return null;
  const on = ` on ${f.base}`;
  if (roll.forced || (f.faces === undefined && f.card === undefined)) return `forced ${ladderText(f.result)}${on}`;
  if (f.card !== undefined) {
    const card = DECK[f.card];
    return `drew ${ladderText(f.result)}${card ? `, ${symbolsText(card)},` : ''}${on}`;
  }
  return `rolled ${f.faces!.map((x) => FACE_TEXT[x]).join(' ')} (${ladderText(f.result)})${on}`;
}

/**
 * The Fate result itself, with no base to add it to: a create-advantage or
 * overcome roll under the Deck of Fate is one card, "drew Terrible (-2), a
 * sun and a moon" (or "forced Good (+3)"). Null when the roll is no draw.
 */
export function fateResultText(roll: DieRoll): string | null {
  const f = roll.fate;
  if (!f) return null;
  if (roll.forced || (f.faces === undefined && f.card === undefined)) return `forced ${ladderText(f.result)}`;
  if (f.card !== undefined) {
    const card = DECK[f.card];
    return `drew ${ladderText(f.result)}${card ? `, ${symbolsText(card)}` : ''}`;
  }
  return `rolled ${f.faces!.map((x) => FACE_TEXT[x]).join(' ')} (${ladderText(f.result)})`;
}

/** Fortune or misfortune in words: "fortune: drew 2 suns (+2)", "misfortune: an eclipse (-4)", "fortune: 5 1 6 (+2)". */
export function luckText(d: LuckDraw): string {
  const n = d.delta > 0 ? `+${d.delta}` : String(d.delta);
  if (d.forced) return `${d.kind}: forced (${n})`;
  if (d.card !== undefined) {
    const card = DECK[d.card];
    return `${d.kind}: drew ${d.eclipse ? 'an eclipse' : card ? symbolsText(card) : `card ${d.card}`} (${n})`;
  }
  if (d.faces) return `${d.kind}: rolled ${d.faces.map((x) => FACE_TEXT[x]).join(' ')} (${n})`;
  return `${d.kind}: ${(d.dice ?? []).join(' ')} (${n})`;
}
