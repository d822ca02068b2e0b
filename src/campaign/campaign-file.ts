import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDocument, type Document } from 'yaml';
import { buildCampaign } from '../campaign/build-campaign.js';
import { CampaignError, validate } from '../campaign/problems.js';
import { campaignFileSchema, type CampaignFile } from '../campaign/schema.js';
import { GM_LIMITS, readBulkYaml } from '../campaign/yaml-io.js';
import type { Campaign } from '../core/campaign.js';

/**
 * Edits campaign.yaml the way a careful GM would by hand: the document is
 * changed in place, so comments, key order and styles elsewhere stay as they
 * were. The result is validated as a whole before anything is written; the
 * caller writes it (with the journal, when other files change with it).
 */
export interface EditedCampaign {
  text: string;
  file: CampaignFile;
  campaign: Campaign;
}

export async function editCampaignFile(dir: string, edit: (doc: Document) => void): Promise<EditedCampaign> {
  const path = join(dir, 'campaign.yaml');
  const doc = parseDocument(await readFile(path, 'utf8'), { uniqueKeys: true });
  if (doc.errors.length) throw new CampaignError(doc.errors.map((e) => ({ file: path, message: e.message })));
  edit(doc);
  const text = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
  const read = readBulkYaml(Buffer.from(text), GM_LIMITS);
  if (!read.ok) throw new CampaignError(read.problems.map((p) => ({ file: `${path} (as edited)`, message: p.message })));
  const file = validate(campaignFileSchema, read, `${path} (as edited)`);
  const { campaign, problems } = buildCampaign(file, `${path} (as edited)`);
  if (problems.length) throw new CampaignError(problems);
  return { text, file, campaign };
}
