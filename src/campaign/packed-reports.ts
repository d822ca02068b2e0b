import { createWriteStream, existsSync } from 'node:fs';
import { readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip } from 'node:zlib';
import { clearDeadTemporaries, temporaryName } from './process-owner.js';
import { syncDir, syncFile } from './staging.js';
import { readTarGz, TAR_END, tarEntry } from './tar.js';
import { listTurns, turnDirName } from './turn-folders.js';
import { refreshManifest } from './turn-manifest.js';

/**
 * Old turns' reports, packed. A 1,000-nation turn's reports are 400 MB of
 * text that nobody reads again once the next turns are out, and that
 * compress seven to ten times over. A campaign keeps the last
 * `reports.keepTurns` turns' reports as they are (4 by default) and packs
 * older ones into turns/NNNN/reports.tar.gz, one archive a turn: a tar any
 * `tar xzf` opens, of the same files under the same names (reports/…), so
 * a packed turn's reports read back byte for byte (readPackedReports).
 *
 * Packing never loses a form: the archive is written under a temporary name
 * and put on disk, then renamed into place (from then on it is whole), the
 * manifest refreshed, and only then the loose reports removed and the
 * manifest refreshed again. A crash at any step leaves the loose reports,
 * or the archive, or both; the next packing (after the next turn, or
 * `fatecraft repair`) finishes the job. Only the reports are packed: a
 * turn's state, events and orders stay as they are, for reruns, rollbacks
 * and re-rendering.
 */
export const PACKED_REPORTS = 'reports.tar.gz';
const REPORTS = 'reports';
const PACK_TEMPORARY = /^\.reports\.tar\.gz\.partial-/;

/**
 * zlib's fastest level: about 7× smaller for a third of the CPU of the
 * default level (9.8×), so packing a 1,000-nation turn fits in the time
 * the second core idles while this one resolves the next turn.
 */
const PACK_LEVEL = constants.Z_BEST_SPEED;

/** How many turns' reports stay loose when a campaign does not say. */
export const DEFAULT_KEEP_TURNS = 4;

export const packedReportsPath = (turnFolder: string) => join(turnFolder, PACKED_REPORTS);
export const isPacked = (turnFolder: string) => existsSync(packedReportsPath(turnFolder));

/** The resolved turns whose reports are to be packed once `latest` is resolved, keeping `keep` turns loose. */
export async function turnsToPack(campaignDir: string, latest: number, keep: number): Promise<number[]> {
  const out: number[] = [];
  for (const turn of await listTurns(campaignDir)) {
    if (turn > latest - keep) break;
    if (existsSync(join(campaignDir, 'turns', turnDirName(turn), REPORTS))) out.push(turn);
  }
  return out;
}

/** A pack under way: its archive written beside the turn, put in place by commit, dropped by abandon. */
export interface Packing {
  commit(): Promise<void>;
  abandon(): Promise<void>;
}

/**
 * Starts packing the given turns' reports (archives written in the
 * background, zlib working on the thread pool); `commit` waits for them and
 * puts them in place, `abandon` removes what was written.
 */
export function startPacking(campaignDir: string, turns: readonly number[]): Packing {
  const jobs = turns.map((turn) => {
    const folder = join(campaignDir, 'turns', turnDirName(turn));
    const written = isPacked(folder) ? Promise.resolve(undefined) : writeArchive(folder);
    written.catch(() => undefined);
    return { turn, folder, written };
  });
  return {
    async commit() {
      for (const job of jobs) {
        const tmp = await job.written;
        if (tmp) {
          await rename(tmp, packedReportsPath(job.folder));
          await syncDir(job.folder);
        }
        await dropLooseReports(job.folder, job.turn);
      }
    },
    async abandon() {
      for (const job of jobs) {
        const tmp = await job.written.catch(() => undefined);
        if (tmp) await rm(tmp, { force: true });
      }
    },
  };
}

/** Packs the given turns now (repair, tests). */
export async function packTurns(campaignDir: string, turns: readonly number[]): Promise<void> {
  const packing = startPacking(campaignDir, turns);
  try {
    await packing.commit();
  } catch (e) {
    await packing.abandon();
    throw e;
  }
}

