import { createHash } from 'node:crypto';
import { playedNations } from '../core/campaign.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ordersDir } from '../orders/pending.js';
import { nationsWithOrderFiles } from '../campaign/order-folder.js';
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
import { absentNations, bookResolvedTurn, HOLD_ALERTS, bounceAlertKey, dealtWithAt, gmLogFor, logOp, newRuntime, raiseAlert, readRuntime, waitingNations, writeRuntime, type Alert, type Runtime } from './runtime.js';
import { scheduleOf, type Schedule } from './settings.js';
import { staleReason } from './stale-notices.js';
import { applyPreference } from './preferences.js';
import { deadlineClock, deadlinesByNation } from './player-time.js';
import { plainText } from '../text/escape.js';
import { openSeatTurn } from './seats/open-turn.js';
import { seatsInCare } from '../seats/file-orders.js';
import { seatsOf } from '../seats/settings.js';
import { seatDesk } from './seats/desk.js';
import { addOffer, nextVolunteer } from './seats/offers.js';
import { seatsKey } from '../campaign/secrets.js';

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

class TickRun {
  private open!: OpenCampaign;
  private schedule!: Schedule;
  private runtime!: Runtime;
  private hooks!: TickHooks;
  /** This tick made runtime.yaml for a campaign with no resolved turn: it starts the campaign. */
  private starting = false;

  constructor(
    private readonly dir: string,
    private readonly opts: TickOptions,
    private readonly now: Date,
    private readonly outcome: TickOutcome,
  ) {}

  private say = (line: string) => this.outcome.lines.push(line);
  private save = () => writeRuntime(this.dir, this.runtime);
  private local = (d: Date | string) => localTime(new Date(d), this.schedule.timeZone);

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
        await this.sendAlerts().catch(() => undefined);
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
    if (this.starting) await this.startCampaign();
    await this.seatWork();

    let mailOk = true;
    try {
      const fetched = await this.hooks.fetchMail(this.context());
      if (fetched && fetched.processed > 0) this.say(`read ${fetched.processed} message(s)`);
    } catch (e) {
      mailOk = false;
      this.mailFailure('fetch', `fetching mail failed: ${(e as Error).message}`);
      await this.save();
    }
    await this.bouncesAsAlerts();
    await failpoint('after-fetch');

    // Plan, act; after a resolution plan once more for the new turn.
    for (let pass = 0; pass < 2; pass++) {
      const plan = planTick({ runtime: this.runtime, schedule: this.schedule, now: this.now, mailOk, ...(await this.who()) });
      let resolved = false;
      for (const action of plan.actions) resolved = (await this.act(action)) || resolved;
      this.outcome.nextEvent = plan.nextEvent;
      if (!resolved) break;
      await this.seatWork();
    }

    await this.sendReports();
    await failpoint('after-reports');
    await this.sendNotices();
    await this.sendAlerts();
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

