import { createHash } from 'node:crypto';
import { playedNations } from '../core/campaign.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CampaignError } from '../campaign/problems.js';
import { turnVersion } from '../campaign/turn-version.js';
import { assertLatestTurnWhole, latestTurn, openCampaign, readState, turnDirName, type OpenCampaign } from '../campaign/store.js';
import { asNationId } from '../core/ids.js';
import { recoverJournal } from '../campaign/journal.js';
import type { TurnRenderer } from '../campaign/turn-renderer.js';
import { runTurn } from '../jobs/run-turn.js';
import { recoverOperation } from './whole-operation.js';
import type { Clock } from './clock.js';
import { firstDeadline, followingDeadline, localTime } from './deadline.js';
import { failpoint } from '../host/failpoints.js';
import { scheduleTimeZone } from './idle-tick.js';
import { folderHooks, type TickContext, type TickHooks } from './hooks.js';
import { LockBusyError, withCampaignLock } from './lock.js';
import { ordersAccepted, planTick, type TickAction } from './plan.js';
import { absentNations, bookResolvedTurn, HOLD_ALERTS, gmLogFor, logOp, newRuntime, raiseAlert, readRuntime, waitingNations, writeRuntime, type Alert, type Runtime } from './runtime.js';
import { scheduleOf, type Schedule } from './settings.js';
import { applyPreference } from './preferences.js';
import { deadlineClock, deadlinesByNation } from './player-time.js';
import { seatsInCare } from '../seats/file-orders.js';
import { seatsOf } from '../seats/settings.js';
import { seatDesk } from './seats/desk.js';
import { submittedNations } from './submitted.js';
import { bouncesAsAlerts, mailFailure, sendAlerts, sendNotices, sendReports, startCampaign } from './tick-owed.js';
import { rollCall, seatWork } from './tick-seats.js';
import type { TickSession } from './tick-session.js';

/**
 * `fatecraft tick`: one pass of the schedule over a campaign, safe to run
 * from cron every few minutes. Under the campaign's lock it
 *
 *   1. finishes anything a killed run left half done (a GM journal, a turn
 *      resolution that was decided, a resolved turn not yet booked),
 *   2. fetches mail (hooks.fetchMail: orders filed, receipts sent),
 *   3. plans (plan.ts) and carries out: reminders, guard holds, resolution,
 *   4. sends what is owed: reports, notices to players, alerts to the GM,
 *
 * writing runtime.yaml after every step. A tick killed anywhere and run again
 * ends in the state, and with the mail, of a run that was never interrupted.
 */
export interface TickOptions {
  clock: Clock;
  /**
   * How messages reach people. Without it, a campaign without a `mail:` block writes them with the folder
   * hooks; one with a mail block needs the mailroom's, which the caller plugs in (src/cli/tick-hooks.ts):
   * the schedule does not import the mailroom.
   */
  hooks?: TickHooks;
  /** Files written with each resolved turn (the CLI passes the report renderers). */
  renderers?: TurnRenderer[];
}

export type TickStatus = 'ok' | 'busy' | 'failed';

export interface TickOutcome {
  dir: string;
  status: TickStatus;
  /** What happened, one line each, for the console. */
  lines: string[];
  /** Turns resolved by this tick. */
  resolved: number[];
  /** Why the tick failed or did nothing (status busy/failed). */
  error?: string;
  /** When something will next be due, for the daemon; undefined while waiting on the GM. */
  nextEvent?: Date;
}

