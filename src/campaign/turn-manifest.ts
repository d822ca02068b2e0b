import { existsSync } from 'node:fs';
import jsyaml from 'js-yaml';
import { open as openFile, readdir, readFile, rename } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { CampaignError } from './problems.js';
import { syncDir } from './staging.js';
import { writeYaml } from './yaml-write.js';

/**
 * A resolved turn's folder is complete or it does not count. Renaming the
 * finished folder into place is atomic, but a folder can still be found
 * incomplete: damaged by hand, by a full disk, or by a version of fatecraft
 * that let two writers meet. So the writer puts `manifest.yaml` in the folder
 * last, listing every file, and whoever depends on the folder (tick, status,
 * the next turn) checks that they are all there before use, and says how to
 * repair it instead of failing on a missing file. Only presence is checked:
 * the GM may edit a turn's state.yaml (and `nation add` does).
 *
 * Folders written before manifests existed, or laid down by hand, are taken
 * as complete when their state is there.
 */
export const MANIFEST = 'manifest.yaml';

export interface TurnManifest {
  turn: number;
  /** Every file of the folder but the manifest, by path relative to it ("/" separated), sorted. */
  files: string[];
}

export function manifestYaml(manifest: TurnManifest): string {
  const files = [...manifest.files].sort();
  return `# Written last: turn ${manifest.turn}'s folder is complete when every file below is here.\n${writeYaml({ turn: manifest.turn, files })}`;
}

/** Writes the manifest into a folder being built and puts it on disk. */
export async function writeManifest(folder: string, manifest: TurnManifest): Promise<void> {
  await writeSynced(join(folder, MANIFEST), manifestYaml(manifest));
}

async function writeSynced(path: string, text: string): Promise<void> {
  const fh = await openFile(path, 'w');
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** A turn folder's own files are the record of the turn; its reports (loose, or packed in reports.tar.gz) can be made again from them. */
const isReport = (rel: string) => rel.startsWith('reports/') || rel === 'reports.tar.gz';

/** incomplete: the turn's own files are missing; reports: only reports are, and can be made again. */
export interface TurnFolderProblem {
  kind: 'incomplete' | 'reports';
  turn: number;
  folder: string;
  detail: string;
}

/** What is wrong with a resolved turn's folder, or undefined when it is whole. */
export async function checkTurnFolder(folder: string, turn: number): Promise<TurnFolderProblem | undefined> {
  const incomplete = (detail: string): TurnFolderProblem => ({ kind: 'incomplete', turn, folder, detail });
  const manifestPath = join(folder, MANIFEST);
  if (!existsSync(manifestPath)) {
    // A GM may also lay down a turn by hand (a state to start from, mid-campaign): its state is what counts.
    return existsSync(join(folder, 'state.yaml')) ? undefined : incomplete(`no ${MANIFEST} and no state.yaml`);
  }
  const manifest = await readManifest(manifestPath);
  if (!manifest) return incomplete(`${MANIFEST} is unreadable`);
  const missing = await missingFiles(folder, manifest.files);
  const own = missing.filter((r) => !isReport(r));
  if (own.length) return incomplete(`${listed(own)} missing`);
  if (missing.length) return { kind: 'reports', turn, folder, detail: `${listed(missing)} missing` };
  return undefined;
}

/**
 * The listed files not in the folder. One listing per directory rather than a
 * look-up per file: a 1,000-nation turn lists 6,000 files, and every tick
 * checks them. A symbolic link counts when what it points to exists.
 */
async function missingFiles(folder: string, files: readonly string[]): Promise<string[]> {
  const listings = new Map<string, Map<string, boolean> | undefined>();
  const missing: string[] = [];
  for (const rel of files) {
    const slash = rel.lastIndexOf('/');
    const sub = rel.slice(0, Math.max(slash, 0));
    if (!listings.has(sub)) {
      const entries = await readdir(join(folder, sub), { withFileTypes: true }).catch(() => undefined);
      listings.set(sub, entries && new Map(entries.map((e) => [e.name, e.isSymbolicLink()])));
    }
    const isLink = listings.get(sub)?.get(rel.slice(slash + 1));
    if (isLink === undefined || (isLink && !existsSync(join(folder, rel)))) missing.push(rel);
  }
  return missing;
}

function listed(items: string[]): string {
  return items.length <= 3 ? items.join(', ') : `${items.slice(0, 3).join(', ')} and ${items.length - 3} more files`;
}

async function readManifest(path: string): Promise<TurnManifest | undefined> {
  try {
    // Machine-written and only ever trusted or not: js-yaml alone (the strict reader's messages are not needed).
    const value = jsyaml.load(await readFile(path, 'utf8'), { schema: jsyaml.CORE_SCHEMA }) as Partial<TurnManifest> | null;
    if (!value || typeof value.turn !== 'number' || !Array.isArray(value.files) || !value.files.every((f) => typeof f === 'string')) return undefined;
    return value as TurnManifest;
  } catch {
    return undefined;
  }
}

/** The problem as the GM reads it, with the command that repairs it. */
export function turnFolderMessage(campaignDir: string, problem: TurnFolderProblem): string {
  const name = relative(campaignDir, problem.folder).split(sep).join('/');
  return problem.kind === 'incomplete'
    ? `${name} is incomplete (${problem.detail}): turn ${problem.turn} was not written whole. Put it aside and resolve the turn again with: fatecraft repair ${campaignDir}`
    : `the reports of turn ${problem.turn} are damaged (${problem.detail}). Write them again with: fatecraft repair ${campaignDir}`;
}

export function turnFolderError(campaignDir: string, problem: TurnFolderProblem): CampaignError {
  return new CampaignError([{ file: campaignDir, message: turnFolderMessage(campaignDir, problem) }]);
}

/**
 * Records a turn folder's files as they are now: after its reports were made
 * again. Written beside and renamed over the old manifest, so a crash leaves
 * the old one or the new one.
 */
export async function refreshManifest(folder: string, turn: number): Promise<void> {
  const files: string[] = [];
  const walk = async (sub: string): Promise<void> => {
    for (const entry of await readdir(join(folder, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      // Temporaries (".reports.partial-…") are not the folder's.
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) await walk(rel);
      else if (entry.isFile() && rel !== MANIFEST) files.push(rel);
    }
  };
  await walk('');
  const aside = `.${MANIFEST}.new`;
  await writeSynced(join(folder, aside), manifestYaml({ turn, files }));
  await rename(join(folder, aside), join(folder, MANIFEST));
  await syncDir(folder);
}