  /**
   * Each report or notice that bounced since the GM last ran `resume` becomes an alert: `status` shows it and
   * `status --check` fails until the GM has dealt with it. The mail loop has already mailed the GM about it,
   * so the alert is not mailed again.
   */
  private async bouncesAsAlerts(): Promise<void> {
    const mail = await this.hooks.mailStatus?.(this.dir, this.open);
    const since = dealtWithAt(this.runtime);
    let raised = false;
    for (const b of mail?.bounces ?? []) {
      if (b.action !== 'failed' || Date.parse(b.at) <= since) continue;
      // The address and the diagnostic come from the delivery report: other people's text, kept to one plain line.
      const who = `${plainText(b.address)}${b.nations.length ? ` (${b.nations.join(', ')})` : ''}`;
      const alert = raiseAlert(this.runtime, this.now, { key: bounceAlertKey(b), kind: 'bounce', turn: this.runtime.turn, message: `mail to ${who} bounced${b.diagnostic ? `: ${plainText(b.diagnostic)}` : ''}; check the address in campaign.yaml or ask the player for a new one, then: fatecraft resume ${this.dir}` });
      if (!alert) continue;
      alert.mailed = true;
      raised = true;
      this.say(`mail to ${who} bounced`);
    }
    if (raised) await this.save();
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
            this.mailFailure(`remind-${action.turn}-${action.label}`, `sending the ${action.label} reminders for turn ${action.turn} failed: ${(e as Error).message}`);
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
        await this.rollCall(action.turn);
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

  /** The seats of the turn just opened: tenures counted, caretakers' orders filed, quiet players warned (src/seats). */
  private async seatWork(): Promise<void> {
    const result = await openSeatTurn({ dir: this.dir, open: this.open, runtime: this.runtime, now: this.now, local: this.local });
    for (const line of result.lines) this.say(line);
    if (result.done) {
      await this.autofill(result.taken.map((d) => d.nation));
      await this.save();
    }
    await this.sendOffers();
  }

  /** seats.autofill: each seat a policy takes (or silent at roll-call) is offered to the next volunteer. */
  private async autofill(nations: readonly string[]): Promise<void> {
    if (!nations.length || !seatsOf(this.open.file, this.open.campaign).campaign.autofill) return;
    const playing = new Set(Object.values(this.open.file.nations).flatMap((n) => n.email.map((e) => e.toLowerCase())));
    for (const nation of nations) {
      const volunteer = nextVolunteer(this.runtime, playing);
      if (!volunteer) {
        this.say(`seats.autofill: no volunteer left for ${nation}`);
        continue;
      }
      await seatsKey(this.open.campaign.name, this.dir);
      const offer = addOffer(this.runtime, { nation, address: volunteer.address, name: volunteer.name, at: this.now });
      logOp(this.runtime, this.now, 'offer', `invitation ${offer.id}: the seat of ${nation} offered to ${volunteer.address} (${volunteer.name}) by seats.autofill`, this.runtime.turn);
      this.say(`offered the seat of ${nation} to ${volunteer.address} (seats.autofill)`);
    }
  }

  /** Invitations not yet in the outgoing queue (autofill's, or a GM's whose mail failed). */
  private async sendOffers(): Promise<void> {
    if (!this.hooks.sendSeatOffer) return;
    for (const offer of (this.runtime.offers ?? []).filter((o) => o.status === 'open' && !o.mailed)) {
      try {
        await this.hooks.sendSeatOffer(this.context(), offer);
      } catch (e) {
        this.mailFailure(`offer-${offer.id}`, `sending invitation ${offer.id} (${offer.nation} to ${offer.address}) failed: ${(e as Error).message}`);
        await this.save();
        continue;
      }
      offer.mailed = true;
      await this.save();
    }
  }

  /** Roll-call before turn 1: the GM hears which players have not confirmed (ready, or orders); autofill offers those seats. */
  private async rollCall(turn: number): Promise<void> {
    const rt = this.runtime;
    const call = (rt.rollCall ??= { ready: [] });
    const submitted = await submittedNations(this.dir, turn, playedNations(this.open.campaign));
    const silent = playedNations(this.open.campaign).filter((n) => (this.open.file.nations[n]?.email ?? []).length > 0 && !rt.dropped[n] && !call.ready.includes(n) && !submitted.includes(n));
    call.told = this.now.toISOString();
    const message = silent.length
      ? `roll-call before turn ${turn}: no word from ${silent.join(', ')} (neither "ready" nor orders); turn ${turn} is due ${this.local(rt.deadline)}. Offer a seat to a volunteer: fatecraft nation offer ${this.dir} <nation> <address>${seatsOf(this.open.file, this.open.campaign).campaign.autofill ? ' (seats.autofill offers them now to the standby list)' : ''}`
      : `roll-call before turn ${turn}: every player has confirmed`;
    if (silent.length) raiseAlert(rt, this.now, { key: `roll-call:${turn}`, kind: 'seats', turn, message });
    logOp(rt, this.now, 'roll-call', message, turn);
    this.say(message);
    await this.autofill(silent);
    await this.save();
    await this.sendOffers();
  }

  /** The players' first mail, before anything else; a failure is the GM's to finish with `fatecraft start`. */
  private async startCampaign(): Promise<void> {
    if (!this.hooks.startCampaign) return;
    try {
      await this.hooks.startCampaign(this.context());
    } catch (e) {
      this.mailFailure('start', `starting the campaign (turn 0, tokens, the players' first mail) failed: ${(e as Error).message}; finish it with: fatecraft start ${this.dir}`);
      await this.save();
    }
  }

  private async sendReports(): Promise<void> {
    for (const due of [...this.runtime.reportsDue]) {
      const turnDir = join(this.dir, 'turns', turnDirName(due.turn));
      try {
        await this.hooks.sendReports(this.context(), { key: `reports-${due.turn}${due.rerun ? `-rerun-${due.rerun}` : ''}`, turn: due.turn, rerun: due.rerun, turnDir });
      } catch (e) {
        this.mailFailure(`reports-${due.turn}-${due.rerun}`, `sending the reports of turn ${due.turn} failed: ${(e as Error).message}`);
        await this.save();
        continue;
      }
      this.runtime.reportsDue = this.runtime.reportsDue.filter((r) => r !== due);
      this.say(`sent the reports of turn ${due.turn}${due.rerun ? ` (rerun ${due.rerun})` : ''}`);
      await this.save();
    }
  }

  private async sendNotices(): Promise<void> {
    for (const notice of this.runtime.notices.filter((n) => !n.sent && n.dropped === undefined)) {
      const stale = staleReason(notice, this.runtime);
      if (stale !== undefined) {
        notice.dropped = stale;
        logOp(this.runtime, this.now, 'notice-dropped', `notice ${notice.id} (${notice.kind}) not sent: ${stale}`, notice.turn);
        this.say(`dropped notice ${notice.id} (${notice.kind}) unsent: ${stale}`);
        await this.save();
        continue;
      }
      try {
        await this.hooks.sendNotice(this.context(), notice);
      } catch (e) {
        this.mailFailure(`notice-${notice.id}`, `sending notice ${notice.id} (${notice.kind}) failed: ${(e as Error).message}`);
        await this.save();
        continue;
      }
      notice.sent = true;
      await this.save();
    }
  }

  private async sendAlerts(): Promise<void> {
    for (const alert of this.runtime.alerts.filter((a) => !a.mailed)) {
      try {
        await this.hooks.sendGmAlert(this.context(), alert);
      } catch (e) {
        this.say(`could not mail alert ${alert.id} to the GM: ${(e as Error).message}`);
        continue;
      }
      alert.mailed = true;
      await this.save();
    }
  }

  private mailFailure(what: string, message: string): void {
    this.say(message);
    raiseAlert(this.runtime, this.now, { key: `mail-failure:${this.runtime.turn}:${what}`, kind: 'mail-failure', turn: this.runtime.turn, message });
  }

  private context(): TickContext {
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

/** Nations with an orders file for the turn (order-folder.ts says which files those are). */
export async function submittedNations(dir: string, turn: number, nations: readonly string[]): Promise<string[]> {
  return nationsWithOrderFiles(ordersDir(dir, turn), (id) => nations.includes(id));
}

function defaultHooks(open: OpenCampaign): TickHooks {
  if (open.file.mail !== undefined) throw new Error('tick: campaign.yaml has a mail: block, and no mail hooks were plugged in (src/cli/tick-hooks.ts)');
  return folderHooks();
}