export async function tick(dir: string, opts: TickOptions): Promise<TickOutcome> {
  const outcome: TickOutcome = { dir, status: 'ok', lines: [], resolved: [] };
  const now = opts.clock.now();
  let timeZone: string | undefined;
  try {
    // Read-only peek for the time zone in the busy message; problems surface inside.
    timeZone = await scheduleTimeZone(dir);
    await withCampaignLock(dir, { clock: opts.clock, what: 'tick', ...(timeZone ? { timeZone } : {}), onRecovered: (o) => outcome.lines.push(`took over the lock of process ${o.pid} (${o.what}, since ${o.since}), which is no longer running`) }, async () => {
      await failpoint('locked');
      await new TickRun(dir, opts, now, outcome).run();
    });
  } catch (e) {
    if (e instanceof LockBusyError) {
      outcome.status = 'busy';
      outcome.error = e.message;
    } else if (e instanceof CampaignError) {
      outcome.status = 'failed';
      outcome.error = e.message;
    } else {
      outcome.status = 'failed';
      outcome.error = `unexpected error — please report it with the command you ran.\n${(e as Error).stack ?? String(e)}`;
    }
  }
  return outcome;
}

/** Ticks several campaigns one after another; one failing does not stop the rest. */
export async function tickMany(dirs: string[], opts: Omit<TickOptions, 'hooks'> & { hooksFor?: (open: OpenCampaign) => TickHooks | Promise<TickHooks> }): Promise<TickOutcome[]> {
  const outcomes: TickOutcome[] = [];
  for (const dir of dirs) {
    let hooks: TickHooks | undefined;
    if (opts.hooksFor) {
      const open = await openCampaign(dir).catch(() => undefined);
      hooks = open ? await opts.hooksFor(open) : undefined;
    }
    outcomes.push(await tick(dir, { ...opts, ...(hooks ? { hooks } : {}) }));
  }
  return outcomes;
}

/**
 * Alerts kept in runtime.yaml are numbered from 1. One that cannot be kept
 * there (runtime.yaml itself is damaged) takes an id from here up, derived
 * from its problem, so the hooks' message for it is stable and never one of
 * a kept alert's.
 */
const UNRECORDED_ALERT_IDS_FROM = 1_000_000_000;

class TickRun implements TickSession {
  open!: OpenCampaign;
  schedule!: Schedule;
  runtime!: Runtime;
  hooks!: TickHooks;
  /** This tick made runtime.yaml for a campaign with no resolved turn: it starts the campaign. */
  private starting = false;

  constructor(
    readonly dir: string,
    private readonly opts: TickOptions,
    readonly now: Date,
    private readonly outcome: TickOutcome,
  ) {}

  say = (line: string) => this.outcome.lines.push(line);
  save = () => writeRuntime(this.dir, this.runtime);
  local = (d: Date | string) => localTime(new Date(d), this.schedule.timeZone);

  async run(): Promise<void> {
    const dir = this.dir;
    // First: a journal may change campaign.yaml, which is read next.
    for (const file of await recoverJournal(dir)) this.say(`finished an interrupted GM operation: wrote ${file}`);
    this.open = await openCampaign(dir);
    this.schedule = scheduleOf(this.open.file, join(dir, 'campaign.yaml'));
    this.hooks = this.opts.hooks ?? defaultHooks(this.open);

    const existing = await this.readRuntimeOrAlert();
    if (!existing) {
      const latest = (await latestTurn(dir)) ?? 0;
      const deadline = firstDeadline(this.schedule, this.now);
      this.runtime = newRuntime(latest + 1, deadline);
      logOp(this.runtime, this.now, 'start', `schedule started; turn ${latest + 1} is due ${this.local(deadline)}`, latest + 1);
      await this.save();
      this.say(`schedule started: turn ${latest + 1} is due ${this.local(deadline)}`);
      this.starting = latest === 0;
    } else {
      this.runtime = existing;
      // A GM operation a crash interrupted is completed or undone here, and the GM told (an alert, mailed below).
      const recovered = await recoverOperation({ dir, runtime: this.runtime, now: this.now, campaignName: this.open.campaign.name, env: process.env });
      if (recovered) {
        await this.save();
        this.say(recovered.line);
      }
    }
    try {
      await this.steps();
    } catch (e) {
      // Tell the GM (once per distinct problem), then let the caller report it too.
      const message = e instanceof CampaignError ? e.message : `unexpected error: ${(e as Error).message}`;
      const key = `tick-failed:${this.runtime.turn}:${createHash('sha256').update(message).digest('hex').slice(0, 12)}`;
      if (raiseAlert(this.runtime, this.now, { key, kind: 'tick-failed', turn: this.runtime.turn, message: `tick stopped: ${message}` })) {
        await this.save().catch(() => undefined);
        await sendAlerts(this).catch(() => undefined);
      }
      throw e;
    }
  }

