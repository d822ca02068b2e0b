/**
 * Filing a nation's orders for a turn, as the mail room does for a message it accepts (fetch.ts), for held
 * orders the GM accepts (held.ts), and as any other desk that takes orders should: the one place that
 *
 *   - holds the letters in them to the season's limit when press is relayed at once (relay-limit.ts): a
 *     letter over it is left out of what is filed, and the receipt says why;
 *   - writes orders/NNNN/<nation>.yaml, and beside it the mail they came in (<nation>.eml) when there is one,
 *     its order token replaced by a fingerprint (the campaign folder may go into git);
 *   - relays the letters the limit lets go (press-relay.ts).
 *
 * Every step is safe to repeat: a run killed anywhere files the same files and relays nothing twice.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../host/atomic-file.js';
import { ordersDir } from '../orders/pending.js';
import { removeOtherOrderFiles } from '../campaign/order-folder.js';
import { turnDirName } from '../campaign/store.js';
import { tokenDigest } from '../campaign/secrets.js';
import { redactSecret } from '../mail/redact.js';
import type { NationId } from '../core/ids.js';
import type { GameState } from '../core/state.js';
import type { OrderReceipt } from '../orders/receipt.js';
import { relayFiled } from './press-relay.js';
import { ordersWithout, planRelay, receiptWithout, relayedLetters } from './relay-limit.js';
import type { BatchFlush } from './batch-flush.js';
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
  /** Writes the orders and the mail without waiting for their fsync, noting them here to be flushed with the batch (batch-flush.ts). */
  flush?: BatchFlush;
}

export async function fileOrders(room: Pick<Mailroom, 'open' | 'secrets' | 'base' | 'addressBook' | 'enqueue' | 'mailDir' | 'dir'>, filing: Filing, opts: FilingOptions): Promise<Filed> {
  const press = room.open.campaign.rules.press;
  const relays = press.relay === 'atOnce' && filing.receipt.accepted.some((o) => o.letter !== undefined);
  const before = relays ? await relayedLetters(room.mailDir, filing.turn, filing.nation) : [];
  const plan = relays ? planRelay(filing.receipt.accepted, before, press.perTurn) : undefined;
  const receipt = plan ? receiptWithout(filing.receipt, plan.over, plan.digests.length, press.perTurn) : filing.receipt;
  const ordersYaml = plan ? ordersWithout(filing.ordersYaml, plan.over) : filing.ordersYaml;

  const dir = ordersDir(room.dir, filing.turn);
  const mail = filing.raw !== undefined ? await mailToFile(room, filing) : undefined;
  const write = async (file: string, data: string | Buffer) => {
    await writeFileAtomic(file, data, { makeFolder: true, fsync: opts.flush === undefined });
    opts.flush?.add(file);
  };
  await Promise.all([mail !== undefined ? write(join(dir, `${filing.nation}.eml`), mail) : undefined, write(join(dir, `${filing.nation}.yaml`), ordersYaml)]);
  // A submission replaces the nation's orders whole, in whatever form the GM filed them before (order-folder.ts).
  await removeOtherOrderFiles(dir, filing.nation);
  await opts.afterFile?.();
  if (!plan) return { receipt };
  const relayed = await relayFiled(room, opts.state, { nation: filing.nation, turn: filing.turn, season: receipt.season, letters: plan.relay, before, digests: plan.digests }, opts.queue);
  return { receipt, ...(relayed ? { relayed } : {}) };
}

/** How the order token shows in a filed mail: enough to tell which token it was (runtime.yaml keeps the SHA-256 of old ones), not to use it. */
export const tokenFingerprint = (token: string) => `[order token sha256:${tokenDigest(token).slice(0, 12)}]`;

/**
 * The mail as filed beside the orders: the campaign folder may go into git, so the nation's order token is
 * replaced by its fingerprint wherever the mail carries it (src/mail/redact.ts). In the rare mail where that
 * cannot be made sure of (the token split by markup), the mail as received is kept under mail/unredacted/
 * (private, with the rest of mail/) and the filed copy holds its headers and a line saying where it is.
 */
async function mailToFile(room: Pick<Mailroom, 'secrets' | 'mailDir'>, filing: Filing): Promise<Buffer> {
  const raw = filing.raw!;
  const token = room.secrets.token(filing.nation);
  if (token === undefined) return raw;
  const redacted = await redactSecret(raw, token, tokenFingerprint(token));
  if (redacted.complete) return redacted.bytes;
  const kept = join(room.mailDir, 'unredacted', turnDirName(filing.turn), `${filing.nation}.eml`);
  await mkdir(dirname(kept), { recursive: true });
  await writeFileAtomic(kept, raw, { mode: 0o600, fsync: true });
  const text = raw.toString('latin1');
  const end = /\r?\n\r?\n/.exec(text);
  const head = (end ? text.slice(0, end.index) : text).split(token).join(tokenFingerprint(token)).replace(/^content-(?:type|transfer-encoding):.*(?:\r?\n[ \t].*)*\r?\n?/gim, '');
  const note = `The body of this mail could not be kept here without its order token. The mail as received is in the campaign's private mail folder: mail/unredacted/${turnDirName(filing.turn)}/${filing.nation}.eml.`;
  return Buffer.from(`${head.trimEnd()}\r\nContent-Type: text/plain; charset=utf-8\r\nX-Fatecraft-Redacted: body withheld\r\n\r\n${note}\r\n`, 'latin1');
}
