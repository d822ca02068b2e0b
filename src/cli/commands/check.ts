import { existsSync, readdirSync } from 'node:fs';
import { orderFileName } from '../../campaign/order-folder.js';
import { readFile, stat } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { turnArg } from '../args.js';
import { initialState } from '../../campaign/initial-state.js';
import { ordersDir } from '../../orders/pending.js';
import { KEPT_ORDERS } from '../../campaign/kept-orders.js';
import { CampaignError } from '../../campaign/problems.js';
import { cannotRead, latestTurn, openCampaign, readState, turnDirName, type OpenCampaign } from '../../campaign/store.js';
import type { NationId } from '../../core/ids.js';
import type { GameState } from '../../core/state.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../../mail/types.js';
import { parseInbound } from '../../mail/parse.js';
import { MAX_ORDER_BYTES } from '../../orders/input.js';
import { readMailSheet } from '../../orders/mail-sheet.js';
import { findNation } from '../../orders/names.js';
import { buildReceipt, renderReceipt, type OrderReceipt } from '../../orders/receipt.js';
import { WHOLE_FILE, type OrderSheet } from '../../orders/sheet.js';
import { readTextSheet } from '../../orders/text-sheet.js';
import { readYamlSheet } from '../../orders/yaml-sheet.js';

export interface CheckOptions {
  /** Nation id or name; otherwise from the sheet, the mail's sender, or the file name. */
  nation?: string;
  /** The nation's secret order token: when given, the orders must carry it. */
  token?: string;
  /**
   * Check against the state before this turn (default: the pending turn): a turn already resolved can be
   * checked as it was, to prepare `fatecraft rerun`.
   */
  turn?: number;
}

export interface CheckOutcome {
  receipt: OrderReceipt;
  text: string;
  /** What was read: the file, or the mail body / attachment. */
  source: string;
}

/**
 * `fatecraft check <campaign> <file>`: reads orders as a player or GM would
 * hand them in (.yaml, .txt, or a whole .eml mail) and builds the receipt
 * against the campaign's latest resolved state. Nothing is written.
 */
export async function checkOrdersFile(campaignDir: string, file: string, opts: CheckOptions = {}): Promise<CheckOutcome> {
  const open = await openCampaign(campaignDir);
  const state = await stateBefore(open, opts.turn);
  const ext = extname(file).toLowerCase();
  const isMail = ext === '.eml';
  const size = await sizeOf(file);
  const limit = isMail ? DEFAULT_MAX_MESSAGE_BYTES : MAX_ORDER_BYTES;
  let sheet: OrderSheet;
  let source = file;
  let sender: string | undefined;
  if (size > limit) {
    // Refused unread: a huge file is never loaded into memory.
    sheet = { entries: [], problems: [{ text: WHOLE_FILE, reason: `the file is ${size} bytes; the limit is ${limit}`, hint: 'orders fit in a few kilobytes: send only your orders' }] };
  } else {
    const bytes = await readFile(file);
    if (isMail) {
      const mail = await parseInbound(bytes);
      const read = readMailSheet(mail);
      sheet = read.sheet;
      source = `${file} (${read.source})`;
      sender = mail.from?.address;
    } else if (ext === '.yaml' || ext === '.yml') sheet = readYamlSheet(bytes);
    else sheet = readTextSheet(bytes);
  }
  const nation = whichNation(open, sheet, file, opts.nation, sender);
  const pending = state.turn + 1;
  // On file: in orders/NNNN, or for a resolved turn (checked for a rerun) kept in its folder (kept-orders.ts).
  const onFile = [ordersDir(open.dir, pending), join(open.dir, 'turns', turnDirName(pending), KEPT_ORDERS)].flatMap((dir) => ordersOf(dir, nation));
  const replacesEarlier = onFile.some((f) => resolve(f) !== resolve(file));
  const { receipt } = buildReceipt({ campaign: open.campaign, state, sheet, nation, replacesEarlier, ...(opts.token !== undefined ? { expectedToken: opts.token } : {}) });
  const latest = (await latestTurn(open.dir)) ?? 0;
  const resolved = opts.turn !== undefined && opts.turn <= latest ? `Checked against the state before turn ${opts.turn}, which is resolved (the pending turn is ${latest + 1}): for fatecraft rerun.\n` : '';
  return { receipt, text: `Read from: ${source}\n${resolved}${renderReceipt(receipt)}`, source };
}