  /**
   * runtime.yaml, or a stop that the GM is told of. A damaged file is left
   * as it is for the GM to mend, so the alert cannot be kept in it: it goes
   * straight to the hooks under an id derived from the problem, so the same
   * problem met by every tick until it is mended is one message.
   */
  private async readRuntimeOrAlert(): Promise<Runtime | undefined> {
    try {
      return await readRuntime(this.dir);
    } catch (e) {
      if (!(e instanceof CampaignError)) throw e;
      const digest = createHash('sha256').update(e.message).digest('hex');
      const turn = ((await latestTurn(this.dir)) ?? 0) + 1;
      // A stand-in for the hooks' context only; it is never written.
      this.runtime = newRuntime(turn, this.now);
      const alert: Alert = {
        id: UNRECORDED_ALERT_IDS_FROM + (Number.parseInt(digest.slice(0, 12), 16) % UNRECORDED_ALERT_IDS_FROM),
        key: `runtime-damaged:${digest.slice(0, 12)}`,
        kind: 'tick-failed',
        turn,
        raisedAt: this.now.toISOString(),
        message: `tick stopped: runtime.yaml cannot be read, so nothing was done; mend it (or restore it from a backup) and the next tick goes on.\n${e.message}`,
        mailed: false,
        open: true,
      };
      try {
        await this.hooks.sendGmAlert(this.context(), alert);
      } catch (mailError) {
        this.say(`could not mail the alert to the GM: ${(mailError as Error).message}`);
      }
      throw e;
    }
  }

  private async steps(): Promise<void> {
    const op = this.runtime.operation;
    if (op) {
      throw new CampaignError([{ file: this.dir, message: `a GM operation was interrupted (${op.kind}${op.turn !== undefined ? ` ${op.turn}` : ''}, started ${this.local(new Date(op.startedAt))}); finish it by running it again: ${op.command}` }]);
    }
    await this.reconcile();
    if (this.starting) await startCampaign(this);
    await seatWork(this);

    let mailOk = true;
    try {
      const fetched = await this.hooks.fetchMail(this.context());
      if (fetched && fetched.processed > 0) this.say(`read ${fetched.processed} message(s)`);
    } catch (e) {
      mailOk = false;
      mailFailure(this, 'fetch', `fetching mail failed: ${(e as Error).message}`);
      await this.save();
    }
    await bouncesAsAlerts(this);
    await failpoint('after-fetch');

    // Plan, act; after a resolution plan once more for the new turn.
    for (let pass = 0; pass < 2; pass++) {
      const plan = planTick({ runtime: this.runtime, schedule: this.schedule, now: this.now, mailOk, ...(await this.who()) });
      let resolved = false;
      for (const action of plan.actions) resolved = (await this.act(action)) || resolved;
      this.outcome.nextEvent = plan.nextEvent;
      if (!resolved) break;
      await seatWork(this);
    }

    await sendReports(this);
    await failpoint('after-reports');
    await sendNotices(this);
    await sendAlerts(this);
    await failpoint('after-alerts');
    this.runtime.lastTick = this.now.toISOString();
    await this.save();
  }

