import type { Clock } from './clock.js';
import { withCampaignLock } from './lock.js';
import { applyPreference } from './preferences.js';
import { readRuntime, writeRuntime } from './runtime.js';

/**
 * A player's own setting from outside a tick (the web desk): under the campaign lock, as a tick records one
 * from a mail, kept in runtime.yaml with a line in the GM's log. Undefined when the schedule has not started
 * (no runtime.yaml): there is nowhere to keep it, so the caller says so.
 */
export type PreferenceRequest = { kind: 'time-zone'; zone?: string } | { kind: 'wait'; wait: boolean };

export async function setPlayerPreference(dir: string, nation: string, request: PreferenceRequest, opts: { clock: Clock; note?: string; lockWaitMs?: number }): Promise<{ turn: number } | undefined> {
  return withCampaignLock(dir, { clock: opts.clock, what: `setting of ${nation}`, ...(opts.lockWaitMs ? { waitMs: opts.lockWaitMs } : {}) }, async () => {
    const runtime = await readRuntime(dir);
    if (runtime === undefined) return undefined;
    const pref = request.kind === 'wait' ? { kind: 'wait' as const, turn: runtime.turn, wait: request.wait } : request;
    applyPreference(runtime, opts.clock.now(), nation, pref, opts.note);
    await writeRuntime(dir, runtime);
    return { turn: runtime.turn };
  });
}
