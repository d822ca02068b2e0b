import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { KEPT_ORDERS, type KeptFile } from '../campaign/kept-orders.js';
import { join } from 'node:path';
import type { UnreadFile } from '../campaign/order-folder.js';
import { startReadingPendingOrders } from '../orders/pending.js';
import { openCampaign, readState, stateYaml, turnDirName } from '../campaign/store.js';
import { writeYaml } from '../campaign/yaml-io.js';
import { resolveTurn } from '../core/turn.js';

/**
 * Whether resolving a turn again would change nothing: the order files it
 * would read are the ones it was resolved with, byte for byte, and the state
 * before it and the campaign's settings give the very state and events it has
 * (compared as the bytes of its state.yaml and events.yaml). A rerun that
 * changes nothing must not mail the players "corrected" reports in which
 * nothing changed. Nothing is written: the turn is resolved in memory.
 */
export async function resolvesTheSame(campaignDir: string, turn: number): Promise<{ same: boolean; unread: UnreadFile[] }> {
  const open = await openCampaign(campaignDir);
  const reading = await startReadingPendingOrders(open, turn);
  const before = await readState(campaignDir, turn - 1, open.campaign);
  const pending = await reading.interpret(before);
  const { state, events } = resolveTurn({ campaign: open.campaign, state: before, orders: pending.orders });
  const folder = join(campaignDir, 'turns', turnDirName(turn));
  const [stateNow, eventsNow, keptNow] = await Promise.all([readFile(join(folder, 'state.yaml'), 'utf8'), readFile(join(folder, 'events.yaml'), 'utf8'), keptOrders(join(folder, KEPT_ORDERS))]);
  const sameOrders = sameFiles(keptNow, pending.files);
  return { same: sameOrders && stateNow === stateYaml(state) && eventsNow === writeYaml({ turn, events }), unread: pending.unread };
}

/** The order files a resolved turn keeps, by name. */
async function keptOrders(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  if (!existsSync(dir)) return out;
  for (const name of await readdir(dir)) out.set(name, await readFile(join(dir, name)));
  return out;
}

function sameFiles(kept: ReadonlyMap<string, Buffer>, read: Readonly<Record<string, KeptFile>>): boolean {
  const names = Object.keys(read);
  return names.length === kept.size && names.every((name) => kept.get(name)?.equals(read[name]!.bytes) === true);
}
