import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { asNationId, type NationId } from '../core/ids.js';
import type { GmAction, NationOrders, SeatPolicy, TurnOrders } from '../core/orders.js';
import type { GameState } from '../core/state.js';
import { readYamlSheets } from './parallel-sheets.js';
import { readTextSheet } from './text-sheet.js';
import { GM_ORDERS_FILE, planOrderFolder, type OrderFolderPlan, type OrderFormat, type SeatFileName, type UnreadFile } from '../campaign/order-folder.js';
import { interpretSheet, WHOLE_FILE, type OrderSheet } from './sheet.js';
import { readOneOffEvent } from '../campaign/event-catalogue.js';
import { KEPT_ORDERS, type KeptFile } from '../campaign/kept-orders.js';
import { validate, CampaignError, type FileProblem } from '../campaign/problems.js';
import { readRegularFile, readRegularFiles, type RegularFileRead } from '../campaign/regular-file.js';
import type { Locate } from '../campaign/yaml-io.js';
import { gmOrdersSchema } from '../campaign/schema.js';
import { EVENTS_FILE, turnDirName, yamlFromBytes, type OpenCampaign } from '../campaign/store.js';

export { GM_ORDERS_FILE };

export interface PendingOrders {
  orders: TurnOrders;
  /** The files read, by name, kept with the resolved turn (kept-orders.ts). */
  files: Record<string, KeptFile>;
  /** Files in the folder not read as orders, each with why (order-folder.ts): every command that skips them says so. */
  unread: UnreadFile[];
}

export const ordersDir = (dir: string, turn: number) => join(dir, 'orders', turnDirName(turn));

/** The order files read, as the resolved turn keeps them: orders/<file> in its folder. */
export function ordersKeptWithTurn(pending: PendingOrders): Record<string, KeptFile> {
  const kept: Record<string, KeptFile> = {};
  for (const [name, file] of Object.entries(pending.files)) kept[`${KEPT_ORDERS}/${name}`] = file;
  return kept;
}

/**
 * Reads orders/<turn>/: one <nation>.yaml per nation that sent orders, plus
 * the GM's _gm.yaml. A file's problems never stop the turn: they travel with
 * the nation's orders and show up as rejections in its report.
 */
export async function readPendingOrders(open: OpenCampaign, state: GameState, turn: number): Promise<PendingOrders> {
  return (await startReadingPendingOrders(open, turn)).interpret(state);
}

/** Order files read and their sheets on the way; `interpret` makes them orders once the state is at hand. */
export interface OrdersOnTheWay {
  /** Files in the folder not read as orders (order-folder.ts). */
  unread: UnreadFile[];
  interpret(state: GameState): Promise<PendingOrders>;
}

/**
 * Reads the pending order files and starts reading their sheets, which needs
 * no state: in a big campaign worker threads read them all while this thread
 * loads the state, and only the interpretation (names, the world) waits for it.
 */
export async function startReadingPendingOrders(open: OpenCampaign, turn: number): Promise<OrdersOnTheWay> {
  const dir = ordersDir(open.dir, turn);
  const gm: GmAction[] = [];
  const files: Record<string, KeptFile> = {};
  const folder = await readOrderFolder(dir, (id) => open.campaign.nations[asNationId(id)] !== undefined);
  if (folder.plan.clashes.length) {
    throw new CampaignError(folder.plan.clashes.map((c) => ({ file: dir, message: `${c.names.join(' and ')} are both orders of ${c.nation}, and a nation gives one set of orders a turn: keep one of them (move the other out of the folder), then resolve the turn` })));
  }
  if (folder.gm) {
    gm.push(...gmOrdersOf(open, folder.gm, turn));
    if (folder.gm.read.ok) files[GM_ORDERS_FILE] = { bytes: folder.gm.read.bytes, from: folder.gm.read.identity };
  }
  const nationFiles: NationOrderFile[] = [];
  const seatFiles: NationOrderFile[] = [];
  for (const { name, nation, format, read } of folder.nations) {
    if (read.ok) files[name] = { bytes: read.bytes, from: read.identity };
    nationFiles.push({ nation: asNationId(nation), read, format });
  }
  for (const { name, nation, policy, read } of folder.seats) {
    if (read.ok) files[name] = { bytes: read.bytes, from: read.identity };
    seatFiles.push({ nation, policy, read });
  }
  // A seat's policy speaks for a nation only when its player sent nothing (docs/operations.md, "Missing players").
  for (const f of seatFiles) if (!nationFiles.some((n) => n.nation === f.nation)) nationFiles.push(f);
  const sheets = readNationSheets(nationFiles, { elsewhere: true });
  // Should the state fail to load, nobody awaits the sheets: a worker's failure then must not end the process.
  sheets.catch(() => undefined);
  return {
    unread: folder.plan.unread,
    async interpret(state) {
      const read = await sheets;
      return { orders: { nations: nationOrdersFromSheets(open, state, nationFiles, read), gm }, files, unread: folder.plan.unread };
    },
  };
}

