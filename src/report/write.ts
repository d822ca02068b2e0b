import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { CampaignError } from '../campaign/problems.js';
import { listTurns, openCampaign, readState, readTurnEvents, turnDirName, type OpenCampaign } from '../campaign/store.js';

import { renderReports, type ReportOptions } from './renderer.js';

/**
 * Re-rendering the reports of a turn already on disk (`fatecraft report`).
 * The turn folder exists, so each file is written on its own, atomically:
 * to a temporary file beside it, synced, then renamed over the old one.
 */
export interface WrittenReports {
  turn: number;
  dir: string;
  files: string[];
}

export async function writeReports(campaignDir: string, opts: ReportOptions & { turn?: number } = {}): Promise<WrittenReports> {
  const open: OpenCampaign = await openCampaign(campaignDir);
  const turns = await listTurns(campaignDir);
  const turn = opts.turn ?? turns.at(-1);
  if (turn === undefined) throw new CampaignError([{ file: campaignDir, message: 'the campaign has no resolved turns yet; run "fatecraft turn" first' }]);
  if (!turns.includes(turn)) throw new CampaignError([{ file: campaignDir, message: `turn ${turn} is not resolved (resolved: ${turns.join(', ') || 'none'})` }]);
  const state = await readState(campaignDir, turn, open.campaign);
  const before = turn > 0 && turns.includes(turn - 1) ? await readState(campaignDir, turn - 1, open.campaign) : state;
  const events = await readTurnEvents(campaignDir, turn);
  const files = await renderReports({ open, before, state, events, turn }, opts);
  const dir = join(campaignDir, 'turns', turnDirName(turn));
  const written: string[] = [];
  for (const [rel, content] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const path = join(dir, rel);
    await mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, content, { fsync: true });
    written.push(rel);
  }
  return { turn, dir, files: written };
}
