import type { Notice, NoticeKind, Runtime } from './runtime.js';

/**
 * Notices wait in runtime.yaml for the next tick, and a later event can make one untrue before it goes
 * out: "turn 4 is open again" once turn 4 has resolved, a moved deadline moved again, "paused" after the
 * game resumed. Such a notice is dropped, never sent. Notices about players (a new player's token, a
 * nation dropped) stay true and always go.
 */
const ABOUT_THE_PENDING_TURN: ReadonlySet<NoticeKind> = new Set(['deadline-changed', 'paused', 'resumed', 'rolled-back']);

/** The later notices (of the same turn) that make one of this kind untrue. */
const OVERTAKEN_BY: Partial<Record<NoticeKind, ReadonlySet<NoticeKind>>> = {
  // Each of these states the deadline anew (or that there is none for now).
  'deadline-changed': new Set(['deadline-changed', 'paused', 'resumed', 'rolled-back']),
  paused: new Set(['resumed']),
  resumed: new Set(['paused']),
  'rolled-back': new Set(['rolled-back']),
};

/** Why the notice is no longer true, or undefined when it may be sent. */
export function staleReason(notice: Notice, runtime: Readonly<Runtime>): string | undefined {
  if (!ABOUT_THE_PENDING_TURN.has(notice.kind)) return undefined;
  if (notice.turn !== runtime.turn) {
    return notice.turn < runtime.turn ? `turn ${notice.turn} has been resolved since` : `the campaign went back to turn ${runtime.turn} since`;
  }
  const overtaking = OVERTAKEN_BY[notice.kind];
  const later = runtime.notices.find((n) => n.id > notice.id && n.turn === notice.turn && overtaking?.has(n.kind));
  return later ? `notice ${later.id} (${later.kind}) came after it` : undefined;
}
