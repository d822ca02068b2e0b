/**
 * Which resolved turns' reports have not been mailed. The outgoing queue is the record: a turn's reports
 * count as mailed once its GM report is queued (it is queued with, and after, every nation's), at the
 * turn's current version (turn-version.ts) — after `fatecraft rerun`, or a rollback and the turn resolved
 * anew, the new reports are owed again.
 *
 * Turns before the latest turn ever mailed that were never mailed themselves (played before the campaign
 * had mail) are not owed; a campaign that never mailed a report owes every resolved turn's.
 */
import { listTurns, type OpenCampaign } from '../campaign/store.js';
import { turnVersion } from '../campaign/turn-version.js';
import { messageIdFor } from './compose.js';
import { mailDir, mailSettingsOf } from './config.js';
import { OutboxQueue } from './outbox.js';

export interface ReportsOwed {
  turn: number;
  /** 0 for the first resolution; k after the k-th rerun (the reports go out marked as corrections). */
  rerun: number;
}

/** Oldest first; empty when the campaign has no mail: block. */
export async function reportsNotMailed(open: OpenCampaign): Promise<ReportsOwed[]> {
  const settings = await mailSettingsOf(open);
  if (settings === undefined) return [];
  const queue = new OutboxQueue(mailDir(open.dir));
  const base = { settings, campaign: { name: open.campaign.name, title: open.campaign.title } };
  const queued = (turn: number, rerun: number) => queue.has(messageIdFor(base, 'gm-report', turn, `rerun-${rerun}`));
  const turns: { turn: number; rerun: number; current: boolean; any: boolean }[] = [];
  for (const turn of (await listTurns(open.dir)).filter((t) => t >= 1)) {
    const rerun = await turnVersion(open.dir, turn);
    let any = false;
    for (let k = 0; k <= rerun && !any; k++) any = queued(turn, k);
    turns.push({ turn, rerun, current: queued(turn, rerun), any });
  }
  const lastMailed = Math.max(0, ...turns.filter((t) => t.any).map((t) => t.turn));
  return turns.filter((t) => !t.current && (t.turn > lastMailed || t.any)).map(({ turn, rerun }) => ({ turn, rerun }));
}

/** "turn 1, turn 3 (corrected, rerun 1)" */
export function owedText(owed: readonly ReportsOwed[]): string {
  return owed.map((o) => `turn ${o.turn}${o.rerun ? ` (corrected, rerun ${o.rerun})` : ''}`).join(', ');
}
