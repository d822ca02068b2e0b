import { join } from 'node:path';
import { openCampaign } from '../campaign/store.js';
import { turnVersion } from '../campaign/turn-version.js';
import { runTurn, type RunTurnOptions, type RunTurnResult } from '../jobs/run-turn.js';
import type { Clock } from './clock.js';
import { followingDeadline, localTime } from './deadline.js';
import { bookResolvedTurn, gmLogFor, readRuntime, writeRuntime } from './runtime.js';
import { scheduleOf } from './settings.js';
import { deadlineClock, deadlinesByNation } from './player-time.js';

export interface HandTurnResult extends RunTurnResult {
  /** The next turn's deadline as the reports print it, when the schedule knows it (runtime.yaml). */
  nextDeadline?: string;
}

/**
 * `fatecraft turn` on a campaign the schedule runs (it has a runtime.yaml at the turn being resolved):
 * the turn is resolved as a tick would resolve it — the next deadline chosen first and written down (so a
 * run killed half way is finished by the next tick with the same deadline), printed in the reports, and
 * the turn booked in runtime.yaml. Without runtime.yaml (the schedule has not started) the turn is just
 * resolved, and its reports say the GM will announce the deadline. The caller holds the campaign lock.
 */
export async function resolveTurnByHand(dir: string, opts: RunTurnOptions & { clock: Clock }): Promise<HandTurnResult> {
  const runtime = await readRuntime(dir);
  const turn = opts.expectTurn;
  if (runtime === undefined || turn === undefined || runtime.turn !== turn || runtime.operation !== undefined) return runTurn(dir, opts);
  const open = await openCampaign(dir);
  const schedule = scheduleOf(open.file, join(dir, 'campaign.yaml'));
  const now = opts.clock.now();
  const decided = runtime.resolving?.turn === turn ? runtime.resolving : undefined;
  const next = decided ? new Date(decided.nextDeadline) : followingDeadline(schedule, new Date(runtime.deadline), now);
  if (!decided) {
    runtime.resolving = { turn, startedAt: now.toISOString(), nextDeadline: next.toISOString() };
    await writeRuntime(dir, runtime);
  }
  const nextDeadline = localTime(next, schedule.timeZone);
  const nextDeadlineByNation = deadlinesByNation(deadlineClock(next, schedule.timeZone, open.file, runtime));
  let result: RunTurnResult;
  try {
    result = await runTurn(dir, { ...opts, nextDeadline, nextDeadlineByNation, gmLog: gmLogFor(runtime, turn), dropped: Object.keys(runtime.dropped) });
  } catch (e) {
    // Refused (a broken _gm.yaml, a damaged turn folder): the decision is withdrawn, or the next tick would
    // carry it out before the deadline. Only a run killed outright leaves it, for the tick to finish.
    if (!decided) {
      delete runtime.resolving;
      await writeRuntime(dir, runtime);
    }
    throw e;
  }
  bookResolvedTurn(runtime, turn, next, now, `${nextDeadline} (resolved by hand: fatecraft turn)`, await turnVersion(dir, turn));
  await writeRuntime(dir, runtime);
  return { ...result, nextDeadline };
}
