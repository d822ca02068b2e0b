import { join } from 'node:path';
import { turnDirName } from '../campaign/store.js';
import { bounceAlertKey, dealtWithAt, logOp, raiseAlert } from './runtime.js';
import { plainText } from '../text/escape.js';
import { staleReason } from './stale-notices.js';
import type { TickSession } from './tick-session.js';

/*
 * What a tick owes people, handed to its hooks: the players' first mail, each
 * turn's reports, notices, seat invitations and the GM's alerts. Each is marked
 * done in runtime.yaml (and saved) only after its hook returned, so a tick
 * killed in between sends it again under the same key, which the hooks send
 * once; a hook that throws leaves it owed and raises an alert.
 */

/** The players' first mail, before anything else; a failure is the GM's to finish with `fatecraft start`. */
export async function startCampaign(s: TickSession): Promise<void> {
  if (!s.hooks.startCampaign) return;
  try {
    await s.hooks.startCampaign(s.context());
  } catch (e) {
    mailFailure(s, 'start', `starting the campaign (turn 0, tokens, the players' first mail) failed: ${(e as Error).message}; finish it with: fatecraft start ${s.dir}`);
    await s.save();
  }
}

/** Each turn's reports still owed, in the order the turns were resolved. */
export async function sendReports(s: TickSession): Promise<void> {
  for (const due of [...s.runtime.reportsDue]) {
    const turnDir = join(s.dir, 'turns', turnDirName(due.turn));
    try {
      await s.hooks.sendReports(s.context(), { key: `reports-${due.turn}${due.rerun ? `-rerun-${due.rerun}` : ''}`, turn: due.turn, rerun: due.rerun, turnDir });
    } catch (e) {
      mailFailure(s, `reports-${due.turn}-${due.rerun}`, `sending the reports of turn ${due.turn} failed: ${(e as Error).message}`);
      await s.save();
      continue;
    }
    s.runtime.reportsDue = s.runtime.reportsDue.filter((r) => r !== due);
    s.say(`sent the reports of turn ${due.turn}${due.rerun ? ` (rerun ${due.rerun})` : ''}`);
    await s.save();
  }
}

/** Notices to players not yet sent; one the turn has overtaken is dropped and logged instead. */
export async function sendNotices(s: TickSession): Promise<void> {
  for (const notice of s.runtime.notices.filter((n) => !n.sent && n.dropped === undefined)) {
    const stale = staleReason(notice, s.runtime);
    if (stale !== undefined) {
      notice.dropped = stale;
      logOp(s.runtime, s.now, 'notice-dropped', `notice ${notice.id} (${notice.kind}) not sent: ${stale}`, notice.turn);
      s.say(`dropped notice ${notice.id} (${notice.kind}) unsent: ${stale}`);
      await s.save();
      continue;
    }
    try {
      await s.hooks.sendNotice(s.context(), notice);
    } catch (e) {
      mailFailure(s, `notice-${notice.id}`, `sending notice ${notice.id} (${notice.kind}) failed: ${(e as Error).message}`);
      await s.save();
      continue;
    }
    notice.sent = true;
    await s.save();
  }
}

/** Alerts for the GM not yet mailed. */
export async function sendAlerts(s: TickSession): Promise<void> {
  for (const alert of s.runtime.alerts.filter((a) => !a.mailed)) {
    try {
      await s.hooks.sendGmAlert(s.context(), alert);
    } catch (e) {
      s.say(`could not mail alert ${alert.id} to the GM: ${(e as Error).message}`);
      continue;
    }
    alert.mailed = true;
    await s.save();
  }
}

/** A message that could not go out: said, and an alert raised for the GM (once per key). */
export function mailFailure(s: TickSession, what: string, message: string): void {
  s.say(message);
  raiseAlert(s.runtime, s.now, { key: `mail-failure:${s.runtime.turn}:${what}`, kind: 'mail-failure', turn: s.runtime.turn, message });
}

/** Invitations not yet in the outgoing queue (autofill's, or a GM's whose mail failed). */
export async function sendOffers(s: TickSession): Promise<void> {
  if (!s.hooks.sendSeatOffer) return;
  for (const offer of (s.runtime.offers ?? []).filter((o) => o.status === 'open' && !o.mailed)) {
    try {
      await s.hooks.sendSeatOffer(s.context(), offer);
    } catch (e) {
      mailFailure(s, `offer-${offer.id}`, `sending invitation ${offer.id} (${offer.nation} to ${offer.address}) failed: ${(e as Error).message}`);
      await s.save();
      continue;
    }
    offer.mailed = true;
    await s.save();
  }
}

/**
 * Each report or notice that bounced since the GM last ran `resume` becomes an alert: `status` shows it and
 * `status --check` fails until the GM has dealt with it. The mail loop has already mailed the GM about it,
 * so the alert is not mailed again.
 */
export async function bouncesAsAlerts(s: TickSession): Promise<void> {
  const mail = await s.hooks.mailStatus?.(s.dir, s.open);
  const since = dealtWithAt(s.runtime);
  let raised = false;
  for (const b of mail?.bounces ?? []) {
    if (b.action !== 'failed' || Date.parse(b.at) <= since) continue;
    // The address and the diagnostic come from the delivery report: other people's text, kept to one plain line.
    const who = `${plainText(b.address)}${b.nations.length ? ` (${b.nations.join(', ')})` : ''}`;
    const alert = raiseAlert(s.runtime, s.now, { key: bounceAlertKey(b), kind: 'bounce', turn: s.runtime.turn, message: `mail to ${who} bounced${b.diagnostic ? `: ${plainText(b.diagnostic)}` : ''}; check the address in campaign.yaml or ask the player for a new one, then: fatecraft resume ${s.dir}` });
    if (!alert) continue;
    alert.mailed = true;
    raised = true;
    s.say(`mail to ${who} bounced`);
  }
  if (raised) await s.save();
}
