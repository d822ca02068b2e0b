/**
 * The web desk's door into the mailroom (src/web is the desk): orders typed in a form are judged by the same
 * decideOrders as the orders in a mail, filed by the same fileOrders, recorded in the same ledger,
 * answered with the same receipt through the same outgoing queue, and their letters relayed as a mail's
 * are. A signed-in player stands for the nation's order token, as a mail carrying it does.
 *
 *   readDeskSheet(text)                     the order form's text, read as a mail body is
 *   judgeDeskSheet(text, nation, ctx, ...)  what filing it would do (the live check shows this)
 *   fileDeskOrders(dir, input, opts)        file it: under the mail lock, the receipt mailed
 *   mailSignInLink(dir, input, opts)        a one-time sign-in link to the nation's addresses
 */
import { nationsWithOrderFiles } from '../campaign/order-folder.js';
import { createHash } from 'node:crypto';
import { initialState } from '../campaign/initial-state.js';
import { ordersDir } from '../orders/pending.js';
import { latestTurn, readState } from '../campaign/store.js';
import type { NationId } from '../core/ids.js';
import type { GameState } from '../core/state.js';
import { readMailSheet } from '../orders/mail-sheet.js';
import type { OrderSheet } from '../orders/sheet.js';
import { composeAnswer, composeNotice } from './compose.js';
import { decideOrders, type Decision, type OrdersContext } from './decide.js';
import { cutQuotedTail } from './mail-commands.js';
import { describeDecision } from './filing.js';
import { fileOrders } from './file-orders.js';
import type { LedgerEntry } from './ledger.js';
import { emptySendSummary, type SendSummary } from './outbox.js';
import { PlayerSettings, type PlayerSettingsOptions } from './player-settings.js';
import { Mailroom, type MailroomOptions } from './room.js';

/** What the receipt's line numbers count when the orders came from the desk. */
export const DESK_LINES = 'the order form';

/** The order form's text as the mailroom reads a mail body: YAML pasted in it is recognised, mail noise blanked. */
export function readDeskSheet(text: string): OrderSheet {
  return readMailSheet({ text: cutQuotedTail(text), attachments: [] }).sheet;
}

export interface DeskSubmission {
  /** The address the receipt goes to, named in the filed orders' header (the nation's first address). */
  address: string;
  /** When the form was sent (ISO 8601). */
  receivedAt: string;
  /**
   * The turn the form was made for, as a mail's subject names it: the orders' own Turn line, if any, wins.
   * A form left open while its turn resolved is then refused, never filed for the next turn.
   */
  turn?: number;
}

/**
 * What filing this text would do, with no I/O: the mail's judgement of orders (decideOrders), the signed-in
 * session standing for the token. A Token line typed in the form is overruled by the session.
 */
export function judgeDeskSheet(text: string, nation: NationId, ctx: OrdersContext, submission: DeskSubmission & { checkOnly?: boolean }): Decision {
  // The session stands for a Token line: read as if the form ended with one (so the form is read as a mail
  // with its token is, lines before it numbered alike), and its token set whatever the form says.
  const token = ctx.tokens.token(nation);
  const sheet = readDeskSheet(token !== undefined ? `${text}\nToken: ${token}` : text);
  if (token !== undefined) sheet.token = token;
  if (sheet.turn === undefined && submission.turn !== undefined) sheet.turn = submission.turn;
  const header = (turn: number) => [`# Orders of ${nation} for turn ${turn}, filed on the web desk.`, `# Signed in for ${submission.address}; received ${submission.receivedAt}.`];
  return decideOrders(sheet, nation, ctx, { from: submission.address, linesOf: DESK_LINES, header, reply: () => ({ replyTo: submission.address }), ...(submission.checkOnly ? { checkOnly: true } : {}) });
}

export interface DeskOptions extends MailroomOptions, PlayerSettingsOptions {
  /** Whether orders for `turn` sent at `at` still count (the schedule's deadline and grace). Default: always. */
  acceptsOrders?: (turn: number, at: Date) => boolean;
  /** SHA-256 digests of each nation's replaced tokens (runtime.yaml retiredTokens). */
  retiredTokens?: Readonly<Record<string, readonly string[]>>;
}

export interface DeskFiling {
  decision: Decision;
  /** The ledger key of the submission. */
  key: string;
  /** The addresses the receipt went to (none: the nation has no address, or nothing was filed). */
  mailedTo: string[];
  sent: SendSummary;
  /** Letters left out of the filed orders: over the season's limit (file-orders.ts); the receipt says which. */
  lettersLeftOut: number;
}

/**
 * Files the form's orders as a mail with the token would be filed: judged against the latest resolved state
 * (`state` when it is that one, else read), recorded in the ledger, written to orders/NNNN/<nation>.yaml, the
 * receipt queued to the nation's addresses and sent with the letters relayed at once. A refusal (late, no
 * valid order) files nothing and mails nothing: the desk shows it. The caller holds the campaign lock.
 */
