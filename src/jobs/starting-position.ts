import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeReports } from '../report/write.js';
import { initialState } from '../campaign/initial-state.js';
import { ensureStartingState, turnDirName, type OpenCampaign } from '../campaign/store.js';

export interface StartingPosition {
  /** Turn 0 was written now from the start sheets (false: it was on disk). */
  wroteTurn: boolean;
  /** Turn 0's reports were written now (false: they were on disk). */
  wroteReports: boolean;
}

/**
 * Turn 0 and its reports, the first thing players receive: written when missing, left as they are
 * otherwise, so a start run twice (or a tick after `fatecraft start`) changes nothing. The caller holds
 * the campaign lock. `deadline` is turn 1's, as the reports and order sheets print it.
 */
export async function writeStartingPosition(open: OpenCampaign, deadline: string, deadlineByNation?: Readonly<Record<string, string>>): Promise<StartingPosition> {
  const turnDir = join(open.dir, 'turns', turnDirName(0));
  const wroteTurn = !existsSync(turnDir);
  await ensureStartingState(open, () => initialState(open.file));
  const wroteReports = !existsSync(join(turnDir, 'reports'));
  if (wroteReports) await writeReports(open.dir, { turn: 0, deadline, ...(deadlineByNation ? { deadlineByNation } : {}) });
  return { wroteTurn, wroteReports };
}
