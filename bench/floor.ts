// First, as in the command line: the V8 flag the turn runs with (src/cli/tiering.ts).
import '../src/cli/tiering.js';
import { readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { StagingFolder } from '../src/campaign/staging.js';
import { openCampaign, readState, readTurnEvents } from '../src/campaign/store.js';
import { latestTurn } from '../src/campaign/turn-folders.js';
import type { NationId } from '../src/core/ids.js';
import { loadTemplates, renderNationReports } from '../src/report/render.js';
import { reportSettings, templateDirs } from '../src/report/renderer.js';
import { nationView } from '../src/report/nation-view.js';

/**
 * What a resolved turn's output costs with nothing else in the way: the floors issue 37's target against
 * Atlantis at 1,000 nations × 1 unit was measured by (docs/benchmarks.md, thirteenth session).
 *
 *   node dist/bench/floor.js render <campaign>        every nation's files of the latest turn made again
 *                                                     from views built beforehand (not timed), 3 rounds
 *   node dist/bench/floor.js write <folder> <new>     the folder's files, read beforehand, written into a
 *                                                     new folder and flushed as a turn writes and flushes
 *                                                     its staging folder, and the folder renamed
 *
 * The views are made without the turn's orders (a report's answers to them), so a round renders a little
 * less than the turn did: if anything the floor is low. Nothing is compared or kept.
 */
const [mode, from, to] = process.argv.slice(2);

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

async function renderFloor(dir: string): Promise<void> {
  const open = await openCampaign(dir);
  const turn = await latestTurn(dir);
  if (!turn) throw new Error(`${dir} has no resolved turn to render again`);
  const before = await readState(dir, turn - 1, open.campaign);
  const state = await readState(dir, turn, open.campaign);
  const events = await readTurnEvents(dir, turn);
  const templates = loadTemplates(templateDirs(open));
  const formats = reportSettings(open).formats;
  const nations = Object.keys(state.nations).filter((id) => open.campaign.nations[id as NationId]) as NationId[];
  const views = nations.map((id) => nationView(open.campaign, before, state, events, id));
  console.log(`turn ${turn}: ${views.length} nations' views made (not timed)`);
  for (let round = 1; round <= 3; round++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    let bytes = 0;
    for (const view of views) {
      for (const text of Object.values(renderNationReports(view, open.campaign, templates, formats))) bytes += Buffer.byteLength(text ?? '');
    }
    console.log(`round ${round}: ${(performance.now() - start).toFixed(0)} ms wall, ${cpuMs(cpu).toFixed(0)} ms CPU, ${(bytes / 1e6).toFixed(1)} MB`);
  }
}

async function writeFloor(folder: string, target: string): Promise<void> {
  const files = (readdirSync(folder, { recursive: true }) as string[]).filter((rel) => statSync(join(folder, rel)).isFile()).map((rel) => [rel, readFileSync(join(folder, rel))] as const);
  const cpu = process.cpuUsage();
  const start = performance.now();
  const staging = new StagingFolder(target);
  for (const [rel, content] of files) await staging.write(rel, content);
  await staging.flush();
  renameSync(target, `${target}.done`);
  const bytes = files.reduce((sum, [, content]) => sum + content.length, 0);
  console.log(`${files.length} files, ${(bytes / 1e6).toFixed(1)} MB: ${(performance.now() - start).toFixed(0)} ms wall, ${cpuMs(cpu).toFixed(0)} ms CPU`);
}

if (mode === 'render' && from) await renderFloor(from);
else if (mode === 'write' && from && to) await writeFloor(from, to);
else {
  console.error('usage: node dist/bench/floor.js render <campaign> | write <folder> <new folder>');
  process.exit(2);
}
