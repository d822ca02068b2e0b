import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../host/atomic-file.js';
import { z } from 'zod';
import { isoTimeSchema } from '../campaign/iso-time-schema.js';
import { CampaignError, validate } from '../campaign/problems.js';
import { GM_LIMITS, readBulkYaml, writeYaml } from '../campaign/yaml-io.js';

/**
 * campaigns/<name>/runtime.yaml: what the schedule shell knows that the turn
 * folders do not — the pending turn's deadline, reminders sent, guards holding
 * the turn, alerts for the GM, notices for the players, and a log of every GM
 * operation. Machine-written, rewritten whole and atomically after each step
 * of a tick, so a tick killed at any point leaves the last finished step.
 * A GM may read it; editing it by hand is possible but the commands are safer.
 */
export const RUNTIME_FILE = 'runtime.yaml';

const iso = isoTimeSchema;
const nation = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/);
const turn = z.number().int().min(0);

export const HOLD_KINDS = ['nmr', 'long-gap', 'seat'] as const;
export type HoldKind = (typeof HOLD_KINDS)[number];

const holdSchema = z.strictObject({
  turn,
  kind: z.enum(HOLD_KINDS),
  since: iso,
  detail: z.string(),
  /** Set by `fatecraft resume`: the GM says resolve anyway. */
  confirmed: iso.optional(),
});

