import { createHmac } from 'node:crypto';
import type { LetterView } from './types.js';

/**
 * The order a reader reads its letters in (docs/rules.md P1). Not the order
 * they were sent in: the event log lists letters by sender, so an unsigned
 * letter would sit beside its sender's signed ones and give the sender away.
 * Each letter is placed by a keyed hash of what the reader sees of it (its
 * words, addressees, and the sender's name only where it is signed), keyed by
 * the campaign's seed, the turn and the reader: the order is fixed for a
 * reader (a rerun gives the same report) and depends on nothing the reader is
 * not shown — swap an unsigned letter's sender and every other reader's
 * report stays the same, byte for byte.
 */
export function readingOrder(letters: readonly LetterView[], key: { seed: string; turn: number; reader: string }): LetterView[] {
  const placed = letters.map((l) => {
    const shown = JSON.stringify([l.from, l.to, l.lines, l.sent, l.unsigned]);
    const place = createHmac('sha256', `${key.seed}\u0000${key.turn}\u0000${key.reader}`).update(shown).digest('hex');
    return { l, place: `${place}${shown}` };
  });
  return placed.sort((a, b) => (a.place < b.place ? -1 : a.place > b.place ? 1 : 0)).map((p) => p.l);
}
