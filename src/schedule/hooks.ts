import { mkdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { writeFileAtomic } from '../host/atomic-file.js';
import type { OpenCampaign } from '../campaign/store.js';
import { writeYaml } from '../campaign/yaml-io.js';
import type { NationId } from '../core/ids.js';
import type { Clock } from './clock.js';
import type { Alert, Notice, Offer, Runtime } from './runtime.js';
import type { Schedule } from './settings.js';
import type { PlayerPreference } from './preferences.js';
import type { SeatDesk } from './seats/desk.js';

/**
 * Where the schedule shell meets mail. `tick` decides *what* is due; a
 * TickHooks implementation decides *how* it reaches people. The mail loop
 * (src/mailroom/tick-hooks.ts) implements these, and the command line plugs it in
 * (src/cli/tick-hooks.ts): the schedule never imports the mailroom. Without a
 * mail loop the folder hooks below write each message as a YAML file.
 *
 * Contract for implementations:
 *  - Every call carries a stable `key`. A tick killed after a send but before
 *    it recorded the send calls again with the same key: send nothing twice
 *    (e.g. derive the Message-ID from the key and keep a sent log).
 *  - Throw to say "not done": tick records an alert for the GM (once) and
 *    calls again on the next tick. Return normally only when it is done.
 *  - Do not take the campaign lock (tick already holds it) and do not write
 *    runtime.yaml; use `ctx.declareAbsence` to record an absence, `ctx.recordPreference` a player's setting.
 */
export interface TickContext {
  dir: string;
  open: OpenCampaign;
  schedule: Schedule;
  clock: Clock;
  /** The time of this tick (the clock read once, at its start). */
  now: Date;
  /** The pending turn, collecting orders. */
  turn: number;
  /** The pending turn's deadline. */
  deadline: Date;
  /** A read-only view of runtime.yaml as it stands. */
  runtime: Readonly<Runtime>;
  /**
   * Orders for `turn` are taken from mail arriving at `receivedAt`: until the
   * deadline plus grace, and after it while the turn is still waiting (paused
   * or held by a guard). Orders for any other turn are refused.
   */
  acceptsOrders(turn: number, receivedAt: Date): boolean;
  /** A player says they are away: the nation gets no reminders and does not count for the NMR guard. */
  declareAbsence(nation: NationId, fromTurn: number, toTurn: number, note?: string): Promise<void>;
  /** A player's own setting, by mail: their time zone, or "wait for the deadline" (preferences.ts). */
  recordPreference(nation: NationId, pref: PlayerPreference, note?: string): Promise<void>;
  /** Seats by mail (volunteer, accept, back, ready), kept in runtime.yaml (src/seats/desk.ts). */
  seats?: SeatDesk;
  /** A line for the tick's output (stderr of `fatecraft tick`). */
  say(line: string): void;
}

export interface Reminder {
  key: string;
  turn: number;
  /** The reminder as configured, e.g. "48h". */
  label: string;
  deadline: Date;
}

export interface ReportDelivery {
  key: string;
  turn: number;
  /** 0 for the first resolution; k after the k-th `fatecraft rerun` of the turn. */
  rerun: number;
  /** The resolved turn's folder, with reports/ inside. */
  turnDir: string;
}

export interface FetchResult {
  /** Messages taken from the inbox this time (for the tick's output). */
  processed: number;
}

export interface MailStatus {
  configured: boolean;
  /** Messages waiting to go out. */
  queued: number;
  /** Messages that could not be sent, with why. */
  failures: { to: string; subject: string; error: string; at?: string }[];
  /** The sending server has not answered since then: the queue waits for it. */
  serverDown?: { since: string; error: string };
  /** Resolved turns whose reports are not in the outgoing queue yet, oldest first (rerun > 0: corrections). */
  reportsNotMailed?: { turn: number; rerun: number }[];
  /** Delivery failures reported back to the campaign (mail/bounces.yaml), oldest first. */
  bounces?: BouncedMail[];
}

export interface BouncedMail {
  /** The ledger key of the delivery report; with the address, it names the bounce for its alert. */
  key: string;
  at: string;
  address: string;
  nations: string[];
  action: string;
  diagnostic?: string;
}

export interface TickHooks {
  /** Reads new mail, files orders under orders/<turn>/, sends receipts. Runs first on every tick, paused or not. */
  fetchMail(ctx: TickContext): Promise<FetchResult | void>;
  /** Reminds these nations (none of which has orders on file) that the deadline is near. */
  sendReminders(ctx: TickContext, reminder: Reminder, nations: NationId[]): Promise<void>;
  /** Sends every nation its report of a resolved turn, and the GM theirs. */
  sendReports(ctx: TickContext, delivery: ReportDelivery): Promise<void>;
  /** Mails the GM an alert; called once per alert (again only if it threw). */
  sendGmAlert(ctx: TickContext, alert: Alert): Promise<void>;
  /** Tells players (notice.nations, or everyone) of a GM operation: a moved deadline, a new player... */
  sendNotice(ctx: TickContext, notice: Notice): Promise<void>;
  /** Mails a one-time invitation to take a seat (seats.autofill); its code comes from the secrets' seats key. */
  sendSeatOffer?(ctx: TickContext, offer: Offer): Promise<void>;
  /** For `fatecraft status`: the outgoing queue and failures. */
  mailStatus?(dir: string, open: OpenCampaign): Promise<MailStatus>;
  /**
   * The first tick of a campaign not yet started (no runtime.yaml, no turn resolved): what `fatecraft start`
   * does — turn 0 and its reports, the order tokens, each nation's welcome and the GM's report — with turn 1's
   * deadline from ctx. Hooks without it leave the start to `fatecraft start`.
   */
  startCampaign?(ctx: TickContext): Promise<void>;
}

export const TICK_OUTBOX = 'tick-outbox';

/**
 * The default without a mail loop: each message tick would send is written
 * as `<campaign>/tick-outbox/<key>.yaml`, for a GM who mails by hand (and for
 * the tests, which compare these folders). Writing the same key twice writes
 * the same file, so a repeated call sends nothing twice.
 */
export function folderHooks(outboxDir?: string): TickHooks {
  const write = async (ctx: TickContext, key: string, body: Record<string, unknown>) => {
    const dir = outboxDir ?? join(ctx.dir, TICK_OUTBOX);
    await mkdir(dir, { recursive: true });
    await writeFileAtomic(join(dir, `${key.replace(/[^a-z0-9_.-]+/gi, '_')}.yaml`), writeYaml({ key, ...body }), { fsync: true });
  };
  return {
    async fetchMail() {},
    async sendReminders(ctx, r, nations) {
      await write(ctx, r.key, { kind: 'reminder', turn: r.turn, before: r.label, deadline: r.deadline.toISOString(), nations });
    },
    async sendReports(ctx, d) {
      await write(ctx, d.key, { kind: 'reports', turn: d.turn, rerun: d.rerun, reports: relative(ctx.dir, join(d.turnDir, 'reports')) });
    },
    async sendGmAlert(ctx, a) {
      await write(ctx, `alert-${a.id}`, { kind: 'gm-alert', alert: a.kind, turn: a.turn ?? null, raisedAt: a.raisedAt, message: a.message });
    },
    async sendNotice(ctx, n) {
      await write(ctx, `notice-${n.id}`, { kind: 'notice', notice: n.kind, turn: n.turn, nations: n.nations, text: n.text });
    },
    mailStatus() {
      return Promise.resolve({ configured: false, queued: 0, failures: [] });
    },
  };
}
