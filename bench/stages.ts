import { readdir, readFile, writeFile, mkdir, rm } from 'node:fs/promises';
import { StagingFolder } from '../src/campaign/staging.js';
import { join } from 'node:path';
import { ordersKeptWithTurn, startReadingPendingOrders } from '../src/orders/pending.js';
import { openCampaign, readState, turnDirName, writeTurnFiles, type OpenCampaign } from '../src/campaign/store.js';
import { GM_LIMITS, readBulkYaml, writeYaml } from '../src/campaign/yaml-io.js';
import { resolveTurn } from '../src/core/turn.js';
import type { TurnRenderer } from '../src/campaign/turn-renderer.js';
import { withSeatOrders } from '../src/seats/file-orders.js';

/**
 * The stages of a turn, timed one by one inside a single process, overlapping
 * as `fatecraft turn` overlaps them: load the campaign and the state (the
 * order files' sheets are read in worker threads meanwhile), make the orders,
 * resolve, render the reports (state and events are written alongside, while
 * the report workers work), flush the turn's files to disk; and the baseline
 * every stage is compared to — loading and writing the same state and orders
 * as plain YAML, with no game logic at all.
 */
export interface StageTimes {
  units: number;
  nations: number;
  /** campaign.yaml and the state, while the sheets are read elsewhere. */
  load: number;
  /** What is left of reading the sheets after the load, and making them orders. */
  parseOrders: number;
  resolve: number;
  /** Writing state.yaml, events.yaml and the orders kept with the turn; inside the reports stage, beside the report workers. */
  write: number;
  /** Every report file, with the state and events written alongside. */
  reports: number;
  /** Every file of the turn put on disk (fsync) before the turn folder is renamed into place. */
  flush: number;
  baseline: number;
  events: number;
}

const now = () => performance.now();

export async function timeStages(dir: string, renderers: TurnRenderer[]): Promise<StageTimes> {
  let t = now();
  const open: OpenCampaign = await openCampaign(dir);
  const reading = await startReadingPendingOrders(open, 1);
  const state = await readState(dir, 0, open.campaign);
  const load = now() - t;

  t = now();
  // As `fatecraft turn` makes them: the players' sheets, and the caretakers' orders for silent seats.
  const pending = await withSeatOrders(open, state, await reading.interpret(state));
  const parseOrders = now() - t;

  t = now();
  const result = resolveTurn({ campaign: open.campaign, state, orders: pending.orders });
  const resolve = now() - t;

  const out = join(dir, 'bench-out');
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const staging = new StagingFolder(join(out, 'turn'));
  let write = 0;
  let written: Promise<void> | undefined;
  const alongside = () =>
    (written ??= (async () => {
      const w = now();
      await writeTurnFiles(staging, 1, { state: result.state, events: result.events, extra: {}, kept: ordersKeptWithTurn(pending) });
      write = now() - w;
    })());
  t = now();
  for (const render of renderers) await render({ open, before: state, state: result.state, events: result.events, turn: 1, orders: pending.orders }, staging, alongside);
  await alongside();
  const reports = now() - t;

  t = now();
  await staging.flush();
  const flush = now() - t;

  // The files stay for the caller to remove when the whole run is over (see bench/run.ts).
  const baseline = await timeBaseline(dir, out);
  return {
    units: Object.keys(state.units).length,
    nations: Object.keys(state.nations).length,
    load,
    parseOrders,
    resolve,
    write,
    reports,
    flush,
    baseline,
    events: result.events.length,
  };
}

/**
 * Read state.yaml and every order file as YAML and write them back, with the
 * fastest YAML reader and writer the project has: the floor for any turn.
 */
export async function timeBaseline(dir: string, out: string): Promise<number> {
  const t = now();
  const stateRead = readBulkYaml(await readFile(join(dir, 'turns', turnDirName(0), 'state.yaml')), GM_LIMITS);
  if (!stateRead.ok) throw new Error('baseline: state.yaml did not parse');
  await writeFile(join(out, 'baseline-state.yaml'), writeYaml(stateRead.value));
  const ordersDir = join(dir, 'orders', turnDirName(1));
  const all: unknown[] = [];
  for (const name of (await readdir(ordersDir).catch(() => [] as string[])).sort()) {
    const read = readBulkYaml(await readFile(join(ordersDir, name)), GM_LIMITS);
    if (read.ok) all.push(read.value);
  }
  await writeFile(join(out, 'baseline-orders.yaml'), writeYaml(all));
  return now() - t;
}
