import { readdir, readFile, writeFile, mkdir, rm } from 'node:fs/promises';
import { StagingFolder } from '../src/campaign/staging.js';
import { join } from 'node:path';
import { readPendingOrders } from '../src/campaign/pending-orders.js';
import { openCampaign, readState, stateYaml, turnDirName, type OpenCampaign } from '../src/campaign/store.js';
import { GM_LIMITS, readBulkYaml, writeYaml } from '../src/campaign/yaml-io.js';
import { resolveTurn } from '../src/core/turn.js';
import type { TurnRenderer } from '../src/jobs/run-turn.js';

/**
 * The stages of a turn, timed one by one inside a single process: load the
 * campaign, parse orders, resolve, write state and events, render reports,
 * flush the turn's files to disk;
 * and the baseline every stage is compared to — loading and writing the same
 * state and orders as plain YAML, with no game logic at all.
 */
export interface StageTimes {
  units: number;
  nations: number;
  load: number;
  parseOrders: number;
  resolve: number;
  write: number;
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
  const state = await readState(dir, 0, open.campaign);
  const load = now() - t;

  t = now();
  const pending = await readPendingOrders(open, state, 1);
  const parseOrders = now() - t;

  t = now();
  const result = resolveTurn({ campaign: open.campaign, state, orders: pending.orders });
  const resolve = now() - t;

  const out = join(dir, 'bench-out');
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const staging = new StagingFolder(join(out, 'turn'));
  t = now();
  await staging.write('state.yaml', stateYaml(result.state));
  await staging.write('events.yaml', writeYaml({ turn: 1, events: result.events }));
  const write = now() - t;

  t = now();
  for (const render of renderers) await render({ open, before: state, state: result.state, events: result.events, turn: 1, orders: pending.orders }, staging);
  const reports = now() - t;

  t = now();
  await staging.flush();
  const flush = now() - t;

  const baseline = await timeBaseline(dir, out);
  await rm(out, { recursive: true, force: true });
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
  for (const name of (await readdir(ordersDir)).sort()) {
    const read = readBulkYaml(await readFile(join(ordersDir, name)), GM_LIMITS);
    if (read.ok) all.push(read.value);
  }
  await writeFile(join(out, 'baseline-orders.yaml'), writeYaml(all));
  return now() - t;
}
