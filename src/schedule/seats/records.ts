import type { Runtime, Tenure } from '../runtime.js';

/**
 * Who held each seat for which turns, and how reliably (runtime.yaml `seats:`).
 * A takeover starts a new tenure and never rewrites the old one, so a
 * predecessor's misses never follow the seat to its next player; reliability
 * belongs to a tenure: turns answered on time against turns owed, turns the
 * player was excused (said they were away, or the nation was out of play)
 * left out of both.
 */
export type TurnOutcome = 'onTime' | 'missed' | 'excused';

/** The tenure in force for a nation, if any. */
export function currentTenure(runtime: Runtime, nation: string): Tenure | undefined {
  const list = runtime.seats?.[nation];
  const last = list?.at(-1);
  return last && last.toTurn === undefined ? last : undefined;
}

/** Starts a tenure (ending the one in force the turn before) unless the same player already holds the seat. */
export function startTenure(runtime: Runtime, nation: string, player: readonly string[], fromTurn: number, name?: string): Tenure {
  const current = currentTenure(runtime, nation);
  const same = current && sameAddresses(current.player, player);
  if (current && same) return current;
  if (current) current.toTurn = Math.max(current.fromTurn, fromTurn - 1);
  const tenure: Tenure = { player: [...player], ...(name ? { name } : {}), fromTurn, onTime: 0, missed: 0, excused: 0 };
  (runtime.seats ??= {})[nation] = [...(runtime.seats[nation] ?? []), tenure];
  return tenure;
}

export const sameAddresses = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.map((y) => y.toLowerCase()).includes(x.toLowerCase()));

/**
 * Counts a resolved turn for a nation's tenure (started now, from this turn, if it has none): once, however
 * often the turn is booked.
 */
export function countTurn(runtime: Runtime, nation: string, player: readonly string[], turn: number, outcome: TurnOutcome): void {
  const tenure = currentTenure(runtime, nation) ?? startTenure(runtime, nation, player, turn);
  if (tenure.counted !== undefined && tenure.counted >= turn) return;
  if (turn < tenure.fromTurn) return;
  tenure[outcome] += 1;
  tenure.counted = turn;
}

export interface Reliability {
  onTime: number;
  missed: number;
  excused: number;
  /** Percent of the turns owed that were answered on time; undefined before any was owed. */
  percent?: number;
}

export function reliabilityOf(t: Pick<Tenure, 'onTime' | 'missed' | 'excused'>): Reliability {
  const owed = t.onTime + t.missed;
  return { onTime: t.onTime, missed: t.missed, excused: t.excused, ...(owed > 0 ? { percent: Math.round((100 * t.onTime) / owed) } : {}) };
}

/** "9 of 10 turns on time (90%), 1 missed, 2 excused", or "no turn owed yet". */
export function reliabilityText(t: Pick<Tenure, 'onTime' | 'missed' | 'excused'>): string {
  const r = reliabilityOf(t);
  if (r.percent === undefined) return r.excused ? `no turn owed yet, ${r.excused} excused` : 'no turn owed yet';
  return `${r.onTime} of ${r.onTime + r.missed} turns on time (${r.percent}%)${r.excused ? `, ${r.excused} excused` : ''}`;
}

/** A tenure in words: who, from when to when, how reliably. */
export function tenureText(t: Tenure): string {
  const who = t.player.length ? `${t.name ? `${t.name} <${t.player.join(', ')}>` : t.player.join(', ')}` : 'no player';
  const when = t.toTurn === undefined ? `since turn ${t.fromTurn}` : t.toTurn === t.fromTurn ? `turn ${t.fromTurn}` : `turns ${t.fromTurn}–${t.toTurn}`;
  return `${who}, ${when}: ${reliabilityText(t)}`;
}
