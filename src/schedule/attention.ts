import { plainText } from '../text/escape.js';
import { HOLD_ALERTS } from './runtime.js';
import type { CampaignStatus } from './status.js';

/**
 * What needs the GM now, from a campaign's status: the answer of `fatecraft status --check`, which a
 * monitor (cron's MAILTO, systemd's OnFailure) runs to hear of trouble without reading the whole status.
 * Each item is one short line; none when all is well. Things the GM chose (a pause) or that a running
 * tick is about to do (reports not yet mailed) are not trouble.
 */
export interface NeedsGm {
  what: 'damaged-turn' | 'interrupted-operation' | 'orders-not-read' | 'alert' | 'hold' | 'no-tick' | 'mail-server' | 'mail-failed' | 'bounce';
  line: string;
}

/** The first line of a message, cut short: the one-line summary names things, `status` tells the rest. */
function short(text: string, max = 160): string {
  const first = text.split('\n', 1)[0]!.trim();
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}

export function needsTheGm(s: CampaignStatus): NeedsGm[] {
  const out: NeedsGm[] = [];
  if (s.turnFolder) out.push({ what: 'damaged-turn', line: short(s.turnFolder.message, 240) });
  if (s.operation) out.push({ what: 'interrupted-operation', line: `GM operation ${s.operation.kind} was interrupted; ${s.operation.whole ? 'the next tick or GM command completes it or undoes it' : `finish it: ${s.operation.command}`}` });
  if (s.ordersNotRead.length) out.push({ what: 'orders-not-read', line: `${s.ordersNotRead.length === 1 ? 'a file' : `${s.ordersNotRead.length} files`} in orders/ not read as orders: ${short(s.ordersNotRead[0]!)}` });
  for (const a of s.alerts) out.push({ what: 'alert', line: `alert #${a.id} ${a.kind}${a.turn !== undefined ? ` turn ${a.turn}` : ''}: ${short(a.message.split(/; |\. /, 1)[0]!)}` });
  // A hold always comes with an alert, until `resume` closes the alert; a hold left after that still waits for the GM.
  for (const h of s.holds) if (!h.confirmed && !s.alerts.some((a) => a.turn === h.turn && a.kind === HOLD_ALERTS[h.kind])) out.push({ what: 'hold', line: `turn ${h.turn} is held (${h.kind}): ${short(h.detail)}` });
  if (s.tickGap) out.push({ what: 'no-tick', line: `no tick for ${s.tickGap.silence} (longer than maxTickGap ${s.tickGap.limit}); last tick ${s.lastTick!.local}: is cron or the timer running?` });
  if (s.mail.serverDown) out.push({ what: 'mail-server', line: `the mail server has not answered since ${s.mail.serverDown.since}: ${short(s.mail.serverDown.error)}` });
  const failed = s.newMailFailures;
  if (failed.length) out.push({ what: 'mail-failed', line: `${failed.length} message(s) could not be sent, e.g. to ${failed[0]!.to}: ${short(failed[0]!.error)}` });
  if (s.bounces.length) {
    const b = s.bounces[0]!;
    out.push({ what: 'bounce', line: `${s.bounces.length} bounce(s) not yet dealt with, e.g. mail to ${b.address}${b.nations.length ? ` (${b.nations.join(', ')})` : ''}: ${b.action}${b.diagnostic ? ` — ${short(b.diagnostic, 80)}` : ''}` });
  }
  return out;
}

/**
 * The one line `status --check` prints when something needs the GM. Addresses and bounce diagnostics are
 * other people's text, on the GM's terminal or in cron's mail: one line, nothing a terminal acts on.
 */
export function checkLine(dir: string, items: readonly NeedsGm[]): string {
  return plainText(`fatecraft: ${dir} needs the GM: ${items.map((i) => i.line).join('; ')} (fatecraft status ${dir})`.replace(/[\r\n]+/g, ' '));
}