/** An entry of an orders folder, read if it is a regular file (see readRegularFile). */
export interface OrderFolderEntry {
  name: string;
  path: string;
  read: RegularFileRead;
}

/** A nation's order file in an orders folder, read if it is a regular file. */
export interface NationOrderEntry extends OrderFolderEntry {
  nation: string;
  format: OrderFormat;
}

/** A seat policy's orders for a nation (order-folder.ts), read if it is a regular file. */
export interface SeatOrderEntry extends OrderFolderEntry, SeatFileName {}

export interface OrderFolder {
  /** The GM's _gm.yaml, when there is one. */
  gm?: OrderFolderEntry;
  nations: NationOrderEntry[];
  /** A seat's policy's orders; each speaks for its nation only when the nation has no entry in `nations`. */
  seats: SeatOrderEntry[];
  /** What is there but not read as orders, and nations with two order files (order-folder.ts). */
  plan: Pick<OrderFolderPlan, 'unread' | 'clashes'>;
}

/**
 * An orders folder's files: the GM's, and each nation's orders (order-folder.ts
 * says which names those are), in id order. Only regular files are read: a
 * folder, a FIFO or a symbolic link put there is refused with what it is, so
 * the turn neither crashes, waits for ever, nor copies a file from elsewhere
 * on the machine into itself.
 */
export async function readOrderFolder(dir: string, isNation: (id: string) => boolean): Promise<OrderFolder> {
  if (!existsSync(dir)) return { nations: [], seats: [], plan: { unread: [], clashes: [] } };
  const names = await readdir(dir);
  const plan = planOrderFolder(names, isNation);
  const orderPaths = plan.orders.map((o) => join(dir, o.name));
  const orderReads = readRegularFiles(orderPaths);
  const nations: NationOrderEntry[] = plan.orders.map((o, i) => ({ name: o.name, path: orderPaths[i]!, nation: o.nation, format: o.format, read: orderReads[i]! }));
  const seatPaths = plan.seats.map((seat) => join(dir, seat.name));
  const seatReads = readRegularFiles(seatPaths);
  const seats: SeatOrderEntry[] = plan.seats.map((seat, i) => ({ ...seat, path: seatPaths[i]!, read: seatReads[i]! }));
  const gm = names.includes(GM_ORDERS_FILE) ? { name: GM_ORDERS_FILE, path: join(dir, GM_ORDERS_FILE), read: readRegularFile(join(dir, GM_ORDERS_FILE)) } : undefined;
  return { ...(gm ? { gm } : {}), nations, seats, plan: { unread: plan.unread, clashes: plan.clashes } };
}

/** A nation's order file: its bytes, or why it was not read (which its report then says). */
export interface NationOrderFile {
  nation: NationId;
  read: RegularFileRead;
  /** How its bytes read: a YAML order sheet (the default), or the plain-text order language. */
  format?: OrderFormat;
  /** Orders a seat's policy gave (`<nation>.caretaker.yaml`, `<nation>.disorder.yaml`), not the player's. */
  policy?: SeatPolicy;
}

/** Sheets of the files that were read (YAML ones in worker threads in a big campaign); a refused file is a sheet with only its refusal. */
async function readNationSheets(files: readonly NationOrderFile[], opts: { elsewhere?: boolean } = {}): Promise<OrderSheet[]> {
  const yaml = files.flatMap((f) => (f.read.ok && f.format !== 'text' ? [f.read.bytes] : []));
  const sheets = await readYamlSheets(yaml, opts);
  let next = 0;
  return files.map((f) => (!f.read.ok ? refusedSheet(f.read.reason) : f.format === 'text' ? readTextSheet(f.read.bytes) : sheets[next++]!));
}

