import { existsSync } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { CampaignError } from './problems.js';
import { syncDir } from './store.js';
import { failpoint } from '../host/failpoints.js';

/**
 * Several files changed as one: a GM operation that edits campaign.yaml and
 * the latest state.yaml must not leave one edited and the other not. Each new
 * file is first written whole beside its target (`<file>.gm-new`), then a
 * journal listing the renames is written, then the renames are done and the
 * journal removed. A crash before the journal changes nothing; after it, the
 * next fatecraft command (tick or GM) finishes the renames.
 */
const JOURNAL = '.gm-journal.json';

export interface FileWrite {
  /** Path inside the campaign folder. */
  path: string;
  content: string | Buffer;
}

export async function commitFiles(dir: string, writes: FileWrite[]): Promise<void> {
  const renames: [string, string][] = [];
  for (const w of writes) {
    const target = resolve(dir, w.path);
    const rel = relative(resolve(dir), target);
    if (rel.startsWith('..')) throw new Error(`commitFiles: ${w.path} is outside the campaign folder`);
    const staged = `${target}.gm-new`;
    await writeFileAtomic(staged, w.content, { fsync: true });
    renames.push([relative(dir, staged), relative(dir, target)]);
  }
  await failpoint('gm-files-staged');
  await writeFileAtomic(join(dir, JOURNAL), JSON.stringify({ renames }, null, 1), { fsync: true });
  await failpoint('gm-journal-written');
  await applyJournal(dir, renames);
}

async function applyJournal(dir: string, renames: [string, string][]): Promise<void> {
  for (const [from, to] of renames) {
    if (existsSync(join(dir, from))) await rename(join(dir, from), join(dir, to));
    await syncDir(dirname(join(dir, to)));
  }
  await rm(join(dir, JOURNAL), { force: true });
}

/** Finishes an interrupted commit. Returns the files it completed (empty when there was none). */
export async function recoverJournal(dir: string): Promise<string[]> {
  const path = join(dir, JOURNAL);
  if (!existsSync(path)) return [];
  let renames: [string, string][];
  try {
    renames = (JSON.parse(await readFile(path, 'utf8')) as { renames: [string, string][] }).renames;
  } catch (e) {
    throw new CampaignError([{ file: path, message: `an interrupted GM operation left a journal that cannot be read (${(e as Error).message}); compare the *.gm-new files with their targets, keep the right ones, and delete the journal` }]);
  }
  await applyJournal(dir, renames);
  return renames.map(([, to]) => to);
}