  /** Brings runtime.yaml in line with the turn folders, or stops saying why. */
  private async reconcile(): Promise<void> {
    await assertLatestTurnWhole(this.dir);
    const latest = (await latestTurn(this.dir)) ?? 0;
    const rt = this.runtime;
    if (rt.turn > latest + 1) {
      throw new CampaignError([{ file: join(this.dir, 'runtime.yaml'), message: `runtime.yaml is at turn ${rt.turn}, but the latest resolved turn on disk is ${latest} (turn folders were moved or deleted?). If that is what you meant, run: fatecraft rollback ${this.dir} ${latest}` }]);
    }
    // A resolution was decided and then killed before its turn folder appeared: do exactly it.
    if (rt.resolving && rt.resolving.turn === rt.turn && rt.turn === latest + 1) {
      this.say(`finishing the resolution of turn ${rt.turn} begun at ${this.local(new Date(rt.resolving.startedAt))}`);
      await this.resolve(rt.turn, new Date(rt.resolving.nextDeadline));
      return;
    }
    while (this.runtime.turn <= latest) {
      const turn = this.runtime.turn;
      if (this.runtime.resolving?.turn === turn) {
        await this.openNext(turn, new Date(this.runtime.resolving.nextDeadline), new Date(this.runtime.resolving.startedAt));
      } else {
        const next = followingDeadline(this.schedule, new Date(this.runtime.deadline), this.now);
        logOp(this.runtime, this.now, 'adopt', `turn ${turn} was resolved outside tick (fatecraft turn); its reports go out now`, turn);
        this.say(`turn ${turn} was resolved outside tick; booking it`);
        await this.openNext(turn, turn < latest ? new Date(this.runtime.deadline) : next, this.now);
      }
      await this.save();
    }
  }

  /** Who is expected to send orders for the pending turn, who has, and which silent seats the turn waits for. */
  private async who(): Promise<{ submitted: string[]; active: string[]; waiting: string[]; seatPause?: { nations: string[]; limit: number } }> {
    const turn = this.runtime.turn;
    const latest = (await latestTurn(this.dir)) ?? 0;
    const nations: string[] = playedNations(this.open.campaign);
    let alive = nations;
    let pausing: string[] = [];
    if (latest > 0 || existsSync(join(this.dir, 'turns', turnDirName(0)))) {
      const state = await readState(this.dir, latest, this.open.campaign);
      alive = nations.filter((n) => state.nations[asNationId(n)]?.alive !== false);
      pausing = seatsInCare(this.open, state, Object.keys(this.runtime.dropped)).filter((d) => d.mode === 'pause').map((d) => d.nation);
    }
    const away = new Set([...absentNations(this.runtime, turn), ...Object.keys(this.runtime.dropped)]);
    const seatPause = pausing.length ? { seatPause: { nations: pausing, limit: seatsOf(this.open.file, this.open.campaign).campaign.pauseLimit } } : {};
    return { submitted: await submittedNations(this.dir, turn, nations), active: alive.filter((n) => !away.has(n)), waiting: waitingNations(this.runtime, turn), ...seatPause };
  }

  private async act(action: TickAction): Promise<boolean> {
    const rt = this.runtime;
    switch (action.kind) {
      case 'wait':
        this.say(`turn ${action.turn} waits: ${action.reason}`);
        return false;
      case 'remind': {
        const deadline = new Date(rt.deadline);
        if (action.nations.length > 0) {
          try {
            await this.hooks.sendReminders(this.context(), { key: `remind-${action.turn}-${action.label}`, turn: action.turn, label: action.label, deadline }, action.nations.map(asNationId));
          } catch (e) {
            mailFailure(this, `remind-${action.turn}-${action.label}`, `sending the ${action.label} reminders for turn ${action.turn} failed: ${(e as Error).message}`);
            await this.save();
            return false;
          }
        }
        rt.reminders[String(action.turn)] = [...(rt.reminders[String(action.turn)] ?? []), ...action.skipped, action.label];
        this.say(`turn ${action.turn}: ${action.label} reminder ${action.nations.length ? `to ${action.nations.join(', ')}` : 'not needed: every nation has sent orders'}${action.skipped.length ? ` (skipped ${action.skipped.join(', ')}: overdue)` : ''}`);
        await this.save();
        await failpoint('after-remind');
        return false;
      }
      case 'hold': {
        if (!rt.holds.some((h) => h.turn === action.turn && h.kind === action.hold)) {
          rt.holds.push({ turn: action.turn, kind: action.hold, since: this.now.toISOString(), detail: action.detail });
          logOp(rt, this.now, 'hold', action.detail, action.turn);
        }
        raiseAlert(rt, this.now, {
          key: `${HOLD_ALERTS[action.hold]}:${action.turn}:${rt.deadline}`,
          kind: HOLD_ALERTS[action.hold],
          turn: action.turn,
          message: `${action.detail}. To resolve it anyway: fatecraft resume ${this.dir}; to give more time: fatecraft extend ${this.dir} --by 24h${action.hold === 'long-gap' ? `. A GM who ticks by hand rather than from cron: set schedule.maxTickGap in campaign.yaml longer than the time between your ticks (e.g. maxTickGap: 8d), or resolve each turn with fatecraft turn ${this.dir}` : ''}`,
        });
        this.say(`turn ${action.turn} held: ${action.detail}`);
        await this.save();
        return false;
      }
      case 'resolve':
        await this.resolve(action.turn, action.nextDeadline);
        return true;
      case 'roll-call':
        await rollCall(this, action.turn);
        return false;
    }
  }

