/**
 * The limit on letters when press is relayed at once (rules.press.relay: atOnce, docs/rules.md P2). A letter
 * mailed to its readers cannot be taken back, so it counts against its sender's `perTurn` for the season
 * whatever the sender's later orders say: mail/relayed/<turn>.yaml records, per nation, a digest of every
 * letter relayed that season. Orders filed later may hold the letters relayed before (they are not relayed
 * again, nor counted again) and new letters while the count allows; a new letter beyond it is neither relayed
 * nor filed, and the receipt says why. So whatever a player resubmits, the readers get at most `perTurn`
 * letters from the nation a season, by mail and in the report together.
 *
 * The record is written once the letters are queued: a run killed in between plans again from the same record,
 * finds the same letters and queues them again, which queues nothing twice (their Message-IDs are stable).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import jsyaml from 'js-yaml';
import { writeFileAtomic } from '../host/atomic-file.js';
import { isMap, isSeq, parseDocument } from 'yaml';
import { turnDirName } from '../campaign/store.js';
import { writeYaml } from '../campaign/yaml-io.js';
import type { OrderReceipt, ReceiptOrder } from '../orders/receipt.js';
import { sha256 } from './headers.js';

type Letter = NonNullable<ReceiptOrder['letter']>;

/** What makes two letters the same letter: their addressees, whether signed, their words. */
export const letterDigest = (l: Letter): string => sha256(JSON.stringify([l.to === 'all' ? 'all' : [...l.to].sort(), l.anonymous === true, l.text]));

const recordFile = (mailDir: string, turn: number) => join(mailDir, 'relayed', `${turnDirName(turn)}.yaml`);

/** The digests of the letters a nation has had relayed this turn. */
export async function relayedLetters(mailDir: string, turn: number, nation: string): Promise<string[]> {
  return (await readRecord(mailDir, turn))[nation] ?? [];
}

async function readRecord(mailDir: string, turn: number): Promise<Record<string, string[]>> {
  const file = recordFile(mailDir, turn);
  if (!existsSync(file)) return {};
  const value = jsyaml.load(await readFile(file, 'utf8'), { schema: jsyaml.CORE_SCHEMA });
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string[]>) : {};
}

/** Adds letters to the nation's record for the turn (repeating it changes nothing). */
export async function recordRelayed(mailDir: string, turn: number, nation: string, digests: readonly string[]): Promise<void> {
  const record = await readRecord(mailDir, turn);
  const before = record[nation] ?? [];
  const after = [...new Set([...before, ...digests])];
  if (after.length === before.length) return;
  record[nation] = after;
  await mkdir(join(mailDir, 'relayed'), { recursive: true });
  await writeFileAtomic(recordFile(mailDir, turn), `# Letters relayed at once this turn, by nation: digests of each letter (docs/rules.md P2).\n${writeYaml(record)}`, { fsync: true });
}

export interface RelayPlan {
  /** The accepted letters to relay (those relayed before among them are not mailed again). */
  relay: ReceiptOrder[];
  /** Letters over the limit: not relayed, not filed. */
  over: ReceiptOrder[];
  /** The record after this filing. */
  digests: string[];
}

/** Which of the orders' letters may go, given those relayed before this turn and the limit. */
export function planRelay(accepted: readonly ReceiptOrder[], relayedBefore: readonly string[], perTurn: number): RelayPlan {
  const digests = [...relayedBefore];
  const plan: RelayPlan = { relay: [], over: [], digests };
  for (const order of accepted) {
    if (order.letter === undefined) continue;
    const digest = letterDigest(order.letter);
    if (digests.includes(digest)) plan.relay.push(order);
    else if (digests.length < perTurn) {
      digests.push(digest);
      plan.relay.push(order);
    } else plan.over.push(order);
  }
  return plan;
}

/** The receipt with the letters over the limit moved from the accepted orders to the problems. */
export function receiptWithout(receipt: OrderReceipt, over: readonly ReceiptOrder[], relayedCount: number, perTurn: number): OrderReceipt {
  if (over.length === 0) return receipt;
  const letters = `${relayedCount} letter${relayedCount === 1 ? '' : 's'}`;
  const problems = over.map((o) => ({
    ...(o.line !== undefined ? { line: o.line } : {}),
    text: o.text,
    reason: `not relayed and left out of your orders: you have sent ${letters} this season already (relayed at once: a relayed letter cannot be taken back), the most a nation may send a turn (${perTurn})`,
    valid: 'letters already relayed may stay in your orders; new ones can go next season',
  }));
  return { ...receipt, accepted: receipt.accepted.filter((o) => !over.includes(o)), problems: [...receipt.problems, ...problems].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)), ok: false };
}

/** The filed orders (orders/NNNN/<nation>.yaml as decide.ts wrote them) without the letters over the limit. */
export function ordersWithout(ordersYaml: string, over: readonly ReceiptOrder[]): string {
  if (over.length === 0) return ordersYaml;
  const doc = parseDocument(ordersYaml);
  const orders = doc.get('orders');
  if (!isSeq(orders)) return ordersYaml;
  for (const o of over) {
    const l = o.letter!;
    const at = orders.items.findIndex((item) => {
      if (!isMap(item)) return false;
      const press = item.toJSON() as { press?: unknown; text?: unknown; anonymous?: unknown };
      return JSON.stringify(press.press) === JSON.stringify(l.to) && press.text === l.text && (press.anonymous === true) === (l.anonymous === true);
    });
    if (at >= 0) orders.items.splice(at, 1);
  }
  return doc.toString({ lineWidth: 0 });
}
