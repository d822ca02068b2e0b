import type { LoggedEvent } from '../core/events.js';
import type { TurnOrders } from '../core/orders.js';
import type { GameState } from '../core/state.js';
import type { FileSink } from './staging.js';
import type { OpenCampaign } from './store.js';

/*
 * The contract between a turn being written (src/jobs/run-turn.ts) and what renders files into it
 * (the reports, src/report/renderer.ts). It sits here, below both, so neither imports the other.
 */

/** What a renderer is given: the turn as resolved. */
export interface TurnRenderInput {
  open: OpenCampaign;
  before: GameState;
  state: GameState;
  events: LoggedEvent[];
  turn: number;
  /** The orders the turn was resolved with, as read (so renderers need not read them again). */
  orders?: TurnOrders;
  /** The deadline for the next turn's orders, as players should read it, when a schedule set one. */
  nextDeadline?: string;
  /** The same as players on another clock read it, by nation (src/schedule/player-time.ts). */
  nextDeadlineByNation?: Readonly<Record<string, string>>;
  /** The GM's operations outside the rules that this turn's reports list (with `reports.gmLog`), one line each. */
  gmLog?: readonly string[];
}

/**
 * Writes extra files for a resolved turn (reports) into the turn folder while
 * it is being written, so they land with the turn or not at all; plugged in by
 * the report shell. `alongside` writes the turn's own files (state, events):
 * a renderer with worker threads runs it on this thread once they have work,
 * and if no renderer does, the turn writes them after. `check`, when given,
 * runs before the turn is resolved: a campaign setting or template it cannot
 * use is refused before any work.
 */
export interface TurnRenderer {
  (input: TurnRenderInput, sink: FileSink, alongside?: () => Promise<void>): Promise<void>;
  check?(open: OpenCampaign): void;
  /**
   * Work on older turns (packing their reports), started before this turn is
   * resolved so it runs beside it; put in place once the turn is written,
   * dropped if the turn fails.
   */
  olderTurns?(open: OpenCampaign, turn: number): Promise<OlderTurnsWork>;
  /**
   * Starts what the rendering will need (report worker threads getting ready, when the world `before` the
   * turn is big enough for them to pay), so it runs beside the resolution; the render call that follows
   * takes it. `dismiss` stops whatever was not taken: called once the turn is written, or failed.
   */
  warm?(open: OpenCampaign, before: GameState): WarmStart;
}

export interface WarmStart {
  dismiss(): void;
}

export interface OlderTurnsWork {
  commit(): Promise<void>;
  abandon(): Promise<void>;
}