  private async resolve(turn: number, nextDeadline: Date): Promise<void> {
    const rt = this.runtime;
    if (rt.resolving?.turn !== turn) {
      rt.resolving = { turn, startedAt: this.now.toISOString(), nextDeadline: nextDeadline.toISOString() };
      await this.save();
    }
    await failpoint('before-resolve');
    const nextDeadlineByNation = deadlinesByNation(deadlineClock(nextDeadline, this.schedule.timeZone, this.open.file, rt));
    const result = await runTurn(this.dir, { expectTurn: turn, renderers: this.opts.renderers ?? [], nextDeadline: this.local(nextDeadline), nextDeadlineByNation, gmLog: gmLogFor(rt, turn), dropped: Object.keys(rt.dropped) });
    await failpoint('after-resolve');
    this.outcome.resolved.push(turn);
    const count = (type: string) => result.events.filter((e) => e.type === type).length;
    this.say(`resolved turn ${turn}: ${result.events.length} events, ${count('battle')} battles, ${count('nmr')} nations without orders`);
    await this.openNext(turn, nextDeadline, new Date(rt.resolving.startedAt));
    await this.save();
    await failpoint('after-open-next');
  }

  /** Books a resolved turn: the next one opens with its deadline and the reports are owed. */
  private async openNext(turn: number, nextDeadline: Date, at: Date): Promise<void> {
    bookResolvedTurn(this.runtime, turn, nextDeadline, at, this.local(nextDeadline), await turnVersion(this.dir, turn));
    this.say(`turn ${turn + 1} opened, due ${this.local(nextDeadline)}`);
  }

  context(): TickContext {
    const rt = this.runtime;
    return {
      dir: this.dir,
      open: this.open,
      schedule: this.schedule,
      clock: this.opts.clock,
      now: this.now,
      turn: rt.turn,
      deadline: new Date(rt.deadline),
      runtime: rt,
      acceptsOrders: (turn, receivedAt) => ordersAccepted(rt, this.schedule)(turn, receivedAt),
      declareAbsence: async (nation, fromTurn, toTurn, note) => {
        rt.absences.push({ nation, fromTurn, toTurn, declaredAt: this.now.toISOString(), ...(note ? { note } : {}) });
        logOp(rt, this.now, 'absence', `${nation} is away for turns ${fromTurn}–${toTurn}${note ? `: ${note}` : ''}`, fromTurn);
        await this.save();
      },
      recordPreference: async (nation, pref, note) => {
        applyPreference(rt, this.now, nation, pref, note);
        await this.save();
      },
      seats: seatDesk(this.dir, { load: () => Promise.resolve(rt), save: () => this.save(), current: () => rt, now: () => this.now }),
      say: this.say,
    };
  }
}

function defaultHooks(open: OpenCampaign): TickHooks {
  if (open.file.mail !== undefined) throw new Error('tick: campaign.yaml has a mail: block, and no mail hooks were plugged in (src/cli/tick-hooks.ts)');
  return folderHooks();
}
