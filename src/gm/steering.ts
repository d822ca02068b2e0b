import { addNotice, HOLD_ALERTS, type Alert, type Hold } from '../schedule/runtime.js';
import { formatDuration } from '../schedule/duration.js';
import { withGm, type GmContext, type GmOptions } from './context.js';

/** Moving the deadline, pausing and resuming: the GM's hand on the schedule. */

export interface ExtendOptions extends GmOptions {
  /** The new deadline. */
  to?: Date;
  /** Or: move the current one by this much (ms; negative brings it forward). */
  by?: number;
}

export interface ExtendResult {
  turn: number;
  from: Date;
  to: Date;
  /** Reminders that will go again before the new deadline. */
  remindersReopened: string[];
}

export async function extendDeadline(dir: string, opts: ExtendOptions): Promise<ExtendResult> {
  return withGm(dir, 'extend', opts, async (ctx) => {
    const rt = ctx.runtime;
    const from = new Date(rt.deadline);
    if ((opts.to === undefined) === (opts.by === undefined)) ctx.refuse('say either --to <time> or --by <duration>');
    const to = opts.to ?? new Date(from.getTime() + opts.by!);
    if (to.getTime() <= ctx.now.getTime()) ctx.refuse(`the new deadline ${ctx.local(to)} is not in the future (it is now ${ctx.local(ctx.now)})`);
    rt.deadline = to.toISOString();
    withdrawResolution(ctx);
    // Reminders not yet due before the new deadline go again.
    const done = rt.reminders[String(rt.turn)] ?? [];
    const reopened = ctx.schedule.reminders.filter((r) => done.includes(r.label) && to.getTime() - r.before > ctx.now.getTime()).map((r) => r.label);
    rt.reminders[String(rt.turn)] = done.filter((l) => !reopened.includes(l));
    if (rt.reminders[String(rt.turn)]!.length === 0) delete rt.reminders[String(rt.turn)];
    // A guard's hold is the GM's to settle; moving the deadline settles it for now.
    const settled = rt.holds.filter((h) => h.turn === rt.turn && h.confirmed === undefined);
    rt.holds = rt.holds.filter((h) => !settled.includes(h));
    for (const a of rt.alerts) if (a.turn === rt.turn && a.open && Object.values(HOLD_ALERTS).includes(a.kind)) a.open = false;
    const delta = to.getTime() - from.getTime();
    ctx.log('extend', `turn ${rt.turn}: deadline moved from ${ctx.local(from)} to ${ctx.local(to)} (${delta >= 0 ? '+' : ''}${formatDuration(delta)})`, rt.turn, { turn: rt.turn, text: `The deadline of turn ${rt.turn} was moved from ${ctx.local(from)} to ${ctx.local(to)}.` });
    addNotice(rt, ctx.now, { kind: 'deadline-changed', turn: rt.turn, text: `The deadline for turn ${rt.turn} is now ${ctx.local(to)} (it was ${ctx.local(from)}).` });
    await ctx.save();
    return { turn: rt.turn, from, to, remindersReopened: reopened };
  });
}

/**
 * A resolution decided by a tick that then failed (a bad _gm.yaml, say) is
 * retried by every tick; moving the deadline or pausing withdraws it.
 */
function withdrawResolution(ctx: GmContext): void {
  const rt = ctx.runtime;
  if (rt.resolving && rt.resolving.turn === rt.turn && ctx.latest < rt.turn) delete rt.resolving;
}

export interface PauseOptions extends GmOptions {
  reason?: string;
}

