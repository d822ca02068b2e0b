import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { asNationId, compareIds, type NationId } from '../core/ids.js';
import type { GmAction, NationOrders, TurnOrders } from '../core/orders.js';
import type { GameState } from '../core/state.js';
import { readYamlSheets } from '../orders/parallel-sheets.js';
import { interpretSheet, type OrderSheet } from '../orders/sheet.js';
import { validate, CampaignError } from './problems.js';
import { gmOrdersSchema } from './schema.js';
import { turnDirName, readYamlFile, type OpenCampaign } from './store.js';

/** The GM's own file among the orders; it is not a nation's. */
export const GM_ORDERS_FILE = '_gm.yaml';

export interface PendingOrders {
  orders: TurnOrders;
  /** The files read, by name, kept with the resolved turn. */
  files: Record<string, Buffer>;
}

export const ordersDir = (dir: string, turn: number) => join(dir, 'orders', turnDirName(turn));

/**
 * Reads orders/<turn>/: one <nation>.yaml per nation that sent orders, plus
 * the GM's _gm.yaml. A file's problems never stop the turn: they travel with
 * the nation's orders and show up as rejections in its report.
 */
export async function readPendingOrders(open: OpenCampaign, state: GameState, turn: number): Promise<PendingOrders> {
  const dir = ordersDir(open.dir, turn);
  const orders: TurnOrders = { nations: {}, gm: [] };
  const files: Record<string, Buffer> = {};
  if (!existsSync(dir)) return { orders, files };
  const names = (await readdir(dir)).filter((n) => n.endsWith('.yaml')).sort(compareIds);
  const sheetsFor: { nation: NationId; bytes: Buffer }[] = [];
  for (const name of names) {
    const path = join(dir, name);
    if (name === GM_ORDERS_FILE) {
      const read = await readYamlFile(path, path);
      const gm = validate(gmOrdersSchema, read, path);
      if (gm.turn !== turn) throw new CampaignError([{ file: path, path: 'turn', message: `the GM's orders are for turn ${gm.turn}; the pending turn is ${turn}` }]);
      orders.gm = gm.actions as GmAction[];
      files[name] = await readFile(path);
      continue;
    }
    const nation = asNationId(name.slice(0, -'.yaml'.length));
    const bytes = await readFile(path);
    files[name] = bytes;
    if (open.campaign.nations[nation]) sheetsFor.push({ nation, bytes });
  }
  orders.nations = await nationOrdersFromFiles(open, state, sheetsFor);
  return { orders, files };
}

/**
 * Nations' order files made into their orders. Reading the files is the
 * costly part and each is read on its own (in worker threads in a big
 * campaign); interpreting them needs the state.
 */
export async function nationOrdersFromFiles(open: OpenCampaign, state: GameState, files: readonly { nation: NationId; bytes: Uint8Array }[]): Promise<TurnOrders['nations']> {
  const sheets = await readYamlSheets(files.map((f) => f.bytes));
  const nations: TurnOrders['nations'] = {};
  files.forEach(({ nation }, i) => {
    nations[nation] = nationOrdersFromSheet(open, state, nation, sheets[i]!);
  });
  return nations;
}

function nationOrdersFromSheet(open: OpenCampaign, state: GameState, nation: NationId, sheet: OrderSheet): NationOrders {
  if (sheet.nation && sheet.nation !== nation) {
    sheet.problems.push({ text: `nation: ${sheet.nation}`, reason: `this file is for ${nation} but says nation "${sheet.nation}"` });
  }
  return interpretSheet(sheet, nation, open.campaign, state).orders;
}
