import { logOp, type Runtime } from './runtime.js';

/**
 * What a player can set by mail about their own game, kept in runtime.yaml beside their absences: the
 * time zone their deadlines are shown in, and "wait" — the pending turn waits for its deadline rather than
 * resolving early once every nation has sent orders.
 */
export type PlayerPreference =
  /** zone undefined: back to campaign.yaml's (or none). */
  | { kind: 'time-zone'; zone?: string }
  | { kind: 'wait'; turn: number; wait: boolean };

/** Writes a preference into the runtime (the caller saves it) with a line in the GM's log. */
export function applyPreference(runtime: Runtime, at: Date, nation: string, pref: PlayerPreference, note?: string): void {
  const how = note ? ` (${note})` : '';
  if (pref.kind === 'time-zone') {
    if (pref.zone === undefined) delete runtime.timeZones[nation];
    else runtime.timeZones[nation] = pref.zone;
    logOp(runtime, at, 'time-zone', `${nation}'s time zone ${pref.zone === undefined ? 'cleared' : `set to ${pref.zone}`}${how}`);
    return;
  }
  runtime.waits = runtime.waits.filter((w) => !(w.nation === nation && w.turn === pref.turn));
  if (pref.wait) runtime.waits.push({ nation, turn: pref.turn, at: at.toISOString() });
  logOp(runtime, at, 'wait', `${nation} ${pref.wait ? 'asked turn ' + pref.turn + ' to wait for its deadline' : `no longer asks turn ${pref.turn} to wait`}${how}`, pref.turn);
}
