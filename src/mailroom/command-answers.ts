/**
 * What the mail commands ("show", "resend", "deadline") answer with: the facts an answer gives, and the
 * report sent again. Read from the campaign as one fetch run found it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularFile } from '../campaign/regular-file.js';
import { turnDirName } from '../campaign/store.js';
import { asNationId } from '../core/ids.js';
import type { GameState } from '../core/state.js';
import { ordersDir } from '../orders/pending.js';
import { buildReceipt } from '../orders/receipt.js';
import { readYamlSheet } from '../orders/yaml-sheet.js';
import { composeReport, type CommandFacts } from './compose.js';
import type { LedgerEntry } from './ledger.js';
import type { PlayerSettings } from './player-settings.js';
import { readReportFiles } from './reports.js';
import type { Mailroom } from './room.js';

/** The campaign as a fetch run sees it: the latest resolved state, the turn orders are for, the players' clocks. */
export interface CommandScene {
  room: Mailroom;
  state: GameState;
  pendingTurn: number;
  settings: PlayerSettings;
}

/** The facts a command's answer gives: the pending turn and its deadline, the orders on file ("show"), the turn resent ("resend"). */
export function commandFacts(scene: CommandScene, nation: string, commands: readonly string[]): CommandFacts {
  const { room, state, pendingTurn } = scene;
  const deadline = scene.settings.deadlineFor(nation);
  const facts: CommandFacts = { pendingTurn, ...(deadline ? { deadline } : {}) };
  if (commands.includes('show')) {
    const file = join(ordersDir(room.dir, pendingTurn), `${nation}.yaml`);
    const read = existsSync(file) ? readRegularFile(file) : undefined;
    if (read?.ok) {
      const sheet = readYamlSheet(read.bytes);
      // Orders filed from a mail keep its line numbers (yaml-write.ts).
      facts.ordersOnFile = buildReceipt({ campaign: room.open.campaign, state, sheet, nation: asNationId(nation), linesOf: 'the message that brought them' }).receipt;
    }
  }
  if (commands.includes('resend') && state.turn >= 1 && existsSync(join(room.dir, 'turns', turnDirName(state.turn), 'reports', `${nation}.txt`))) {
    facts.resentTurn = state.turn;
  }
  return facts;
}

/** Queues the report again; its Message-ID, or undefined when the turn has no report for the nation. */
export async function resendReport(scene: CommandScene, nation: string, turn: number, record: LedgerEntry, to: string): Promise<string | undefined> {
  const room = scene.room;
  const files = await readReportFiles(room.dir, turn, nation);
  if (files === undefined) return undefined;
  const token = room.secrets.token(nation);
  const deadline = scene.settings.deadlineFor(nation);
  const message = composeReport({
    ...room.base(),
    nation,
    nationName: room.open.campaign.nations[asNationId(nation)]?.name ?? nation,
    turn,
    rerun: 0,
    to: [to],
    files,
    ...(token ? { token } : {}),
    ...(deadline ? { deadline } : {}),
    resendKey: record.key,
    inbound: record.inbound,
  });
  await room.enqueue(message, 'report', `report of turn ${turn} for ${nation} (resent)`);
  return message.messageId;
}
