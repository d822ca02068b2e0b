import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CampaignError } from '../campaign/problems.js';
import { clearDeadTemporaries, temporaryName } from '../campaign/process-owner.js';
import { StagingFolder, syncDir } from '../campaign/staging.js';
import { refreshManifest } from '../campaign/turn-manifest.js';
import { campaignAsOf, listTurns, openCampaign, readState, readTurnEvents, turnDirName, type OpenCampaign } from '../campaign/store.js';

import { finishPacking, isPacked, repackReports } from '../campaign/packed-reports.js';
import { readRenderInputs, RENDER_INPUTS_FILE } from '../campaign/render-inputs.js';
import { REPORTS_DIR, writeReportsTo, type ReportOptions } from './renderer.js';

/**
 * Re-rendering the reports of a turn already on disk (`fatecraft report`).
 * The turn folder exists, so the reports are made in a staging folder inside
 * it, flushed to disk, and then each is renamed over the old one: every file
 * is either the old report or the new one, never half of either.
 */
export interface WrittenReports {
  turn: number;
  dir: string;
  files: string[];
  /** The turn's reports are packed (reports.tar.gz): the files were written into its archive. */
  packed?: boolean;
}

const STAGING_PREFIX = '.reports.partial-';

/**
 * The options the turn's reports were first rendered with (render-inputs.ts), so that rendering them again
 * gives the same bytes: the deadline they printed, on each player's clock, and the GM's log they carried. A
 * deadline given now (`--deadline`) replaces the recorded one; a turn resolved before the file existed
 * takes the GM's log given now (the schedule's, for that turn).
 */
async function asFirstRendered(turnFolder: string, opts: ReportOptions): Promise<ReportOptions> {
  if (!existsSync(join(turnFolder, RENDER_INPUTS_FILE))) return opts;
  const first = await readRenderInputs(turnFolder);
  const { gmLog: _now, ...rest } = opts;
  return {
    ...rest,
    ...(opts.deadline === undefined && first.deadline !== undefined ? { deadline: first.deadline, ...(first.deadlineByNation ? { deadlineByNation: first.deadlineByNation } : {}) } : {}),
    ...(first.gmLog ? { gmLog: first.gmLog } : {}),
  };
}

export async function writeReports(campaignDir: string, opts: ReportOptions & { turn?: number } = {}): Promise<WrittenReports> {
  const current: OpenCampaign = await openCampaign(campaignDir);
  const turns = await listTurns(campaignDir);
  const turn = opts.turn ?? turns.at(-1);
  if (turn === undefined) throw new CampaignError([{ file: campaignDir, message: 'the campaign has no resolved turns yet; run "fatecraft turn" first' }]);
  if (!turns.includes(turn)) throw new CampaignError([{ file: campaignDir, message: `turn ${turn} is not resolved (resolved: ${turns.join(', ') || 'none'})` }]);
  // A nation split off or added later was not there: the turn is rendered as it was first written.
  const open = campaignAsOf(current, turn);
  const state = await readState(campaignDir, turn, open.campaign);
  const before = turn > 0 && turns.includes(turn - 1) ? await readState(campaignDir, turn - 1, campaignAsOf(current, turn - 1).campaign) : state;
  const events = await readTurnEvents(campaignDir, turn);
  const dir = join(campaignDir, 'turns', turnDirName(turn));
  // A run killed while staging leaves its folder behind; it was never in place.
  await clearDeadTemporaries(dir, STAGING_PREFIX);
  const staging = new StagingFolder(join(dir, temporaryName(STAGING_PREFIX)));
  try {
    await writeReportsTo(staging, { open, before, state, events, turn }, await asFirstRendered(dir, opts));
    await staging.flush();
    const files = staging.files;
    if (isPacked(dir)) {
      // A packed turn stays packed: the reports made again replace theirs in a new archive (and loose
      // reports a packing cut short left beside it go, as that packing would have done).
      const fresh = new Map(files.map((rel) => [rel.slice(REPORTS_DIR.length + 1), join(staging.dir, rel)] as const));
      await repackReports(dir, turn, fresh);
      if (existsSync(join(dir, REPORTS_DIR))) await finishPacking(campaignDir);
      return { turn, dir, files, packed: true };
    }
    const folders = new Set<string>();
    for (const rel of files) {
      const target = join(dir, rel);
      if (!folders.has(dirname(target))) await mkdir(dirname(target), { recursive: true });
      folders.add(dirname(target));
      await rename(join(staging.dir, rel), target);
    }
    for (const folder of folders) await syncDir(folder);
    await refreshManifest(dir, turn);
    return { turn, dir, files };
  } finally {
    await rm(staging.dir, { recursive: true, force: true });
  }
}
