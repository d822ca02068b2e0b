import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isMap, isScalar, parseDocument, type Document, type YAMLMap } from 'yaml';
import { CampaignError } from '../campaign/problems.js';
import { editCampaignFile } from '../campaign/campaign-file.js';
import { filesUnder } from '../campaign/files-under.js';

/**
 * A campaign overlay: a folder holding only what a second configuration of a
 * campaign changes (campaigns/silversheen/fate/ turns the demo's Fate layer
 * on). Its campaign.yaml is merged into the campaign's — maps key by key,
 * anything else (lists, scalars) replaced whole — through the yaml Document
 * API, so the campaign's comments and key order survive and the overlay's own
 * comments come along; every other file is copied over the file of the same
 * path. README.md is the overlay's own description and is not copied.
 *
 * An overlay is for a campaign not yet played: the start sheets it changes
 * (starting aspects, say) are read when turn 0 is written, so a turn 0 on
 * disk is removed, to be written again from the merged campaign.yaml by
 * `fatecraft start` or the first turn.
 */
export const OVERLAY_CAMPAIGN = 'campaign.yaml';
const OVERLAY_OWN = new Set(['README.md']);

/** Merges `overlay` into `base` in place: a map into a map key by key, anything else replacing what was there. */
export function mergeInto(base: YAMLMap, overlay: YAMLMap): void {
  // A comment above a map's first key belongs to the map, which is not carried over: give it to that key.
  const first = overlay.items[0]?.key;
  if (overlay.commentBefore && isScalar(first)) {
    first.commentBefore = first.commentBefore ? `${overlay.commentBefore}\n${first.commentBefore}` : overlay.commentBefore;
    overlay.commentBefore = null;
  }
  for (const pair of overlay.items) {
    const key = isScalar(pair.key) ? pair.key.value : pair.key;
    const there = base.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
    if (!there) base.items.push(pair);
    else if (isMap(there.value) && isMap(pair.value)) mergeInto(there.value, pair.value);
    else there.value = pair.value;
  }
}

function overlayDocument(path: string): Document {
  const doc = parseDocument(readFileSync(path, 'utf8'), { uniqueKeys: true });
  if (doc.errors.length) throw new CampaignError(doc.errors.map((e) => ({ file: path, message: e.message })));
  if (!isMap(doc.contents)) throw new CampaignError([{ file: path, message: 'an overlay campaign.yaml is a map of the settings it changes' }]);
  return doc;
}


/** Turn 0 goes, to be written from the merged start sheets; a campaign with a resolved turn is refused. */
function dropStartingPosition(campaignDir: string): void {
  const turns = join(campaignDir, 'turns');
  if (!existsSync(turns)) return;
  const played = readdirSync(turns).filter((name) => /^\d{4,}$/.test(name) && Number(name) > 0);
  if (played.length) throw new CampaignError([{ file: turns, message: `turn ${Number(played.sort().at(-1))} is resolved already; an overlay is applied before the first turn` }]);
  rmSync(join(turns, '0000'), { recursive: true, force: true });
}

/**
 * Applies the overlay folder to a campaign folder (a scratch copy: this
 * writes into it). The merged campaign.yaml is validated as a whole before it
 * is written. Returns the files it wrote, relative to the campaign folder.
 */
export async function applyOverlay(campaignDir: string, overlayDir: string): Promise<string[]> {
  const written: string[] = [];
  for (const file of filesUnder(overlayDir)) {
    if (OVERLAY_OWN.has(file)) continue;
    const from = join(overlayDir, file);
    const to = join(campaignDir, file);
    if (file === OVERLAY_CAMPAIGN) {
      const overlay = overlayDocument(from);
      const edited = await editCampaignFile(campaignDir, (doc) => {
        if (!isMap(doc.contents)) throw new CampaignError([{ file: to, message: 'campaign.yaml is not a map' }]);
        mergeInto(doc.contents, overlay.contents as YAMLMap);
      });
      writeFileSync(to, edited.text);
      dropStartingPosition(campaignDir);
    } else {
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(from, to);
    }
    written.push(file);
  }
  return written;
}
