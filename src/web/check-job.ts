/**
 * One check the desk asks for, as plain data that crosses to a checker thread (check-pool.ts), and its
 * answer: the mail's own judgement of a typed sheet (judgeDeskSheet, as the live check shows it), or the
 * receipt of the orders on file (as the order page shows them). The same function answers in a worker
 * and in the desk's own thread, so the answer cannot depend on which thread gave it.
 */
import type { Campaign } from '../core/campaign.js';
import type { NationId } from '../core/ids.js';
import type { GameState } from '../core/state.js';
import type { Decision } from '../mailroom/decide.js';
import { judgeDeskSheet } from '../mailroom/desk.js';
import type { OrderFormat } from '../campaign/order-folder.js';
import { buildReceipt, type OrderReceipt } from '../orders/receipt.js';
import { readTextSheet } from '../orders/text-sheet.js';
import { readYamlSheet } from '../orders/yaml-sheet.js';

export type CheckJob =
  | {
      kind: 'judge';
      /** The campaign folder: the thread reads the latest state from it (and keeps it while it is unchanged). */
      dir: string;
      nation: NationId;
      text: string;
      /** The nation's order token: the session stands for it (undefined: none set, refused as by mail). */
      token: string | undefined;
      /** SHA-256 digests of the nation's replaced tokens. */
      retired: readonly string[];
      onFile: boolean;
      late: boolean;
      /** The turn the form was made for. */
      turn?: number;
      /** The nation's first address, named in the answer. */
      address: string;
    }
  /** The orders on file, read as every command reads them by their name (campaign/order-folder.ts). */
  | { kind: 'on-file'; dir: string; nation: NationId; bytes: Uint8Array; format: OrderFormat };

export type CheckAnswer = { kind: 'judge'; decision: Decision } | { kind: 'on-file'; receipt: OrderReceipt };

/** What the receipt of orders on file says its line numbers count. */
export const ON_FILE_LINES = 'the orders as they were sent';

/** The answer to a job, against the campaign's latest resolved state. No I/O. */
export function answerCheck(job: CheckJob, campaign: Campaign, state: GameState): CheckAnswer {
  if (job.kind === 'on-file') {
    const sheet = job.format === 'yaml' ? readYamlSheet(job.bytes) : readTextSheet(job.bytes);
    return { kind: 'on-file', receipt: buildReceipt({ campaign, state, sheet, nation: job.nation, linesOf: ON_FILE_LINES }).receipt };
  }
  const { nation, token } = job;
  const tokens = { token: (n: string) => (n === nation ? token : undefined), nationsWithTokens: () => (token !== undefined ? [nation] : []) };
  const ctx = { campaign, state, tokens, retiredTokens: { [nation]: job.retired }, ordersOnFile: new Set(job.onFile ? [nation] : []), late: job.late, campaignDir: job.dir };
  // receivedAt is named only in the header of orders written out, which a check never writes.
  const decision = judgeDeskSheet(job.text, nation, ctx, { address: job.address, receivedAt: '', checkOnly: true, ...(job.turn !== undefined ? { turn: job.turn } : {}) });
  return { kind: 'judge', decision };
}
