import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';

/**
 * Sets keys of campaign.yaml's `reports:` block in a test's copy of a campaign, keeping what the block
 * already says (the demo lists its formats) and the file's comments.
 */
export function setReportSettings(dir: string, settings: Record<string, unknown>): void {
  if (Object.keys(settings).length === 0) return;
  const file = join(dir, 'campaign.yaml');
  const doc = parseDocument(readFileSync(file, 'utf8'));
  for (const [key, value] of Object.entries(settings)) doc.setIn(['reports', key], value);
  writeFileSync(file, doc.toString());
}
