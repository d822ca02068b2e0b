import { existsSync } from 'node:fs';
import { readdir, unlink } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { asNationId, compareIds, type NationId } from '../core/ids.js';
import type { SeatPolicy } from '../core/orders.js';

/**
 * What counts as a nation's orders in orders/NNNN/, decided once by name for
 * every command that reads the folder (turn, rerun, turn --preview, status,
 * the mail fetch, the report of a resolved turn): a nation's orders are
 * <nation>.yaml or <nation>.yml (an order sheet) or <nation>.txt (the
 * plain-text order language), read as `fatecraft check` reads them. The
 * mail's own copy, <nation>.eml, sits beside the sheet filed from it.
 *
 * A seat's policy's orders (`<nation>.caretaker.yaml`, `<nation>.disorder.yaml`,
 * filed by src/seats for a silent player; docs/operations.md, "Missing
 * players") are read too, as `seats`: they speak for a nation only when its
 * player's own orders are not there, and they do not count as its player's.
 *
 * Anything else is not read, and said so by every command that skips it
 * (`unread`): a mail with no sheet beside it, a file not named after a
 * nation, a name with another ending. Two order files for one nation
 * (`clashes`) leave no way to tell which is meant: the turn is not resolved
 * until one of them goes.
 */
export type OrderFormat = 'yaml' | 'text';

export const ORDER_FILE_ENDINGS: Readonly<Record<string, OrderFormat>> = { '.yaml': 'yaml', '.yml': 'yaml', '.txt': 'text' };

/** The GM's own file among the orders; it is not a nation's. */
export const GM_ORDERS_FILE = '_gm.yaml';

export interface OrderFileName {
  name: string;
  nation: string;
  format: OrderFormat;
}

export interface UnreadFile {
  name: string;
  /** Why it is not read, and what to do: one sentence for the GM. */
  why: string;
}

/** The policies whose orders are filed beside a nation's own, as `<nation>.<policy>.yaml`. */
export const SEAT_FILE_POLICIES: readonly SeatPolicy[] = ['caretaker', 'disorder'];

/** The file a seat's policy's orders are filed as, in orders/NNNN/. */
export const seatFileName = (nation: string, policy: SeatPolicy) => `${nation}.${policy}.yaml`;

/** The nation and policy of a seat's order file name, if it is one. */
export function seatFileOf(name: string): { nation: NationId; policy: SeatPolicy } | undefined {
  const m = /^([a-z0-9][a-z0-9_-]*)\.([a-z]+)\.yaml$/.exec(name);
  const policy = m?.[2] as SeatPolicy | undefined;
  return m && policy && SEAT_FILE_POLICIES.includes(policy) ? { nation: asNationId(m[1]!), policy } : undefined;
}

export interface SeatFileName {
  name: string;
  nation: NationId;
  policy: SeatPolicy;
}

export interface OrderFolderPlan {
  /** One order file per nation that has one, in id order. */
  orders: OrderFileName[];
  /** A seat policy's orders, in name order; the reader uses one only for a nation without `orders`. */
  seats: SeatFileName[];
  unread: UnreadFile[];
  /** Nations with two or more order files: none of them is read. */
  clashes: { nation: string; names: string[] }[];
}

/** The nation an order file is for, and how it reads, by its name alone; undefined for any other name. */
export function orderFileName(name: string): { nation: string; format: OrderFormat } | undefined {
  const ending = extname(name).toLowerCase();
  const format = ORDER_FILE_ENDINGS[ending];
  if (!format || name === GM_ORDERS_FILE) return undefined;
  return { nation: name.slice(0, -ending.length), format };
}

/** Sorts the names found in an orders folder into order files, files not read, and clashes. */
export function planOrderFolder(names: readonly string[], isNation: (id: string) => boolean): OrderFolderPlan {
  const byNation = new Map<string, OrderFileName[]>();
  const unread: UnreadFile[] = [];
  const mails: string[] = [];
  const seats: SeatFileName[] = [];
  for (const name of [...names].sort(compareIds)) {
    // Hidden files and the temporaries of atomic writes are nobody's orders.
    if (name.startsWith('.') || name === GM_ORDERS_FILE) continue;
    const seat = seatFileOf(name);
    if (seat && isNation(seat.nation)) {
      seats.push({ name, ...seat });
      continue;
    }
    if (extname(name).toLowerCase() === '.eml') {
      mails.push(name);
      continue;
    }
    const file = orderFileName(name);
    if (!file) {
      unread.push({ name, why: `not an order file: a nation's orders are <nation>.yaml, <nation>.yml or <nation>.txt` });
      continue;
    }
    if (!isNation(file.nation)) {
      const lower = file.nation.toLowerCase();
      unread.push({ name, why: isNation(lower) ? `nation ids are written in small letters: name it ${lower}${extname(name).toLowerCase()}` : `no nation "${file.nation}" in campaign.yaml: an order file is named after its nation's id` });
      continue;
    }
    const list = byNation.get(file.nation) ?? [];
    list.push({ name, ...file });
    byNation.set(file.nation, list);
  }
  for (const name of mails) {
    const nation = name.slice(0, -'.eml'.length);
    if (byNation.has(nation)) continue;
    unread.push({
      name,
      why: `a mail with no order sheet beside it is not read as orders: put it in the mail inbox for the next fetch, or write its orders as ${isNation(nation) ? nation : '<nation>'}.txt (fatecraft check shows what they give)`,
    });
  }
  const orders: OrderFileName[] = [];
  const clashes: OrderFolderPlan['clashes'] = [];
  for (const nation of [...byNation.keys()].sort(compareIds)) {
    const files = byNation.get(nation)!;
    if (files.length === 1) orders.push(files[0]!);
    else clashes.push({ nation, names: files.map((f) => f.name) });
  }
  return { orders, seats, unread: unread.sort((a, b) => compareIds(a.name, b.name)), clashes };
}

/** The regular files' names in an orders folder (none when it does not exist). */
export async function orderFolderNames(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
}

/** The nations with orders in the folder, as every command counts them. */
export async function nationsWithOrderFiles(dir: string, isNation: (id: string) => boolean): Promise<string[]> {
  const plan = planOrderFolder(await orderFolderNames(dir), isNation);
  return [...plan.orders.map((o) => o.nation), ...plan.clashes.map((c) => c.nation)].sort(compareIds);
}

/** The folder's files not read as orders, and its clashes, as lines for the GM (empty when there are none). */
export function unreadLines(plan: OrderFolderPlan, folder: string): string[] {
  return [
    ...plan.clashes.map((c) => `${folder}/: ${c.names.join(' and ')} are both orders of ${c.nation}; none is read until one goes (the turn waits)`),
    ...plan.unread.map((u) => `${folder}/${u.name} is not read as orders: ${u.why}`),
  ];
}

/**
 * Orders filed for a nation as <nation>.yaml replace whatever order file it
 * had in the folder: its .txt or .yml go, so the new sheet is its only one.
 */
export async function removeOtherOrderFiles(dir: string, nation: string, kept = `${nation}.yaml`): Promise<string[]> {
  const gone: string[] = [];
  for (const name of await orderFolderNames(dir)) {
    if (name === kept || orderFileName(name)?.nation !== nation) continue;
    await unlink(join(dir, name));
    gone.push(name);
  }
  return gone;
}