export async function fileDeskOrders(campaignDir: string, input: { nation: NationId; text: string; turn?: number; state?: GameState }, opts: DeskOptions = {}): Promise<DeskFiling> {
  return Mailroom.run(campaignDir, opts, async (room) => {
    const now = room.clock.now();
    const latest = await latestTurn(room.dir);
    const fresh = input.state !== undefined && input.state.turn === (latest ?? 0);
    const state = fresh ? input.state! : latest === undefined ? initialState(room.open.file) : await readState(room.dir, latest, room.open.campaign);
    const pendingTurn = state.turn + 1;
    const addresses = room.addressesOf(input.nation);
    const address = addresses[0] ?? 'the web desk';
    // Orders on file in any form (.yaml, .yml, .txt: order-folder.ts).
    const onFile = (await nationsWithOrderFiles(ordersDir(room.dir, pendingTurn), (id) => id === input.nation)).length > 0;
    const ctx: OrdersContext = {
      campaign: room.open.campaign,
      state,
      tokens: room.secrets,
      ...(opts.retiredTokens ? { retiredTokens: opts.retiredTokens } : {}),
      ordersOnFile: new Set(onFile ? [input.nation] : []),
      late: !(opts.acceptsOrders?.(pendingTurn, now) ?? true),
      campaignDir,
    };
    const receivedAt = now.toISOString();
    const decision = judgeDeskSheet(input.text, input.nation, ctx, { address, receivedAt, ...(input.turn !== undefined ? { turn: input.turn } : {}) });
    const key = `desk:${createHash('sha256').update([input.nation, receivedAt, input.text].join('\u0000')).digest('hex').slice(0, 32)}`;
    const record: LedgerEntry = {
      key,
      status: 'decided',
      transportIds: ['desk'],
      inbound: { subject: `orders of ${input.nation} typed on the web desk` },
      receivedAt,
      size: Buffer.byteLength(input.text),
      decidedAt: receivedAt,
      decision,
      outcome: describeDecision(decision),
    };
    await room.ledger.put(record);
    const queued: string[] = [];
    const queue = (id: string) => {
      if (!queued.includes(id)) queued.push(id);
    };
    let mailedTo: string[] = [];
    // As filed: letters over the season's limit are moved to the receipt's problems (file-orders.ts).
    let shown: Decision = decision;
    let lettersLeftOut = 0;
    if (decision.kind === 'file') {
      const filed = await fileOrders(room, { nation: decision.nation, turn: decision.turn, ordersYaml: decision.ordersYaml, receipt: decision.receipt }, { state: () => Promise.resolve(state), queue });
      shown = { ...decision, receipt: filed.receipt };
      lettersLeftOut = decision.receipt.accepted.length - filed.receipt.accepted.length;
      room.log(`filed the orders of ${decision.nation} for turn ${decision.turn} (web desk)`);
      const deadline = new PlayerSettings(room, opts).deadlineFor(decision.nation);
      const answer = addresses.length ? composeAnswer({ ...room.base(), key, inbound: {}, decision: shown, to: address, ...(deadline ? { deadline } : {}), ...(filed.relayed ? { relayed: filed.relayed } : {}) }) : undefined;
      if (answer) {
        await room.enqueue({ ...answer.message, to: addresses }, answer.kind, `receipt for ${decision.nation} (web desk)`);
        queue(answer.message.messageId);
        mailedTo = addresses;
      }
    }
    if (decision.gm) queue(await room.alert(decision.gm));
    await room.ledger.put({ ...record, status: 'done', doneAt: room.clock.now().toISOString(), queued });
    const sent = queued.length ? await room.deliver(['receipt', 'press', 'alert']) : emptySendSummary();
    return { decision: shown, key, mailedTo, sent, lettersLeftOut };
  });
}

export interface SignInLink {
  nation: NationId;
  nationName: string;
  /** The link to mail: the desk's landing page, whose button signs in. */
  url: string;
  /** When the link stops working, as the player should read it. */
  expires: string;
  /** A digest of the link's secret: the mail's identity, so the same link is never mailed twice. */
  digest: string;
}

/** Mails a sign-in link to every address of the nation; the addresses it went to (none: the nation has none). */
export async function mailSignInLink(campaignDir: string, link: SignInLink, opts: MailroomOptions = {}): Promise<{ mailedTo: string[]; sent: SendSummary }> {
  return Mailroom.run(campaignDir, opts, async (room) => {
    const to = room.addressesOf(link.nation);
    if (to.length === 0) return { mailedTo: [], sent: emptySendSummary() };
    const text = [
      `Someone asked to sign in to the web desk of ${room.open.campaign.title} as ${link.nationName}. If it was you, open this link and press the button on the page:`,
      '',
      `  ${link.url}`,
      '',
      `The link works once, until ${link.expires}. If you did not ask for it, ignore this mail: without the link nobody signs in, and your orders and order token are unchanged.`,
    ].join('\n');
    const message = composeNotice({ ...room.base(), key: `sign-in:${link.digest}`, to, subject: `Your sign-in link for ${link.nationName}`, text });
    await room.enqueue(message, 'sign-in', `sign-in link for ${link.nation}`);
    return { mailedTo: to, sent: await room.deliver(['sign-in']) };
  });
}
