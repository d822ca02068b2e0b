import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What a write killed half-way leaves in a campaign folder: the temporary
 * file of an atomic write (write-file-atomic and host/atomic-file.ts name it
 * `<file>.<number>`, e.g. `argenta.eml.3021937650`, and rename it over
 * `<file>` when it is whole),
 * and a GM operation's staged file (`<file>.gm-new`, journal.ts) when no
 * journal will ever apply it. Only the process holding the campaign's lock
 * writes the folder, so when it takes the lock, what it finds of these is a
 * dead process's: it removes them (issue 33), as the turn's temporary folders
 * are (process-owner.ts). The turns' folders are looked at only for the
 * latest turn, the one the GM's operations write; the rest is every folder.
 */
const ATOMIC_TEMPORARY = /\.(?:eml|ya?ml|json|txt|html|svg|gz)\.\d{1,10}$/;
const STAGED = /\.gm-new$/;
const JOURNAL = '.gm-journal.json';

export async function clearDeadWrites(dir: string): Promise<string[]> {
  const removed: string[] = [];
  const staged = !existsSync(join(dir, JOURNAL));
  const latest = await latestTurnFolder(dir);
  const visit = async (folder: string, rel: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(folder, e.name);
      const name = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name.startsWith('.') || e.name === 'node_modules') continue;
        if (rel === 'turns' && e.name !== latest) continue;
        await visit(path, name);
      } else if (e.isFile() && (ATOMIC_TEMPORARY.test(e.name) || (staged && STAGED.test(e.name)))) {
        await rm(path, { force: true });
        removed.push(name);
      }
    }
  };
  await visit(dir, '');
  return removed;
}

async function latestTurnFolder(dir: string): Promise<string | undefined> {
  try {
    return (await readdir(join(dir, 'turns'))).filter((n) => /^\d{4,}$/.test(n)).sort((a, b) => Number(a) - Number(b)).at(-1);
  } catch {
    return undefined;
  }
}
