import type { OpenCampaign } from '../campaign/store.js';
import type { TickContext, TickHooks } from './hooks.js';
import type { Runtime } from './runtime.js';
import type { Schedule } from './settings.js';

/**
 * What the steps of one tick share (tick.ts runs them; tick-seats.ts and
 * tick-owed.ts are steps): the campaign as this tick opened it, runtime.yaml
 * as it stands, which every step changes in place and saves.
 */
export interface TickSession {
  readonly dir: string;
  readonly open: OpenCampaign;
  readonly schedule: Schedule;
  readonly runtime: Runtime;
  readonly hooks: TickHooks;
  /** The time of this tick (the clock read once, at its start). */
  readonly now: Date;
  /** A line for the tick's output. */
  readonly say: (line: string) => void;
  /** Writes runtime.yaml as it stands. */
  readonly save: () => Promise<void>;
  /** A time as the schedule's time zone writes it. */
  readonly local: (d: Date | string) => string;
  /** What the hooks are given. */
  context(): TickContext;
}
