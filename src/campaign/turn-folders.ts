import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * How resolved turns are named on disk: turns/NNNN, and only those names
 * count as turns (turns/NNNN.superseded-1, temporaries and the like do not).
 * Kept apart from store.ts, which loads the schemas, so that the idle tick
 * can count turns without them.
 */
export const turnDirName = (turn: number) => String(turn).padStart(4, '0');

/** Resolved turns present on disk, ascending (0 is the starting position). */
export async function listTurns(dir: string): Promise<number[]> {
  const turnsDir = join(dir, 'turns');
  if (!existsSync(turnsDir)) return [];
  const names = await readdir(turnsDir);
  return names.filter((n) => /^\d{4,}$/.test(n)).map(Number).sort((a, b) => a - b);
}

export async function latestTurn(dir: string): Promise<number | undefined> {
  return (await listTurns(dir)).at(-1);
}
