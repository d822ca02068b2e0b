import type { NationState } from '../state.js';

/** A nation's lists of things waiting for a later turn: events to follow, rolls to answer, compels to answer. */
type WaitingList = 'followUps' | 'rolls' | 'compels';

/**
 * Takes from one of a nation's waiting lists the entries due by `turn`, in the order they were added,
 * and leaves only the later ones in the state (no empty list, so the state's YAML stays as it was).
 */
export function takeDue<K extends WaitingList>(n: NationState, list: K, turn: number): NonNullable<NationState[K]> {
  const all = (n[list] ?? []) as NonNullable<NationState[K]>;
  const due = all.filter((x) => x.turn <= turn) as NonNullable<NationState[K]>;
  if (!due.length) return due;
  const later = all.filter((x) => x.turn > turn) as NonNullable<NationState[K]>;
  if (later.length) n[list] = later;
  else delete n[list];
  return due;
}
