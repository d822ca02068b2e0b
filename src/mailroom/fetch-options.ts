import type { DNSResolver } from 'mailauth';
import type { NationId } from '../core/ids.js';
import type { DeadlineClock } from '../schedule/player-time.js';
import type { PlayerPreference } from '../schedule/preferences.js';
import type { SeatDesk } from '../schedule/seats/desk.js';
import type { MailroomOptions } from './room.js';

/** What `fatecraft mail fetch` is given beside the campaign: the schedule's hooks when the tick runs it, a test's DNS. */
export interface FetchOptions extends MailroomOptions {
  /** Whether orders for `turn` arriving at `receivedAt` still count (the schedule's deadline and grace). Default: always. */
  acceptsOrders?: (turn: number, receivedAt: Date) => boolean;
  /** The pending turn's deadline as players should read it, for the "deadline" command. */
  deadline?: string;
  /** Send the queued answers at the end (default true). */
  send?: boolean;
  /** SHA-256 digests of each nation's replaced tokens (runtime.yaml retiredTokens). */
  retiredTokens?: Readonly<Record<string, readonly string[]>>;
  /** Records a player's absence in the schedule (the tick passes its own); without it the GM is told. */
  declareAbsence?: (nation: NationId, fromTurn: number, toTurn: number, note?: string) => Promise<void>;
  /** The pending turn's deadline and the players' own time zones: deadlines in answers are shown on both clocks. */
  deadlineClock?: DeadlineClock;
  /** Records a player's setting by mail (time zone, "wait") where the schedule keeps it; without it the GM is told. */
  recordPreference?: (nation: NationId, pref: PlayerPreference, note?: string) => Promise<void>;
  /** DNS for our own DKIM/SPF/DMARC checks (mail.verifyAuthentication); tests give a fixed one. */
  resolver?: DNSResolver;
  /**
   * Messages handled as one batch (default fetch.ts DEFAULT_BATCH): their files flushed together, then each
   * recorded done, their answers handed to the server and the batch moved out of the inbox together.
   */
  batch?: number;
  /** Seats by mail (volunteer, accept, back, ready) on runtime.yaml (the tick passes its own); without it the GM is told. */
  seats?: SeatDesk;
}