/** Turns whose archive is in place beside loose reports (a packing a crash cut short): the loose ones go. */
export async function finishPacking(campaignDir: string): Promise<number[]> {
  const finished: number[] = [];
  for (const turn of await listTurns(campaignDir)) {
    const folder = join(campaignDir, 'turns', turnDirName(turn));
    if (!isPacked(folder) || !existsSync(join(folder, REPORTS))) continue;
    await dropLooseReports(folder, turn);
    finished.push(turn);
  }
  return finished;
}

/** The loose reports go once the archive is in place; the manifest names the archive before and after. */
async function dropLooseReports(folder: string, turn: number): Promise<void> {
  if (!existsSync(join(folder, REPORTS))) return;
  await refreshManifest(folder, turn);
  await rm(join(folder, REPORTS), { recursive: true, force: true, maxRetries: 5 });
  await syncDir(folder);
  await refreshManifest(folder, turn);
}

/** Writes the turn's loose reports into an archive under a temporary name, on disk; returns that name. */
async function writeArchive(folder: string): Promise<string> {
  await clearDeadTemporaries(folder, PACK_TEMPORARY);
  const names = await filesUnder(join(folder, REPORTS));
  return writeEntries(folder, async function* () {
    for (const rel of names) yield { name: `${REPORTS}/${rel}`, bytes: await readFile(join(folder, REPORTS, rel)) };
  });
}

/** An archive of the entries (in the order given) beside the turn, under a temporary name, synced. */
async function writeEntries(folder: string, entries: () => AsyncIterable<{ name: string; bytes: Uint8Array }>): Promise<string> {
  const tmp = join(folder, temporaryName('.reports.tar.gz.partial-'));
  async function* tar() {
    for await (const e of entries()) yield* tarEntry(e.name, e.bytes);
    yield TAR_END;
  }
  try {
    await pipeline(tar, createGzip({ level: PACK_LEVEL }), createWriteStream(tmp));
    await syncFile(tmp);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  return tmp;
}

/** Files under a folder, "/"-separated and sorted (the archive's order, so the same files give the same bytes). */
async function filesUnder(dir: string, sub = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(dir, sub), { withFileTypes: true })) {
    const rel = sub ? `${sub}/${entry.name}` : entry.name;
    if (entry.name.startsWith('.')) continue; // a re-render's staging folder
    if (entry.isDirectory()) out.push(...(await filesUnder(dir, rel)));
    else if (entry.isFile()) out.push(rel);
  }
  return out.sort();
}

/**
 * A packed turn's report files, by name inside reports/ ("argenta.txt"); only
 * those `wanted` says yes to (all by default), so a caller after one nation's
 * files holds only those.
 */
export async function readPackedReports(turnFolder: string, wanted: (name: string) => boolean = () => true): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for await (const entry of readTarGz(packedReportsPath(turnFolder))) {
    const name = entry.name.startsWith(`${REPORTS}/`) ? entry.name.slice(REPORTS.length + 1) : entry.name;
    if (wanted(name)) out.set(name, entry.bytes);
  }
  return out;
}

/**
 * Re-rendered reports of a packed turn go into a new archive: the old one's
 * files, those made again replaced (by name inside reports/), in the same
 * sorted order, so re-rendering every report gives the same bytes. Renamed
 * over the old archive: a crash leaves the one or the other.
 */
export async function repackReports(turnFolder: string, turn: number, fresh: ReadonlyMap<string, string>): Promise<void> {
  await clearDeadTemporaries(turnFolder, PACK_TEMPORARY);
  const old = packedReportsPath(turnFolder);
  const tmp = await writeEntries(turnFolder, async function* () {
    const remaining = [...fresh.keys()].sort();
    let next = 0;
    const freshEntry = async (rel: string) => ({ name: `${REPORTS}/${rel}`, bytes: await readFile(fresh.get(rel)!) });
    for await (const entry of readTarGz(old)) {
      const rel = entry.name.slice(REPORTS.length + 1);
      while (next < remaining.length && remaining[next]! < rel) yield await freshEntry(remaining[next++]!);
      if (next < remaining.length && remaining[next] === rel) yield await freshEntry(remaining[next++]!);
      else yield entry;
    }
    while (next < remaining.length) yield await freshEntry(remaining[next++]!);
  });
  await rename(tmp, old);
  await syncDir(turnFolder);
  await refreshManifest(turnFolder, turn);
}
