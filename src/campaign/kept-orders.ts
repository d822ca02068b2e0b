import { constants, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, unlinkSync, type Stats } from 'node:fs';
import { copyFile, link, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FileIdentity } from './regular-file.js';
import { orderFileName } from './order-folder.js';
import { isFolderSink, syncDir, syncFile, type FileSink } from './staging.js';
import { turnDirName } from './turn-folders.js';

/**
 * A turn's orders are stored once. Until the turn is resolved they live in
 * orders/NNNN/, where mail and the GM put them; the resolved turn keeps them
 * in turns/NNNN/orders/ and orders/NNNN/ lets them go. The move is made of
 * hard links, so it never writes an order's bytes a second time and is
 * crash-safe at each step:
 *
 * 1. the turn being built links each file it read (writeTurn's staging folder);
 * 2. the turn folder is renamed into place, orders and all;
 * 3. orders/NNNN/ drops the names it shares with the turn (releaseKeptOrders).
 *
 * A crash between 2 and 3 leaves two names for one file (counted once by
 * `fatecraft status`), which the next turn drops before it reads its own. A copy, not a link, is written only where a
 * link cannot be made (another file system) or the file changed since it
 * was read.
 *
 * Why not a link left in both places: a GM who fixes orders/NNNN/x.yaml in
 * place for a rerun would then change the record of the turn being replaced
 * too (one file, two names). Why not a reference to orders/NNNN: the same,
 * and a rerun would lose the orders it replaced. With the move, the GM puts a
 * corrected file in orders/NNNN/ (a new file), and a rerun takes the turn's
 * own orders for every nation that has none there (restoreKeptOrders).
 */
export interface KeptFile {
  bytes: Buffer;
  /** The file the bytes were read from, to link instead of writing them. */
  from?: FileIdentity;
}

/** The folder, inside a turn folder, of the orders it was resolved with. */
export const KEPT_ORDERS = 'orders';

/** Puts a kept file into the folder being built: a link to the file read when it is still that file, else its bytes. */
export async function keepFile(sink: FileSink, rel: string, file: KeptFile): Promise<void> {
  if (!file.from || !isFolderSink(sink)) return sink.write(rel, file.bytes);
  const target = join(sink.dir, rel);
  mkdirSync(dirname(target), { recursive: true });
  if (linkedSame(file.from, target)) {
    sink.adopt([rel]);
    return;
  }
  await sink.write(rel, file.bytes);
}

function linkedSame(from: FileIdentity, target: string): boolean {
  try {
    linkSync(from.path, target);
  } catch {
    return false; // another file system, a file system without links, the file gone: the bytes are written instead
  }
  const now = lstatSync(target);
  if (now.dev === from.dev && now.ino === from.ino && now.size === from.size && now.mtimeMs === from.mtimeMs) return true;
  // Replaced or changed since it was read: the turn keeps what it read, not what is there now.
  unlinkSync(target);
  return false;
}

/**
 * Drops from orders/NNNN/ every order file the resolved turn NNNN keeps: the
 * same file (a link) or the same bytes. Anything else there (a file put
 * there since, the raw mail) stays.
 */
export async function releaseKeptOrders(campaignDir: string, turn: number): Promise<string[]> {
  const kept = join(campaignDir, 'turns', turnDirName(turn), KEPT_ORDERS);
  const pending = join(campaignDir, 'orders', turnDirName(turn));
  if (!existsSync(kept) || !existsSync(pending)) return [];
  const released: string[] = [];
  // In this thread, one file after another: a thousand nations' files through the thread pool's promises
  // took several times as long (the turn's lock is held, and nothing else waits on this thread meanwhile).
  for (const name of readdirSync(kept)) {
    const here = join(pending, name);
    const there = join(kept, name);
    const a = lstatOrNothing(here);
    const b = lstatOrNothing(there);
    if (!a?.isFile() || !b?.isFile()) continue;
    const same = (a.dev === b.dev && a.ino === b.ino) || (a.size === b.size && readFileSync(here).equals(readFileSync(there)));
    if (!same) continue;
    unlinkSync(here);
    released.push(name);
  }
  if (released.length) await syncDir(pending);
  return released.sort();
}

/** The file's own status, or undefined when it cannot be had (gone, not allowed): then it is left alone. */
function lstatOrNothing(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Gives orders/NNNN/ back the orders a turn folder kept, for every file not
 * already there: the turn is resolved again (rerun) or pending again
 * (rollback, repair), and a file the GM put in orders/NNNN/ wins over the
 * kept one. A rerun links them (the turn it resolves takes them back within
 * the same command); a turn pending again gets copies, so that editing its
 * orders in place until its deadline never changes the turn kept aside.
 */
export async function restoreKeptOrders(turnFolder: string, campaignDir: string, turn: number, how: 'link' | 'copy'): Promise<string[]> {
  const kept = join(turnFolder, KEPT_ORDERS);
  if (!existsSync(kept)) return [];
  const pending = join(campaignDir, 'orders', turnDirName(turn));
  mkdirSync(pending, { recursive: true });
  const restored: string[] = [];
  // A nation's order file the GM put there, in any form, wins over the one kept (a .txt over a kept .yaml).
  const present = await readdir(pending);
  const nationsThere = new Set(present.flatMap((name) => orderFileName(name)?.nation ?? []));
  for (const entry of await readdir(kept, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const target = join(pending, entry.name);
    if (existsSync(target)) continue;
    const nation = orderFileName(entry.name)?.nation;
    if (nation !== undefined && nationsThere.has(nation)) continue;
    try {
      if (how === 'link') await link(join(kept, entry.name), target);
      else await copyFile(join(kept, entry.name), target, constants.COPYFILE_EXCL);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
      if (how === 'copy') throw e;
      await copyFile(join(kept, entry.name), target, constants.COPYFILE_EXCL);
    }
    if (how === 'copy') await syncFile(target);
    restored.push(entry.name);
  }
  if (restored.length) await syncDir(pending);
  return restored.sort();
}
