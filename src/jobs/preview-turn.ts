import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACTIONS_FILE, EVENTS_FILE, latestTurn, turnDirName } from '../campaign/store.js';
import { runTurn, type RunTurnOptions, type RunTurnResult } from './run-turn.js';

/**
 * `fatecraft turn --preview`: resolves the pending turn in a scratch copy of
 * the campaign and keeps the result under previews/NNNN/ for the GM. The
 * campaign itself is not touched: no turn is resolved, no mail is read, and
 * nothing goes to the players.
 */
export const PREVIEWS_DIR = 'previews';

export interface PreviewResult extends RunTurnResult {
  /** Where the preview was kept: <campaign>/previews/NNNN. */
  kept: string;
  /** A digest of the previewed events, so a GM notice about it is sent once per distinct preview. */
  digest: string;
}

export async function previewTurn(campaignDir: string, opts: RunTurnOptions = {}): Promise<PreviewResult> {
  const scratch = await mkdtemp(join(tmpdir(), 'fatecraft-preview-'));
  try {
    // Only what a turn is resolved from: the settings, the event and action catalogues, the templates, the latest turn and the pending orders.
    await cp(join(campaignDir, 'campaign.yaml'), join(scratch, 'campaign.yaml'));
    for (const file of [EVENTS_FILE, ACTIONS_FILE]) if (existsSync(join(campaignDir, file))) await cp(join(campaignDir, file), join(scratch, file));
    for (const dir of ['templates', 'orders']) {
      if (existsSync(join(campaignDir, dir))) await cp(join(campaignDir, dir), join(scratch, dir), { recursive: true });
    }
    const last = await latestTurn(campaignDir);
    if (last !== undefined) await cp(join(campaignDir, 'turns', turnDirName(last)), join(scratch, 'turns', turnDirName(last)), { recursive: true });
    const result = await runTurn(scratch, opts);
    const previews = join(campaignDir, PREVIEWS_DIR);
    const kept = join(previews, turnDirName(result.turn));
    await mkdir(previews, { recursive: true });
    // The newest preview of a turn replaces the last one whole.
    const staged = join(previews, `.${turnDirName(result.turn)}.new-${process.pid}`);
    await rm(staged, { recursive: true, force: true });
    await cp(result.dir, staged, { recursive: true });
    await rm(kept, { recursive: true, force: true });
    await rename(staged, kept);
    const digest = createHash('sha256').update(JSON.stringify(result.events)).digest('hex').slice(0, 16);
    return { ...result, dir: kept, kept, digest };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