export const ALERT_KINDS = ['nmr-guard', 'long-gap', 'mail-failure', 'tick-failed', 'recovered', 'bounce', 'seat-pause', 'seats'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The alert a hold of each kind raises (one per turn and deadline), which `resume` closes. */
export const HOLD_ALERTS: Record<HoldKind, AlertKind> = { nmr: 'nmr-guard', 'long-gap': 'long-gap', seat: 'seat-pause' };

const alertSchema = z.strictObject({
  id: z.number().int().min(1),
  /** One alert per key, ever: the same problem seen on every tick is raised (and mailed) once. */
  key: z.string(),
  kind: z.enum(ALERT_KINDS),
  turn: turn.optional(),
  raisedAt: iso,
  message: z.string(),
  mailed: z.boolean(),
  /** Open until the turn it concerns resolves or the GM runs `fatecraft resume`. */
  open: z.boolean(),
});

export const NOTICE_KINDS = ['deadline-changed', 'paused', 'resumed', 'rolled-back', 'nation-added', 'nation-dropped', 'nation-reassigned', 'nation-split', 'seat-warning', 'token-renewed'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

const noticeSchema = z.strictObject({
  id: z.number().int().min(1),
  kind: z.enum(NOTICE_KINDS),
  turn,
  at: iso,
  /** The nations it concerns; empty: everyone. */
  nations: z.array(nation).default([]),
  text: z.string(),
  sent: z.boolean(),
  /** Not sent because a later event made it untrue (stale-notices.ts): why. */
  dropped: z.string().optional(),
});

const absenceSchema = z.strictObject({
  nation,
  fromTurn: turn,
  toTurn: turn,
  declaredAt: iso,
  note: z.string().optional(),
});

const logSchema = z.strictObject({
  at: iso,
  op: z.string(),
  turn: turn.optional(),
  detail: z.string(),
  /** Why, as the GM gave it (`--reason`). */
  reason: z.string().optional(),
  /** An operation that changed the game outside the rules, as the players read it in the GM's log of that turn's reports. */
  players: z.strictObject({ turn, text: z.string() }).optional(),
});

const tenureSchema = z.strictObject({
  /** The player's address(es) while they held the seat; empty: the seat had no player (the GM's, or a caretaker's). */
  player: z.array(z.string()).default([]),
  /** The name a volunteer gave. */
  name: z.string().optional(),
  fromTurn: turn,
  /** The last turn of the tenure; absent while it lasts. */
  toTurn: turn.optional(),
  /** Turns with the player's own orders by the deadline, turns without, and turns excused (away, or not in play). */
  onTime: z.number().int().min(0).default(0),
  missed: z.number().int().min(0).default(0),
  excused: z.number().int().min(0).default(0),
  /** The last turn counted: booking a turn again counts nothing twice. */
  counted: turn.optional(),
});

const offerSchema = z.strictObject({
  id: z.number().int().min(1),
  nation,
  address: z.string(),
  name: z.string().optional(),
  at: iso,
  turn,
  status: z.enum(['open', 'accepted', 'withdrawn']),
  /** The accepting message's ledger key, once it took the seat. */
  acceptedBy: z.string().optional(),
  acceptedAt: iso.optional(),
  /**
   * Written by the versions that took a seat step by step (before `accept` was a whole operation,
   * src/schedule/whole-operation.ts): read so their runtime.yaml still loads, never written.
   */
  previousToken: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  newToken: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  done: z.boolean().optional(),
  /** The invitation is in the outgoing queue (until then the next tick queues it). */
  mailed: z.boolean().optional(),
});

export const runtimeSchema = z.strictObject({
  version: z.literal(1),
  /** The pending turn: the one collecting orders. */
  turn: z.number().int().min(1),
  deadline: iso,
  paused: z.strictObject({ since: iso, reason: z.string().optional() }).optional(),
  lastTick: iso.optional(),
  /** Reminders done for a turn (sent, or skipped because a later one was due), by turn. */
  reminders: z.record(z.string().regex(/^\d+$/), z.array(z.string())).default({}),
  holds: z.array(holdSchema).default([]),
  /** Written just before a turn resolves: a tick killed mid-resolution finishes exactly this. */
  resolving: z.strictObject({ turn: z.number().int().min(1), startedAt: iso, nextDeadline: iso }).optional(),
  /** Resolved turns whose reports still have to go out; rerun > 0 after `fatecraft rerun`. */
  reportsDue: z.array(z.strictObject({ turn: z.number().int().min(1), rerun: z.number().int().min(0) })).default([]),
  alerts: z.array(alertSchema).default([]),
  notices: z.array(noticeSchema).default([]),
  absences: z.array(absenceSchema).default([]),
  dropped: z.record(nation, z.strictObject({ mode: z.enum(['hold', 'neutral']), turn, at: iso })).default({}),
  /** Each player's own time zone, as they set it by mail ("timezone Europe/Berlin"); over campaign.yaml's. */
  timeZones: z.record(nation, z.string()).default({}),
  /** Nations whose player asked the turn to wait for its deadline ("wait" by mail): no early resolution. */
  waits: z.array(z.strictObject({ nation, turn, at: iso })).default([]),
  /** SHA-256 of each nation's replaced order tokens (src/campaign/secrets.ts tokenStatus): refused as "replaced". */
  retiredTokens: z.record(nation, z.array(z.string().regex(/^[0-9a-f]{64}$/))).default({}),
  /** Who held each seat for which turns, and how reliably (src/seats/records.ts); written once there is one. */
  seats: z.record(nation, z.array(tenureSchema)).optional(),
  /** Players who offered to take over a seat ("volunteer" by mail), oldest first. */
  standby: z.array(z.strictObject({ address: z.string(), name: z.string(), at: iso })).optional(),
  /** One-time invitations to take a seat (`fatecraft nation offer`, or seats.autofill); the code is only in the mail. */
  offers: z.array(offerSchema).optional(),
  /** The turn whose seat work is done: tenures counted, caretakers' orders filed, warnings queued (src/seats/open-turn.ts). */
  seatsTurn: turn.optional(),
  /** Before turn 1 (schedule.rollCall): the nations whose players confirmed, and when the GM was told of the silent ones. */
  rollCall: z.strictObject({ ready: z.array(nation).default([]), told: iso.optional() }).optional(),
  /**
   * A GM operation under way. A rerun or rollback is finished by running it again (a tick refuses to run
   * meanwhile); one with `whole` (src/schedule/whole-operation.ts) the next fatecraft command completes or undoes by itself.
   */
  operation: z
    .strictObject({
      kind: z.string(),
      turn: turn.optional(),
      startedAt: iso,
      command: z.string(),
      /** What completes it: the files it writes (by digest), the token it issues or removes, the log lines and notices it ends with. */
      whole: z
        .strictObject({
          files: z.array(z.strictObject({ path: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })).default([]),
          token: z.strictObject({ nation, action: z.enum(['issue', 'remove']), previous: z.string().regex(/^[0-9a-f]{64}$/).optional() }).optional(),
          log: z.array(logSchema).default([]),
          notices: z.array(z.strictObject({ kind: z.enum(NOTICE_KINDS), turn, nations: z.array(nation).default([]), text: z.string() })).default([]),
          dropped: z.record(nation, z.strictObject({ mode: z.enum(['hold', 'neutral']), turn, at: iso })).default({}),
          undropped: z.array(nation).default([]),
          /** The seat record it ends with: a new holder's tenure, and, for a seat taken by mail, the invitation accepted (src/schedule/seats/take.ts). */
          seat: z
            .strictObject({
              nation,
              player: z.array(z.string()),
              fromTurn: turn,
              name: z.string().optional(),
              offer: z.strictObject({ id: z.number().int().min(1), key: z.string() }).optional(),
            })
            .optional(),
        })
        .optional(),
    })
    .optional(),
  log: z.array(logSchema).default([]),
});

export type Runtime = z.infer<typeof runtimeSchema>;
export type Alert = Runtime['alerts'][number];
export type Notice = Runtime['notices'][number];
export type Hold = Runtime['holds'][number];
export type LogEntry = Runtime['log'][number];
export type Tenure = z.infer<typeof tenureSchema>;
export type Offer = z.infer<typeof offerSchema>;

export function newRuntime(turnNumber: number, deadline: Date): Runtime {
  return { version: 1, turn: turnNumber, deadline: deadline.toISOString(), reminders: {}, holds: [], reportsDue: [], alerts: [], notices: [], absences: [], dropped: {}, timeZones: {}, waits: [], retiredTokens: {}, log: [] };
}

export const runtimePath = (dir: string) => join(dir, RUNTIME_FILE);

/** The campaign's runtime, or undefined before its first tick. A damaged file stops everything with its problems. */
export async function readRuntime(dir: string): Promise<Runtime | undefined> {
  const path = runtimePath(dir);
  if (!existsSync(path)) return undefined;
  const bytes = await readFile(path);
  const read = readBulkYaml(bytes, GM_LIMITS);
  if (!read.ok) {
    throw new CampaignError(read.problems.map((p) => ({ file: path, ...(p.line !== undefined ? { line: p.line } : {}), message: `${p.message} (runtime.yaml is written by fatecraft; restore it from a backup or fix it by hand)` })));
  }
  return validate(runtimeSchema, read, path);
}

/** Canonical YAML, keys in schema order, written atomically and durably. */
export async function writeRuntime(dir: string, runtime: Runtime): Promise<void> {
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(runtimeSchema.shape)) {
    const value = (runtime as Record<string, unknown>)[key];
    if (value !== undefined) ordered[key] = value;
  }
  ordered.reminders = Object.fromEntries(Object.entries(runtime.reminders).sort(([a], [b]) => Number(a) - Number(b)));
  const byKey = <V>(r: Record<string, V>) => Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  ordered.dropped = byKey(runtime.dropped);
  ordered.retiredTokens = byKey(runtime.retiredTokens);
  ordered.timeZones = byKey(runtime.timeZones);
  if (runtime.seats) ordered.seats = byKey(runtime.seats);
  const header = '# Written by fatecraft (tick and the GM commands). See docs/operations.md.\n';
  await writeFileAtomic(runtimePath(dir), header + writeYaml(ordered), { fsync: true });
}

// ---------------------------------------------------------------------------
// Small edits, shared by tick and the GM commands
// ---------------------------------------------------------------------------

/** Raises an alert unless one with the same key was ever raised. Returns it when new. */
export function raiseAlert(runtime: Runtime, at: Date, alert: { key: string; kind: AlertKind; turn?: number; message: string }): Alert | undefined {
  if (runtime.alerts.some((a) => a.key === alert.key)) return undefined;
  const id = Math.max(0, ...runtime.alerts.map((a) => a.id)) + 1;
  const raised: Alert = { id, key: alert.key, kind: alert.kind, ...(alert.turn !== undefined ? { turn: alert.turn } : {}), raisedAt: at.toISOString(), message: alert.message, mailed: false, open: true };
  runtime.alerts.push(raised);
  return raised;
}

export function addNotice(runtime: Runtime, at: Date, notice: { kind: NoticeKind; turn: number; nations?: string[]; text: string }): Notice {
  const id = Math.max(0, ...runtime.notices.map((n) => n.id)) + 1;
  const added: Notice = { id, kind: notice.kind, turn: notice.turn, at: at.toISOString(), nations: notice.nations ?? [], text: notice.text, sent: false };
  runtime.notices.push(added);
  return added;
}

export function logOp(runtime: Runtime, at: Date, op: string, detail: string, turnNumber?: number, extra: Pick<LogEntry, 'reason' | 'players'> = {}): void {
  runtime.log.push({ at: at.toISOString(), op, ...(turnNumber !== undefined ? { turn: turnNumber } : {}), detail, ...(extra.reason ? { reason: extra.reason } : {}), ...(extra.players ? { players: extra.players } : {}) });
}

/**
 * The GM's log as the players of a turn's reports read it (campaign.yaml `reports.gmLog`): the operations
 * outside the rules that the GM marked for that turn, with their reasons, oldest first.
 */
export function gmLogFor(runtime: Pick<Runtime, 'log'> | undefined, turnNumber: number): string[] {
  return (runtime?.log ?? []).flatMap((l) => (l.players?.turn === turnNumber ? [`${l.players.text}${l.reason ? ` Reason: ${l.reason}` : ''}`] : []));
}

/** Nations whose player said they are away for this turn. */
export function absentNations(runtime: Runtime, turnNumber: number): string[] {
  return [...new Set(runtime.absences.filter((a) => a.fromTurn <= turnNumber && turnNumber <= a.toTurn).map((a) => a.nation))].sort();
}

/** Nations whose player asked this turn to wait for its deadline. */
export function waitingNations(runtime: Runtime, turnNumber: number): string[] {
  return [...new Set(runtime.waits.filter((w) => w.turn === turnNumber).map((w) => w.nation))].sort();
}

/** Closes the alerts about a turn once it has resolved (or been rolled back). */
export function closeTurnAlerts(runtime: Runtime, turnNumber: number): void {
  for (const a of runtime.alerts) if (a.turn === turnNumber && Object.values(HOLD_ALERTS).includes(a.kind)) a.open = false;
}

/**
 * When the GM last said "dealt with" (`fatecraft resume`), in ms; 0 if never. Mail failures and bounces
 * from before it no longer count as needing the GM.
 */
export function dealtWithAt(runtime: Runtime): number {
  const last = runtime.log.filter((l) => l.op === 'resume').at(-1);
  return last ? Date.parse(last.at) : 0;
}

/** The key of the alert a bounce becomes: one per delivery report and address. */
export const bounceAlertKey = (bounce: { key: string; address: string }) => `bounce:${bounce.key}:${bounce.address}`;

/**
 * Books a resolved turn: the next one opens with its deadline, the reports are owed, the turn's guards,
 * reminders and alerts are done with. The one way a turn is booked, by a tick or by `fatecraft turn`.
 * `version` is the turn's (turn-version.ts): above 0 when it was resolved anew after a rollback.
 */
export function bookResolvedTurn(runtime: Runtime, turnNumber: number, nextDeadline: Date, at: Date, dueText: string, version = 0): void {
  runtime.turn = turnNumber + 1;
  runtime.deadline = nextDeadline.toISOString();
  delete runtime.resolving;
  if (!runtime.reportsDue.some((r) => r.turn === turnNumber && r.rerun === version)) runtime.reportsDue.push({ turn: turnNumber, rerun: version });
  closeTurnAlerts(runtime, turnNumber);
  runtime.holds = runtime.holds.filter((h) => h.turn > turnNumber);
  runtime.waits = runtime.waits.filter((w) => w.turn > turnNumber);
  for (const t of Object.keys(runtime.reminders)) if (Number(t) <= turnNumber) delete runtime.reminders[t];
  logOp(runtime, at, 'resolved', `turn ${turnNumber} resolved; turn ${turnNumber + 1} is due ${dueText}`, turnNumber);
}
