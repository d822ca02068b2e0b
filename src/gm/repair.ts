import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { latestTurnProblem, turnDirName } from '../campaign/store.js';
import { syncDir } from '../campaign/staging.js';
import { restoreKeptOrders } from '../campaign/kept-orders.js';
import { finishPacking } from '../campaign/packed-reports.js';
import { writeReports } from '../report/write.js';
import { RENDER_INPUTS_FILE } from '../campaign/render-inputs.js';
import { readRuntime } from '../schedule/runtime.js';
import { nextAsideIndex, withGm, type GmOptions } from './context.js';

/**
 * `fatecraft repair`: what to do with a turn folder that is not whole (see
 * turn-manifest.ts). Nothing is deleted:
 *
 * - a turn whose own files are missing or changed is put aside as
 *   turns/NNNN.incomplete-<k> and is pending again: the orders it was
 *   resolved from (kept in its folder) are copied back to orders/NNNN, so
 *   the next tick past its deadline (or `fatecraft turn`) resolves it once
 *   more, to the same result (an order file the damaged folder lost is
 *   gone with it; the raw mail, orders/NNNN/<nation>.eml, is still there);
 * - a turn whose reports alone are damaged has them made again from its
 *   state and event log.
 */
export interface RepairResult {
  /** Turns put aside, latest first, with where each went. */
  putAside: { turn: number; to: string }[];
  /** The turn whose reports were made again. */
  reportsRewritten?: number;
  /** Old turns whose interrupted packing was finished (campaign/packed-reports.ts). */
  packsFinished?: number[];
  /** The pending turn afterwards. */
  pending: number;
}

export async function repairTurns(dir: string, opts: GmOptions): Promise<RepairResult> {
  return withGm(dir, 'repair', opts, async (ctx) => {
    const rt = ctx.runtime;
    // A campaign run by hand has no schedule yet: repair does not start one.
    const scheduled = (await readRuntime(dir)) !== undefined;
    const turnsDir = join(dir, 'turns');
    const putAside: RepairResult['putAside'] = [];
    // Old turns whose packing a crash cut short (archive in place, loose reports not yet gone) are finished first.
    const packsFinished = await finishPacking(dir);
    for (const t of packsFinished) ctx.log('repair', `the packing of turn ${t}'s reports was cut short; finished`, t);
    let problem = await latestTurnProblem(dir);
    if (!problem && packsFinished.length) {
      if (scheduled) await ctx.save();
      return { putAside: [], packsFinished, pending: rt.turn };
    }
    if (!problem) ctx.refuse('nothing to repair: the latest turn folder has every file its manifest lists');
    while (problem?.kind === 'incomplete') {
      const name = turnDirName(problem.turn);
      const k = await nextAsideIndex(turnsDir, 'incomplete', name);
      const to = join(turnsDir, `${name}.incomplete-${k}`);
      await rename(problem.folder, to);
      // Pending again: with the orders it was resolved from (those its folder still has), unless orders/NNNN has them.
      await restoreKeptOrders(to, dir, problem.turn, 'copy');
      putAside.push({ turn: problem.turn, to });
      ctx.log('repair', `turn ${problem.turn} was not written whole (${problem.detail}); put aside as turns/${name}.incomplete-${k}, to be resolved again`, problem.turn);
      problem = await latestTurnProblem(dir);
    }
    if (putAside.length) await syncDir(turnsDir);
    const latest = Math.min(...putAside.map((p) => p.turn), ctx.latest + 1) - 1;
    let reportsRewritten: number | undefined;
    if (problem?.kind === 'reports') {
      // As first rendered, when the turn kept what they were rendered with; else the pending turn's deadline, when these are the latest reports.
      const recorded = existsSync(join(turnsDir, turnDirName(problem.turn), RENDER_INPUTS_FILE));
      const deadline = !recorded && scheduled && rt.turn === problem.turn + 1 ? ctx.local(rt.deadline) : undefined;
      await writeReports(dir, { turn: problem.turn, ...(deadline ? { deadline } : {}) });
      reportsRewritten = problem.turn;
      ctx.log('repair', `the reports of turn ${problem.turn} were damaged (${problem.detail}); made again`, problem.turn);
    }
    if (putAside.length && rt.turn > latest + 1) {
      // The schedule had booked a turn that is no longer there: it is pending again, due as it was.
      rt.turn = latest + 1;
      delete rt.resolving;
      rt.reportsDue = rt.reportsDue.filter((r) => r.turn <= latest);
    }
    if (scheduled) await ctx.save();
    return { putAside, ...(reportsRewritten !== undefined ? { reportsRewritten } : {}), ...(packsFinished.length ? { packsFinished } : {}), pending: rt.turn };
  });
}
