/**
 * Orders held for the GM because the sender's domain failed DMARC (decide.ts, kind `hold`). The raw mail is
 * kept under mail/held/ so that `fatecraft mail accept <campaign> <key>` can file the orders exactly as a
 * passing message would have been filed: the YAML from the recorded decision, the mail beside it, and the
 * player's receipt.
 */
import { nationsWithOrderFiles } from '../campaign/order-folder.js';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../host/atomic-file.js';
import { ordersDir } from '../orders/pending.js';
import { CampaignError } from '../campaign/problems.js';
import { initialState } from '../campaign/initial-state.js';
import { latestTurn, readState } from '../campaign/store.js';
import { fileOrders } from './file-orders.js';
import { composeAnswer } from './compose.js';
import type { Decision } from './decide.js';
import { sha256 } from './headers.js';
import type { LedgerEntry } from './ledger.js';
import type { SendSummary } from './outbox.js';
import { emptySendSummary } from './outbox.js';
import { Mailroom, type MailroomOptions } from './room.js';

const heldFile = (mailDir: string, key: string) => join(mailDir, 'held', `${sha256(key).slice(0, 40)}.eml`);

/** Keeps the raw mail of held orders until the GM accepts them. Safe to repeat. */
export async function keepHeld(mailDir: string, key: string, raw: Buffer): Promise<void> {
  await mkdir(join(mailDir, 'held'), { recursive: true });
  await writeFileAtomic(heldFile(mailDir, key), raw, { fsync: true });
}

export interface AcceptResult {
  key: string;
  nation: string;
  turn: number;
  /** Orders already on file for the nation were replaced. */
  replaced: boolean;
  sent: SendSummary;
}

/**
 * Files held orders on the GM's word: as if the message had passed, unless their turn has been resolved
 * since. `wanted` is the ledger key or the Message-ID (with or without angle brackets).
 */
export async function acceptHeld(campaignDir: string, wanted: string, opts: MailroomOptions & { send?: boolean } = {}): Promise<AcceptResult> {
  return Mailroom.run(campaignDir, opts, async (room) => {
    const ledgerFile = join(room.mailDir, 'ledger');
    const id = wanted.trim().replace(/^<|>$/g, '').toLowerCase();
    const entry = (await room.ledger.all()).find((e) => e.key === wanted.trim() || e.inbound.messageId?.replace(/^<|>$/g, '').toLowerCase() === id);
    if (entry === undefined) throw new CampaignError([{ file: ledgerFile, message: `no message "${wanted}" in the mail ledger; fatecraft mail status lists the held ones` }]);
    const decision = entry.decision;
    if (decision?.kind !== 'hold') {
      const what = entry.history?.some((h) => h.outcome.startsWith('held')) ? 'was accepted already' : `was not held (${entry.outcome ?? entry.status})`;
      throw new CampaignError([{ file: ledgerFile, message: `the message ${entry.key} ${what}` }]);
    }
    const latestResolved = await latestTurn(room.dir);
    const latest = latestResolved ?? 0;
    if (decision.turn <= latest) {
      throw new CampaignError([{ file: ledgerFile, message: `the held orders of ${decision.nation} are for turn ${decision.turn}, which has been resolved since; they can no longer be filed` }]);
    }

    const replaced = (await nationsWithOrderFiles(ordersDir(room.dir, decision.turn), (id) => id === decision.nation)).length > 0;
    const raw = heldFile(room.mailDir, entry.key);
    // Filed as a passing message would have been, the letters in them relayed now when the campaign relays at once.
    const queued: string[] = [];
    const state = async () => (latestResolved === undefined ? initialState(room.open.file) : readState(room.dir, latestResolved, room.open.campaign));
    const receipt = { ...decision.receipt, replacesEarlier: replaced };
    const filing = { nation: decision.nation, turn: decision.turn, ordersYaml: decision.ordersYaml, receipt, ...(existsSync(raw) ? { raw: await readFile(raw) } : {}) };
    const done = await fileOrders(room, filing, { state, queue: (id) => queued.push(id) });

    const filed: Decision = {
      kind: 'file',
      nation: decision.nation,
      turn: decision.turn,
      replacesEarlier: replaced,
      receipt: done.receipt,
      ordersYaml: decision.ordersYaml,
      ...(decision.replyTo !== undefined ? { replyTo: decision.replyTo } : {}),
    };
    const updated: LedgerEntry = {
      ...entry,
      decision: filed,
      outcome: `filed on the GM's word (fatecraft mail accept): orders of ${decision.nation} for turn ${decision.turn}${replaced ? ' (replacing earlier orders)' : ''}`,
      history: [...(entry.history ?? []), { at: entry.doneAt ?? entry.decidedAt ?? entry.receivedAt, outcome: entry.outcome ?? 'held' }],
    };
    const relayed = done.relayed;
    if (queued.length) updated.queued = [...(entry.queued ?? []), ...queued];
    if (decision.replyTo !== undefined) {
      const answer = composeAnswer({ ...room.base(), key: `${entry.key}:accepted`, inbound: entry.inbound, decision: filed, to: decision.replyTo, ...(relayed ? { relayed } : {}) });
      if (answer) {
        await room.enqueue(answer.message, answer.kind, `receipt for ${decision.nation} (accepted by the GM)`);
        updated.queued = [...(updated.queued ?? entry.queued ?? []), answer.message.messageId];
      }
    }
    await room.ledger.put(updated);
    await rm(raw, { force: true });
    room.log(`filed the held orders of ${decision.nation} for turn ${decision.turn}`);
    const sent = opts.send === false ? emptySendSummary() : await room.deliver();
    return { key: entry.key, nation: decision.nation, turn: decision.turn, replaced, sent };
  });
}
