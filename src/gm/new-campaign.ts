import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { builtInTemplateDir } from '../report/render.js';
import { CampaignError } from '../campaign/problems.js';

/**
 * `fatecraft new <folder>`: a campaign folder from the commented template
 * (templates/new-campaign/campaign.yaml), a whole small campaign that loads
 * and starts as it is, for the GM to fill in, and a .gitignore that keeps
 * what is secret out of git (templates/new-campaign/gitignore). The
 * campaign's name is taken from the folder's.
 */
export const TEMPLATE_FOLDER = 'new-campaign';

export interface NewCampaign {
  dir: string;
  name: string;
  file: string;
}

/** A campaign id from a folder name: "My Game" → "my-game". Undefined when nothing usable is left. */
export function campaignIdFrom(folderName: string): string | undefined {
  const id = folderName
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  return /^[a-z0-9][a-z0-9_-]*$/.test(id) ? id : undefined;
}

export async function newCampaign(folder: string, opts: { name?: string } = {}): Promise<NewCampaign> {
  const dir = resolve(folder);
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new CampaignError([{ file: folder, message: 'is a file; give the path of a new folder for the campaign' }]);
    if (readdirSync(dir).length > 0) throw new CampaignError([{ file: folder, message: `is not empty${existsSync(join(dir, 'campaign.yaml')) ? ' (it holds a campaign already)' : ''}; give the path of a new or empty folder` }]);
  }
  const name = opts.name ?? campaignIdFrom(basename(dir));
  if (name === undefined || !/^[a-z0-9][a-z0-9_-]*$/.test(name)) {
    throw new CampaignError([{ file: opts.name !== undefined ? '--name' : folder, message: `"${opts.name ?? basename(dir)}" cannot be a campaign's name: use lower-case letters, digits, - and _ (e.g. --name iron-coast)` }]);
  }
  const template = await readFile(join(builtInTemplateDir(), TEMPLATE_FOLDER, 'campaign.yaml'), 'utf8');
  const text = template.replace(/^name: .*$/m, `name: ${name}`).replace(/^seed: .*$/m, `seed: ${name}-1`);
  await mkdir(join(dir, 'orders'), { recursive: true });
  await mkdir(join(dir, 'mail', 'inbox'), { recursive: true });
  const file = join(dir, 'campaign.yaml');
  await writeFile(file, text, { flag: 'wx' });
  // Kept as "gitignore" in the templates (a package drops files named .gitignore).
  await writeFile(join(dir, '.gitignore'), await readFile(join(builtInTemplateDir(), TEMPLATE_FOLDER, 'gitignore'), 'utf8'), { flag: 'wx' });
  return { dir, name, file };
}
