/**
 * Orders judged fit to file, put on file: the same for every door they come in by (the mail, fetch.ts; the
 * web desk, desk.ts), so the turn reads them the same whichever way they came.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { ordersDir } from '../orders/pending.js';
import type { Decision } from './decide.js';

/** Writes the orders as orders/NNNN/<nation>.yaml, and the mail that brought them (when there is one) beside them. */
export async function writeFiledOrders(campaignDir: string, decision: { nation: string; turn: number; ordersYaml: string }, raw?: Buffer): Promise<void> {
  const dir = ordersDir(campaignDir, decision.turn);
  await mkdir(dir, { recursive: true });
  await Promise.all([
    raw !== undefined ? writeFileAtomic(join(dir, `${decision.nation}.eml`), raw, { fsync: true }) : undefined,
    writeFileAtomic(join(dir, `${decision.nation}.yaml`), decision.ordersYaml, { fsync: true }),
  ]);
}

/** One line for the GM (the ledger's outcome, `mail status`): what was decided. */
export function describeDecision(decision: Decision): string {
  switch (decision.kind) {
    case 'file':
      return `filed: orders of ${decision.nation} for turn ${decision.turn}${decision.replacesEarlier ? ' (replacing earlier orders)' : ''}, ${decision.receipt.accepted.length} accepted, ${decision.receipt.problems.length} with problems${decision.replyTo ? '' : ' (no receipt: reply limit)'}`;
    case 'hold':
      return `held for the GM: orders of ${decision.nation} for turn ${decision.turn}, ${decision.receipt.accepted.length} accepted — ${decision.why}`;
    case 'refuse':
      return `refused (${decision.reason}): ${decision.detail}${decision.replyTo ? '' : ' (no answer sent)'}`;
    case 'command':
      return `command from ${decision.nation}: ${decision.commands.join(', ')}${decision.replyTo ? '' : ' (no answer: reply limit)'}`;
    case 'bounce':
      return `bounce: ${decision.facts.recipients.map((r) => `${r.address} ${r.action}`).join(', ') || 'no recipient named'}${decision.nations.length ? ` (${decision.nations.join(', ')})` : ''}`;
    case 'ignore':
      return `ignored (${decision.reason}): ${decision.detail}`;
    case 'quarantine':
      return `quarantined: ${decision.reason}`;
  }
}