/** The nation's order files in a folder, in any of the forms that count (order-folder.ts). */
function ordersOf(dir: string, nation: NationId): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => orderFileName(name)?.nation === nation).map((name) => join(dir, name));
}

/** The state the turn starts from: the latest one for the pending turn, else the one before the turn named. */
async function stateBefore(open: OpenCampaign, turn: number | undefined): Promise<GameState> {
  const last = await latestTurn(open.dir);
  const pending = (last ?? 0) + 1;
  if (turn !== undefined && (turn < 1 || turn > pending)) {
    const why = turn < 1 ? 'turn 0 is the starting position: no orders are given for it' : `turn ${turn} is not open yet (the pending turn is ${pending})`;
    throw new CampaignError([{ file: open.dir, message: `--turn ${turn}: ${why}` }]);
  }
  const before = (turn ?? pending) - 1;
  return last === undefined ? initialState(open.file) : readState(open.dir, before, open.campaign);
}

async function sizeOf(file: string): Promise<number> {
  try {
    const s = await stat(file);
    if (!s.isFile()) throw new CampaignError([{ file, message: 'not a file' }]);
    return s.size;
  } catch (e) {
    if (e instanceof CampaignError) throw e;
    throw new CampaignError([{ file, message: cannotRead(e as NodeJS.ErrnoException) }]);
  }
}

/** --nation, else the sheet's Nation line, else the sender's address, else a file named <nation>.yaml. */
function whichNation(open: OpenCampaign, sheet: OrderSheet, file: string, given: string | undefined, sender: string | undefined): NationId {
  const known = Object.keys(open.campaign.nations).sort().join(', ');
  if (given !== undefined) {
    const n = findNation(open.campaign, given);
    if (!n) throw new CampaignError([{ file, message: `--nation ${given}: no such nation (nations are: ${known})` }]);
    return n;
  }
  const fromSheet = sheet.nation !== undefined ? findNation(open.campaign, sheet.nation) : undefined;
  if (fromSheet) return fromSheet;
  if (sender) {
    const address = sender.toLowerCase();
    const bySender = Object.entries(open.file.nations).find(([, n]) => n.email.some((e) => e.toLowerCase() === address));
    if (bySender) return bySender[0] as NationId;
  }
  const byName = findNation(open.campaign, basename(file, extname(file)));
  if (byName) return byName;
  const said = sheet.nation !== undefined ? `the orders say nation "${sheet.nation}", which is not in the campaign; ` : '';
  throw new CampaignError([{ file, message: `${said}cannot tell which nation these orders are for: add a line "Nation: <id>" or pass --nation (nations are: ${known})` }]);
}

export function registerCheck(program: Command): void {
  program
    .command('check')
    .description("check a nation's orders (.yaml, .txt or a .eml mail) and print the receipt; exit code 1 when any order has a problem")
    .argument('<campaign>', 'campaign folder, e.g. campaigns/silversheen')
    .argument('<file>', 'orders: a .yaml file, a .txt file of text orders, or a .eml mail')
    .option('--nation <nation>', 'whose orders these are (id or name); otherwise from the orders, the sender or the file name')
    .option('--token <token>', "the nation's secret order token; when given, the orders must carry it")
    .option('--turn <turn>', 'check against the state before this turn, one already resolved included (to prepare a rerun); default: the pending turn', turnArg)
    .option('--json', 'print the receipt as JSON')
    .action(async (dir: string, file: string, opts: CheckOptions & { json?: boolean }) => {
      const outcome = await checkOrdersFile(dir, file, opts);
      console.log(opts.json ? JSON.stringify(outcome.receipt, null, 2) : outcome.text);
      process.exitCode = outcome.receipt.ok ? 0 : 1;
    });
}
