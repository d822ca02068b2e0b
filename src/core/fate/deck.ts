/**
 * The Deck of Fate as the engine holds it (seed 000 lines 15–18, 23–28).
 *
 * The seed says a card's result runs -4..+4, "the same range as fate dice",
 * and that cards carry suns, moons and eclipses, but not how many of each card
 * there are. Our deck (docs/rules.md F4):
 * - 81 cards, numbered 0..80: card n has the result of the n-th of the 81
 *   throws of four Fate dice, counted in base 3 (each die −, 0, + in turn, the
 *   first die slowest). So the results come 1, 4, 10, 16, 19, 16, 10, 4, 1
 *   times for -4..+4: one card drawn from a full deck is a 4dF roll.
 * - The symbols, 81 sets: 18 of one sun, 18 of one moon, 6 each of two suns,
 *   three suns, two suns and a moon, a sun and a moon, a sun and two moons,
 *   two moons, three moons, and 3 eclipses (the printed deck's counts). A
 *   draw for fortune then adds 84/81 on average, close to the seed's three
 *   helping dice (1). Card n carries symbol set (28·n mod 81) of that list,
 *   so no result is tied to its symbols.
 */
export interface Card {
  id: number;
  result: number;
  /** The four dice the card stands for, as "+", "0", "-". */
  faces: readonly FateFace[];
  suns: number;
  moons: number;
  eclipse: boolean;
}

export type FateFace = '+' | '0' | '-';

export const DECK_SIZE = 81;

const SYMBOLS: readonly { suns: number; moons: number; eclipse: boolean }[] = (() => {
  const out: { suns: number; moons: number; eclipse: boolean }[] = [];
  const add = (count: number, suns: number, moons: number, eclipse = false) => {
    for (let i = 0; i < count; i++) out.push({ suns, moons, eclipse });
  };
  add(18, 1, 0);
  add(6, 2, 0);
  add(6, 3, 0);
  add(6, 2, 1);
  add(6, 1, 1);
  add(6, 1, 2);
  add(6, 0, 3);
  add(6, 0, 2);
  add(18, 0, 1);
  // An eclipse is two suns and two moons unless drawn for fortune or misfortune (seed 000 line 28).
  add(3, 2, 2, true);
  return out;
})();

/** A Fate die's three faces, in the order a number 0..2 picks them. */
export const FATE_FACES: readonly FateFace[] = ['-', '0', '+'];
/** What a face adds to the sum: +1, 0 or −1. */
export const faceValue = (f: FateFace): number => (f === '+' ? 1 : f === '-' ? -1 : 0);

export const DECK: readonly Card[] = Array.from({ length: DECK_SIZE }, (_, id) => {
  const faces = [27, 9, 3, 1].map((p) => FATE_FACES[Math.floor(id / p) % 3]!);
  const result = faces.reduce((s, f) => s + faceValue(f), 0);
  return { id, result, faces, ...SYMBOLS[(28 * id) % DECK_SIZE]! };
});

const plural = (n: number, one: string, many: string) => (n === 1 ? `a ${one}` : `${n} ${many}`);

/** "2 suns and a moon", "an eclipse", "a sun". */
export function symbolsText(card: Card): string {
  if (card.eclipse) return 'an eclipse';
  const parts = [card.suns ? plural(card.suns, 'sun', 'suns') : '', card.moons ? plural(card.moons, 'moon', 'moons') : ''].filter(Boolean);
  return parts.join(' and ');
}
