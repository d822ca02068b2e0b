import { ladderText } from '../ladder.js';
import type { RuleSettings } from '../settings.js';

/** A ladder value as the campaign writes it: "Good (+3)", or a bare "3" with `rules.fate.ladderWords` off (docs/rules.md F7). */
export function ladderValue(rules: RuleSettings, n: number): string {
  return rules.fate.ladderWords ? ladderText(n) : String(n);
}

/** What a roll of the rules is thrown with, for a sentence: "a d6", "four Fate dice on 3", "a card of your Deck of Fate on 3" (F8). */
export function rollName(rules: RuleSettings, die: 'd6' | 'd3' = 'd6'): string {
  const { randomiser, base } = rules.fate;
  if (randomiser === 'fateDice') return `four Fate dice on ${base[die]}`;
  if (randomiser === 'deck') return `a card of your Deck of Fate on ${base[die]}`;
  return `a ${die}`;
}