/** No reminders, no resolution until resume; mail is still read and receipted. */
export async function pauseCampaign(dir: string, opts: PauseOptions): Promise<{ turn: number }> {
  return withGm(dir, 'pause', opts, async (ctx) => {
    const rt = ctx.runtime;
    if (rt.paused) ctx.refuse(`already paused since ${ctx.local(rt.paused.since)}${rt.paused.reason ? ` (${rt.paused.reason})` : ''}`);
    rt.paused = { since: ctx.now.toISOString(), ...(opts.reason ? { reason: opts.reason } : {}) };
    withdrawResolution(ctx);
    ctx.log('pause', `paused at turn ${rt.turn}${opts.reason ? `: ${opts.reason}` : ''}`, rt.turn, { turn: rt.turn, text: `The game was paused during turn ${rt.turn}.` });
    addNotice(rt, ctx.now, { kind: 'paused', turn: rt.turn, text: `The game is paused${opts.reason ? ` (${opts.reason})` : ''}. Orders are still received; the deadline will be announced when it resumes.` });
    await ctx.save();
    return { turn: rt.turn };
  });
}

export interface ResumeResult {
  turn: number;
  wasPaused: boolean;
  /** Guard holds on the pending turn the GM has now overruled. */
  confirmed: Hold[];
  /** Alerts marked as dealt with. */
  acknowledged: number[];
  deadline: Date;
  /** The deadline (plus grace) has passed: the next tick resolves the turn. */
  dueNow: boolean;
}

/**
 * Unpauses, overrules the guards holding the pending turn (the GM has looked
 * and says resolve), and marks the open alerts as dealt with.
 */
export async function resumeCampaign(dir: string, opts: GmOptions): Promise<ResumeResult> {
  return withGm(dir, 'resume', opts, async (ctx) => {
    const rt = ctx.runtime;
    const wasPaused = rt.paused !== undefined;
    delete rt.paused;
    const confirmed = rt.holds.filter((h) => h.turn === rt.turn && h.confirmed === undefined);
    for (const h of confirmed) h.confirmed = ctx.now.toISOString();
    // The long-gap guard is settled for this turn even if it had not fired yet.
    if (!rt.holds.some((h) => h.turn === rt.turn && h.kind === 'long-gap')) {
      rt.holds.push({ turn: rt.turn, kind: 'long-gap', since: ctx.now.toISOString(), detail: 'confirmed in advance by fatecraft resume', confirmed: ctx.now.toISOString() });
    }
    const acknowledged = rt.alerts.filter((a) => a.open).map((a) => a.id);
    for (const a of rt.alerts) a.open = false;
    const deadline = new Date(rt.deadline);
    const dueNow = deadline.getTime() + ctx.schedule.grace <= ctx.now.getTime();
    const parts = [wasPaused ? 'unpaused' : undefined, confirmed.length ? `overruled ${confirmed.map((h) => h.kind).join(' and ')} guard` : undefined, acknowledged.length ? `acknowledged alert(s) ${acknowledged.join(', ')}` : undefined].filter(Boolean);
    const players = wasPaused ? { turn: rt.turn, text: `The game resumed; turn ${rt.turn} was due ${ctx.local(deadline)}.` } : undefined;
    ctx.log('resume', `turn ${rt.turn}: ${parts.length ? parts.join('; ') : 'nothing was held'}${dueNow ? '; the deadline has passed, so the next tick resolves the turn' : ''}`, rt.turn, players);
    if (wasPaused) addNotice(rt, ctx.now, { kind: 'resumed', turn: rt.turn, text: `The game has resumed. Turn ${rt.turn} is due ${ctx.local(deadline)}.` });
    await ctx.save();
    return { turn: rt.turn, wasPaused, confirmed, acknowledged, deadline, dueNow };
  });
}

/** One alert marked as dealt with (the web desk's button; `resume` marks them all). */
export async function acknowledgeAlert(dir: string, id: number, opts: GmOptions): Promise<Alert> {
  return withGm(dir, 'acknowledge', opts, async (ctx) => {
    const alert = ctx.runtime.alerts.find((a) => a.id === id);
    if (alert === undefined) return ctx.refuse(`there is no alert #${id}`);
    if (!alert.open) ctx.refuse(`alert #${id} was marked as dealt with already`);
    alert.open = false;
    ctx.log('acknowledge', `alert #${id} (${alert.kind}${alert.turn !== undefined ? `, turn ${alert.turn}` : ''}) marked as dealt with`, alert.turn);
    await ctx.save();
    return alert;
  });
}
