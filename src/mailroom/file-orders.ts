/**
 * Filing a nation's orders for a turn, as the mail room does for a message it accepts (fetch.ts), for held
 * orders the GM accepts (held.ts), and as any other desk that takes orders should: the one place that
 *
 *   - holds the letters in them to the season's limit when press is relayed at once (relay-limit.ts): a
 *     letter over it is left out of what is filed, and the receipt says why;
 *   - writes orders/NNNN/<nation>.yaml, and beside it the mail they came in (<nation>.eml) when there is one;
 *   - relays the letters the limit lets go (press-relay.ts).
 *
 * Every step is safe to repeat: a run killed anywhere files the same files and relays nothing twice.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { ordersDir } from '../campaign/pending-orders.js';
import type { NationId } from '../core/ids.js';
import type { GameState } from '../core/state.js';
import type { OrderReceipt } from '../orders/receipt.js';
import { relayFiled } from './press-relay.js';
import { ordersWithout, planRelay, receiptWithout, relayedLetters } from './relay-limit.js';
import type { Mailroom } from './room.js';

export interface Filing {
  nation: NationId;
  turn: number;
  /** The orders as they go on file (decide.ts: the typed orders as YAML, with the player's lines). */
  ordersYaml: string;
  receipt: OrderReceipt;
  /** The mail the orders came in, kept beside them. */
  raw?: Buffer;
}

export interface Filed {
  /** The receipt as filed: letters over the season's limit moved to its problems. */
  receipt: OrderReceipt;
  /** The receipt's paragraph on the letters relayed at once, if any. */
  relayed?: string;
}

export interface FilingOptions {
  /** The latest resolved state (for who is still in play to read a letter). */
  state: () => Promise<GameState>;
  /** Records a Message-ID queued for the filing (the inbound message's ledger entry). */
  queue: (messageId: string) => void;
  /** Called once the files are written, before any letter is relayed (a test's kill point). */
  afterFile?: () => Promise<void>;
}

export async function fileOrders(room: Pick<Mailroom, 'open' | 'secrets' | 'base' | 'addressBook' | 'enqueue' | 'mailDir' | 'dir'>, filing: Filing, opts: FilingOptions): Promise<Filed> {
  const press = room.open.campaign.rules.press;
  const relays = press.relay === 'atOnce' && filing.receipt.accepted.some((o) => o.letter !== undefined);
  const before = relays ? await relayedLetters(room.mailDir, filing.turn, filing.nation) : [];
  const plan = relays ? planRelay(filing.receipt.accepted, before, press.perTurn) : undefined;
  const receipt = plan ? receiptWithout(filing.receipt, plan.over, plan.digests.length, press.perTurn) : filing.receipt;
  const ordersYaml = plan ? ordersWithout(filing.ordersYaml, plan.over) : filing.ordersYaml;

  const dir = ordersDir(room.dir, filing.turn);
  await mkdir(dir, { recursive: true });
  await Promise.all([
    filing.raw !== undefined ? writeFileAtomic(join(dir, `${filing.nation}.eml`), filing.raw, { fsync: true }) : undefined,
    writeFileAtomic(join(dir, `${filing.nation}.yaml`), ordersYaml, { fsync: true }),
  ]);
  await opts.afterFile?.();
  if (!plan) return { receipt };
  const relayed = await relayFiled(room, opts.state, { nation: filing.nation, turn: filing.turn, season: receipt.season, letters: plan.relay, before, digests: plan.digests }, opts.queue);
  return { receipt, ...(relayed ? { relayed } : {}) };
}
