import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { turnDirName } from './store.js';

/**
 * How many times a turn was resolved before the result now in turns/NNNN: each earlier result is kept
 * beside it, as turns/NNNN.superseded-<k> (`fatecraft rerun`) or turns/NNNN.rolledback-<k> (`fatecraft
 * rollback`, the turn resolved anew after). 0 for a turn resolved once. Its reports are mailed under this
 * version, so a new result's reports are never taken for the old ones already sent, and go out marked as
 * corrections.
 */
export async function turnVersion(campaignDir: string, turn: number): Promise<number> {
  const folder = join(campaignDir, 'turns');
  if (!existsSync(folder)) return 0;
  const aside = new RegExp(`^${turnDirName(turn)}\\.(?:superseded|rolledback)-\\d+$`);
  return (await readdir(folder)).filter((name) => aside.test(name)).length;
}