function refusedSheet(reason: string): OrderSheet {
  return { entries: [], problems: [{ text: WHOLE_FILE, reason: `the order file was not read: ${reason}`, hint: 'only regular files are read; the GM can put the file itself in its place' }], headerLines: {}, format: 'yaml' };
}

/** The GM's _gm.yaml for a turn, as the engine takes it; a file that cannot be read or used stops the turn with why. */
export function gmOrdersOf(open: OpenCampaign, entry: OrderFolderEntry, turn: number): GmAction[] {
  const { path, read } = entry;
  if (!read.ok) throw new CampaignError([{ file: path, message: `not read: ${read.reason}; only regular files are read, so put the file itself there` }]);
  const yaml = yamlFromBytes(read.bytes, path);
  const actions = validate(gmOrdersSchema, yaml, path);
  if (actions.turn !== turn) throw new CampaignError([{ file: path, path: 'turn', message: `the GM's orders are for turn ${actions.turn}; the pending turn is ${turn}` }]);
  return gmActions(open, actions.actions, yaml, path);
}

/** The GM's actions as the engine takes them: one-off events checked like catalogue entries, ids checked against the campaign. */
function gmActions(open: OpenCampaign, actions: readonly Record<string, unknown>[], read: { locate: Locate }, path: string): GmAction[] {
  const problems: FileProblem[] = [];
  const out: GmAction[] = [];
  actions.forEach((a, i) => {
    if (a.kind !== 'event') {
      out.push(a as unknown as GmAction);
      return;
    }
    const nation = asNationId(String(a.nation));
    const line = read.locate(['actions', i]);
    const where = { file: path, path: `actions[${i}]`, ...(line !== undefined ? { line } : {}) };
    if (!open.campaign.nations[nation]) problems.push({ ...where, message: `no nation "${nation}" in campaign.yaml` });
    const target = typeof a.target === 'string' ? { target: a.target } : {};
    if (typeof a.event === 'string') {
      if (!open.campaign.events?.entries[a.event]) problems.push({ ...where, message: `no event "${a.event}" in the catalogue (${EVENTS_FILE})` });
      out.push({ kind: 'event', nation, event: a.event, ...target });
      return;
    }
    const { kind: _kind, nation: _nation, target: _target, ...entry } = a;
    const oneOff = readOneOffEvent({ id: `gm-${i + 1}`, ...entry }, read.locate, path, ['actions', i], open.campaign);
    problems.push(...oneOff.problems);
    if (oneOff.def) out.push({ kind: 'event', nation, oneOff: oneOff.def, ...target });
  });
  if (problems.length) throw new CampaignError(problems);
  return out;
}

/**
 * Nations' order files made into their orders. Reading the files is the
 * costly part and each is read on its own (in worker threads in a big
 * campaign); interpreting them needs the state.
 */
export async function nationOrdersFromFiles(open: OpenCampaign, state: GameState, files: readonly NationOrderFile[]): Promise<TurnOrders['nations']> {
  return nationOrdersFromSheets(open, state, files, await readNationSheets(files));
}

/** Order files made in memory (a seat's policy's, planned as the turn resolves) read as any order file is. */
export async function nationOrdersFromBytes(open: OpenCampaign, state: GameState, files: readonly { nation: NationId; policy?: SeatPolicy; bytes: Uint8Array }[]): Promise<TurnOrders['nations']> {
  return nationOrdersFromSheets(open, state, files, await readYamlSheets(files.map((f) => f.bytes)));
}

function nationOrdersFromSheets(open: OpenCampaign, state: GameState, files: readonly { nation: NationId; policy?: SeatPolicy }[], sheets: readonly OrderSheet[]): TurnOrders['nations'] {
  const nations: TurnOrders['nations'] = {};
  files.forEach(({ nation, policy }, i) => {
    const orders = nationOrdersFromSheet(open, state, nation, sheets[i]!);
    nations[nation] = policy ? { ...orders, seat: { policy } } : orders;
  });
  return nations;
}

function nationOrdersFromSheet(open: OpenCampaign, state: GameState, nation: NationId, sheet: OrderSheet): NationOrders {
  if (sheet.nation && sheet.nation !== nation) {
    sheet.problems.push({ text: `nation: ${sheet.nation}`, reason: `this file is for ${nation} but says nation "${sheet.nation}"` });
  }
  return interpretSheet(sheet, nation, open.campaign, state).orders;
}
