import { ordersKeptWithTurn, startReadingPendingOrders } from '../orders/pending.js';
import { releaseKeptOrders } from '../campaign/kept-orders.js';
import { initialState } from '../campaign/initial-state.js';
import type { UnreadFile } from '../campaign/order-folder.js';
import { RENDER_INPUTS_FILE, renderInputsYaml } from '../campaign/render-inputs.js';
import { CampaignError } from '../campaign/problems.js';
import { assertLatestTurnWhole, ensureStartingState, latestTurn, openCampaign, readState, writeTurn, type OpenCampaign } from '../campaign/store.js';
import type { OlderTurnsWork, TurnRenderer, TurnRenderInput } from '../campaign/turn-renderer.js';
import type { Randomiser } from '../core/dice.js';
import type { LoggedEvent } from '../core/events.js';
import type { GameState } from '../core/state.js';
import { resolveTurn } from '../core/turn.js';
import { withSeatOrders } from '../seats/file-orders.js';


export interface RunTurnOptions {
  /** Refuse unless the pending turn is this one (no double processing). */
  expectTurn?: number;
  dice?: Randomiser;
  renderers?: TurnRenderer[];
  /** The next turn's deadline as players should read it (the schedule sets it); reports print it. */
  nextDeadline?: string;
  /** The same as players on another clock read it, by nation. */
  nextDeadlineByNation?: Readonly<Record<string, string>>;
  /** The GM's operations outside the rules that the reports list (with `reports.gmLog`). */
  gmLog?: readonly string[];
  /** Nations the GM dropped (runtime.yaml): they hold, whatever the seats' policy (src/seats). */
  dropped?: readonly string[];
}

export interface RunTurnResult {
  turn: number;
  dir: string;
  events: LoggedEvent[];
  state: GameState;
  /** Files in orders/NNNN not read as orders, each with why (order-folder.ts): the commands print them. */
  unread: UnreadFile[];
  /** The campaign as the turn read it, for what a command does next (opening it again cost 70–160 ms at 1,000 nations). */
  open: OpenCampaign;
}

/** The shell around resolveTurn: read the campaign, resolve the pending turn, write it whole. */
export async function runTurn(campaignDir: string, opts: RunTurnOptions = {}): Promise<RunTurnResult> {
  const open = await openCampaign(campaignDir);
  await ensureStartingState(open, () => initialState(open.file));
  await assertLatestTurnWhole(campaignDir);
  const last = (await latestTurn(campaignDir)) ?? 0;
  // A crash between writing the last turn and letting its orders go left them in both places.
  await releaseKeptOrders(campaignDir, last);
  const turn = last + 1;
  if (opts.expectTurn !== undefined && opts.expectTurn !== turn) {
    const message = opts.expectTurn < turn ? `turn ${opts.expectTurn} has already been resolved (the pending turn is ${turn}); nothing was done` : `the pending turn is ${turn}, not ${opts.expectTurn}; nothing was resolved`;
    throw new CampaignError([{ file: campaignDir, message }]);
  }
  for (const render of opts.renderers ?? []) render.check?.(open);
  const older: OlderTurnsWork[] = [];
  try {
    for (const render of opts.renderers ?? []) if (render.olderTurns) older.push(await render.olderTurns(open, turn));
    return await resolveAndWrite(campaignDir, open, last, turn, opts, older);
  } catch (e) {
    for (const work of older) await work.abandon();
    throw e;
  }
}

async function resolveAndWrite(campaignDir: string, open: OpenCampaign, last: number, turn: number, opts: RunTurnOptions, older: readonly OlderTurnsWork[]): Promise<RunTurnResult> {
  // The order files' sheets are read (in worker threads, in a big campaign) while the state loads.
  const reading = await startReadingPendingOrders(open, turn);
  const before = await readState(campaignDir, last, open.campaign);
  // Started once the world's size is known (it decides whether threads pay) and before anything is resolved,
  // so the renderers' threads get ready beside the resolution; dismissed once the turn is written or has failed
  // (the rendering takes what it uses).
  const warm = (opts.renderers ?? []).flatMap((render) => (render.warm ? [render.warm(open, before)] : []));
  try {
    // Seats whose player is silent get their policy's orders (src/seats): filed ones, or planned now.
    const pending = await withSeatOrders(open, before, await reading.interpret(before), opts.dropped);
    const { state, events } = resolveTurn({ campaign: open.campaign, state: before, orders: pending.orders, ...(opts.dice ? { dice: opts.dice } : {}) });
    const input: TurnRenderInput = { open, before, state, events, turn, orders: pending.orders, ...(opts.nextDeadline ? { nextDeadline: opts.nextDeadline } : {}), ...(opts.nextDeadlineByNation ? { nextDeadlineByNation: opts.nextDeadlineByNation } : {}), ...(opts.gmLog ? { gmLog: opts.gmLog } : {}) };
    // What the reports are rendered with beyond the turn, kept so that rendering them again gives the same bytes.
    const rendered = opts.renderers?.length ? renderInputsYaml({ ...(opts.nextDeadline ? { deadline: opts.nextDeadline } : {}), ...(opts.nextDeadlineByNation ? { deadlineByNation: opts.nextDeadlineByNation } : {}), ...(opts.gmLog ? { gmLog: opts.gmLog } : {}) }) : undefined;
    const extra: Record<string, string> = rendered ? { [RENDER_INPUTS_FILE]: rendered } : {};
    const dir = await writeTurn(campaignDir, turn, { state, events, extra, kept: ordersKeptWithTurn(pending) }, async (sink, alongside) => {
      for (const render of opts.renderers ?? []) await render(input, sink, alongside);
    });
    // The turn keeps its orders now: orders/NNNN lets them go (kept-orders.ts).
    await releaseKeptOrders(campaignDir, turn);
    for (const work of older) await work.commit();
    return { turn, dir, events, state, unread: pending.unread, open };
  } finally {
    for (const start of warm) start.dismiss();
  }
}
