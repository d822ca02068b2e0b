import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Campaign } from '../core/campaign.js';
import type { UnitId } from '../core/ids.js';
import type { LoggedEvent } from '../core/events.js';
import type { GameState } from '../core/state.js';
import { buildCampaign } from './build-campaign.js';
import { readEventCatalogue } from './event-catalogue.js';
import { defaultActions, readActionCatalogue } from './action-catalogue.js';
import { defaultCaretakers, readCaretakerCatalogue } from './caretaker-catalogue.js';
import { CampaignError, validate, type FileProblem } from './problems.js';
import { campaignFileSchema, type CampaignFile } from './schema.js';
import { validateState } from './state-check.js';
import { failpoint } from '../host/failpoints.js';
import { clearDeadTemporaries, temporaryName } from './process-owner.js';
import { StagingFolder, syncDir, type FileSink, type FolderSink } from './staging.js';
import { keepFile, type KeptFile } from './kept-orders.js';
import { latestTurn, listTurns, turnDirName } from './turn-folders.js';
import { checkTurnFolder, turnFolderError, writeManifest, type TurnFolderProblem } from './turn-manifest.js';
import { GM_LIMITS, readBulkYaml, writeYaml, type Locate } from './yaml-io.js';
import { KeptMap } from '../core/kept-map.js';
import { writeYamlParts, writeYamlSorted } from './yaml-write.js';
import { joinedBlocks } from './yaml-bytes.js';

export { syncDir };

/**
 * A campaign on disk:
 *
 *   campaign.yaml                 settings, map, nations (hand-edited by the GM)
 *   turns/0000/state.yaml         the starting position
 *   turns/NNNN/                   a resolved turn: state.yaml, events.yaml, orders/, reports/
 *   orders/NNNN/<nation>.yaml     orders for the pending turn (moved into its turn folder once resolved)
 *
 * Turn folders are written whole or not at all: built under a temporary name
 * and renamed into place, which is atomic on one file system.
 */
export { latestTurn, listTurns, turnDirName };

export interface OpenCampaign {
  dir: string;
  file: CampaignFile;
  campaign: Campaign;
}

export async function readYamlFile(path: string, label: string) {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw new CampaignError([{ file: label, message: cannotRead(e as NodeJS.ErrnoException) }]);
  }
  return yamlFromBytes(bytes, label);
}

/** A file's bytes read as YAML (readBulkYaml), or a CampaignError naming the file and the line. */
export function yamlFromBytes(bytes: Uint8Array, label: string) {
  const read = readBulkYaml(bytes, GM_LIMITS);
  if (!read.ok) throw new CampaignError(read.problems.map((p) => ({ file: label, ...(p.line !== undefined ? { line: p.line } : {}), message: p.message })));
  return read;
}

/** Why a file could not be read, in words (no errno codes). */
export function cannotRead(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ENOENT':
      return 'the file does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'fatecraft may not read the file (permissions)';
    case 'EISDIR':
      return 'this is a folder, not a file';
    case 'ENOTDIR':
      return 'a folder on the way to it is a file';
    default:
      return `cannot read the file (${e.message})`;
  }
}

/**
 * campaign.yaml and its catalogues read, checked and built into the campaign. Building is most of the cost (a
 * tick in a long-running process, the daemon or the tests, opens its campaign several times; the tests open
 * copies of one campaign by the thousand), so the built campaign is kept for the same bytes of its four files,
 * and each caller gets its own copy, placed in its folder: an edited file is read anew on the next open.
 */
export async function openCampaign(dir: string): Promise<OpenCampaign> {
  const label = join(dir, 'campaign.yaml');
  if (!existsSync(label)) throw notACampaign(dir);
  const bytes = await readCampaignFiles(dir);
  const key = openedKey(bytes);
  const kept = openedCampaigns.get(key);
  if (kept) return placedIn(dir, structuredClone(kept));
  const opened = buildOpenCampaign(dir, bytes);
  openedCampaigns.set(key, opened);
  return structuredClone(opened);
}

/**
 * A kept campaign read from another folder with the same files: the folder and the catalogues' files (all that
 * names a path; test/campaign/open-kept.test.ts holds it to that) are this one's.
 */
function placedIn(dir: string, open: OpenCampaign): OpenCampaign {
  const { campaign } = open;
  for (const [catalogue, name] of [[campaign.events, EVENTS_FILE], [campaign.actions, ACTIONS_FILE], [campaign.caretakers, CARETAKERS_FILE]] as const) {
    if (catalogue?.source !== undefined) catalogue.source = join(dir, name);
  }
  return { ...open, dir };
}

/** Campaigns built, by the hash of their files' bytes; never handed out (callers get copies); the oldest goes first. */
const openedCampaigns = new KeptMap<string, OpenCampaign>({ entries: 16 });

/** The bytes of campaign.yaml and of each catalogue beside it (undefined: no such file). */
interface CampaignBytes {
  campaign: Buffer;
  catalogues: Record<typeof CATALOGUE_FILES[number], Buffer | undefined>;
}

async function readCampaignFiles(dir: string): Promise<CampaignBytes> {
  const label = join(dir, 'campaign.yaml');
  const read = async (path: string) => {
    try {
      return await readFile(path);
    } catch (e) {
      throw new CampaignError([{ file: path, message: cannotRead(e as NodeJS.ErrnoException) }]);
    }
  };
  const campaign = await read(label);
  const catalogues = {} as CampaignBytes['catalogues'];
  for (const name of CATALOGUE_FILES) catalogues[name] = existsSync(join(dir, name)) ? await read(join(dir, name)) : undefined;
  return { campaign, catalogues };
}

function openedKey(bytes: CampaignBytes): string {
  const hash = createHash('sha256');
  for (const b of [bytes.campaign, ...CATALOGUE_FILES.map((name) => bytes.catalogues[name])]) {
    hash.update(b === undefined ? 'absent;' : `${b.length};`);
    if (b !== undefined) hash.update(b);
  }
  return hash.digest('hex');
}

function buildOpenCampaign(dir: string, bytes: CampaignBytes): OpenCampaign {
  const label = join(dir, 'campaign.yaml');
  const read = yamlFromBytes(bytes.campaign, label);
  const file = validate(campaignFileSchema, read, label);
  const { campaign, problems } = buildCampaign(file, label);
  if (problems.length) throw new CampaignError(problems);
  const events = readCatalogueFile(dir, EVENTS_FILE, bytes, campaign, readEventCatalogue, () => undefined);
  const withEvents = events ? { ...campaign, events } : campaign;
  const actions = readCatalogueFile(dir, ACTIONS_FILE, bytes, withEvents, readActionCatalogue, () => ({ entries: defaultActions(withEvents) }));
  const caretakers = readCatalogueFile(dir, CARETAKERS_FILE, bytes, withEvents, readCaretakerCatalogue, () => ({ entries: defaultCaretakers(withEvents) }));
  return { dir, file, campaign: { ...withEvents, actions, caretakers } };
}

/**
 * The campaign as it was at `turn`: without the nations that came into it later (campaign.yaml `joined`, set by
 * `nation split` and `nation add`), so that an earlier turn is read and rendered as it was first written.
 */
export function campaignAsOf(open: OpenCampaign, turn: number): OpenCampaign {
  const later = Object.entries(open.file.nations).filter(([, def]) => def.joined !== undefined && def.joined > turn).map(([id]) => id);
  if (!later.length) return open;
  const without = <V>(r: Record<string, V>) => Object.fromEntries(Object.entries(r).filter(([id]) => !later.includes(id)));
  return { ...open, file: { ...open.file, nations: without(open.file.nations) }, campaign: { ...open.campaign, nations: without(open.campaign.nations) } };
}

/** Who plays a silent player's nation (docs/events.md, "Caretakers"); without the file, the built-in caretakers. */
export const CARETAKERS_FILE = 'caretakers.yaml';

/** The event catalogue beside campaign.yaml (docs/events.md); a campaign without one has no random events. */
export const EVENTS_FILE = 'events.yaml';

/** The units' actions beside campaign.yaml (docs/events.md, "Actions"); without the file, the built-in ones. */
export const ACTIONS_FILE = 'actions.yaml';

const CATALOGUE_FILES = [EVENTS_FILE, ACTIONS_FILE, CARETAKERS_FILE] as const;

/** A catalogue file beside campaign.yaml read and checked (a CampaignError naming its problems), or `absent()` without the file. */
function readCatalogueFile<C, A>(
  dir: string,
  name: typeof CATALOGUE_FILES[number],
  bytes: CampaignBytes,
  campaign: Campaign,
  read: (value: unknown, locate: Locate, file: string, campaign: Campaign) => { catalogue?: C; problems: FileProblem[] },
  absent: () => A,
): C | A {
  const given = bytes.catalogues[name];
  if (given === undefined) return absent();
  const label = join(dir, name);
  const file = yamlFromBytes(given, label);
  const { catalogue, problems } = read(file.value, file.locate, label, campaign);
  if (problems.length || catalogue === undefined) throw new CampaignError(problems);
  return catalogue;
}

/** Why `dir` is not a campaign folder, in words, with the likely slip. */
export function notACampaign(dir: string): CampaignError {
  let message: string;
  if (!existsSync(dir)) message = `there is no such folder: give the campaign's folder (the one with campaign.yaml), e.g. campaigns/silversheen`;
  else if (!statSync(dir).isDirectory()) message = `this is a file, not a campaign folder: are the arguments the wrong way round? The campaign's folder comes first (see --help)`;
  else message = 'there is no campaign.yaml here: is this a campaign folder?';
  return new CampaignError([{ file: dir, message }]);
}

/** What is wrong with the latest resolved turn's folder (checked against its manifest), if anything. */
export async function latestTurnProblem(dir: string): Promise<TurnFolderProblem | undefined> {
  const latest = await latestTurn(dir);
  return latest === undefined ? undefined : checkTurnFolder(join(dir, 'turns', turnDirName(latest)), latest);
}

/** Stops, saying how to repair it, when the latest turn's folder is not whole. */
export async function assertLatestTurnWhole(dir: string): Promise<void> {
  const problem = await latestTurnProblem(dir);
  if (problem) throw turnFolderError(dir, problem);
}

export async function readState(dir: string, turn: number, campaign: Campaign): Promise<GameState> {
  const label = join(dir, 'turns', turnDirName(turn), 'state.yaml');
  const read = await readYamlFile(label, label);
  const state = validateState(read, label);
  addNationsInWaiting(state, campaign);
  checkStateAgainstCampaign(state, campaign, label);
  return state;
}

/**
 * A nation in waiting (campaign.yaml `breaksFrom`, rules.md L3) the GM declared after this state was written
 * has none yet: it is out of play, with nothing, until a civil war brings it in.
 */
function addNationsInWaiting(state: GameState, campaign: Campaign): void {
  for (const def of Object.values(campaign.nations)) {
    if (def.breaksFrom === undefined || state.nations[def.id]) continue;
    state.nations[def.id] = { id: def.id, renown: 0, fate: 0, prosperity: 0, happiness: 0, goals: def.goals.map((g) => ({ id: g.id, done: false })), battlesWon: 0, missedTurns: 0, unitSeq: 0, alive: false };
  }
}

function checkStateAgainstCampaign(state: GameState, campaign: Campaign, file: string): void {
  const problems = [];
  // One pass over the units (a big state has a hundred thousand); their sieges are told after the settlements, as always.
  const sieges = [];
  for (const id in state.units) {
    const u = state.units[id as UnitId]!;
    if (u.id !== id) problems.push({ file, path: `units.${id}.id`, message: `the key is ${id} but the id says ${u.id}` });
    const nation = campaign.nations[u.nation];
    if (!nation) problems.push({ file, path: `units.${id}.nation`, message: `no nation "${u.nation}" in campaign.yaml` });
    else if (!nation.unitTypes[u.type]) problems.push({ file, path: `units.${id}.type`, message: `${u.nation} has no unit type "${u.type}"` });
    if (!u.besieging) continue;
    // The engine finds besiegers on the settlement's hex, where an attack on it puts them.
    const besieged = state.settlements[u.besieging];
    if (!besieged) sieges.push({ file, path: `units.${id}.besieging`, message: `there is no settlement "${u.besieging}"` });
    else if (besieged.hex !== u.hex) sieges.push({ file, path: `units.${id}.hex`, message: `${id} besieges ${u.besieging}, so it stands at ${besieged.hex}, not ${u.hex}` });
  }
  for (const [id, s] of Object.entries(state.settlements)) {
    if (!campaign.nations[s.nation]) problems.push({ file, path: `settlements.${id}.nation`, message: `no nation "${s.nation}" in campaign.yaml` });
  }
  problems.push(...sieges);
  for (const nid of Object.keys(campaign.nations)) {
    if (!state.nations[nid as keyof typeof state.nations]) problems.push({ file, path: `nations`, message: `nation "${nid}" from campaign.yaml has no state` });
  }
  if (problems.length) throw new CampaignError(problems);
}

/** The event log of a resolved turn (empty for turn 0 and older campaigns without one). */
export async function readTurnEvents(dir: string, turn: number): Promise<LoggedEvent[]> {
  const path = join(dir, 'turns', turnDirName(turn), 'events.yaml');
  if (!existsSync(path)) return [];
  const read = await readYamlFile(path, path);
  const value = read.value as { events?: unknown } | null;
  if (!value || !Array.isArray(value.events)) throw new CampaignError([{ file: path, path: 'events', message: 'events.yaml needs a list of events' }]);
  return value.events as LoggedEvent[];
}

export interface TurnFiles {
  state: GameState;
  events: LoggedEvent[];
  /** Further files, by path relative to the turn folder. */
  extra: Record<string, string | Buffer>;
  /** Files the turn keeps from elsewhere (the orders used), linked rather than written again where possible. */
  kept?: Record<string, KeptFile>;
}

/** Canonical YAML of a state: maps sorted by id so the file is byte-stable and diffable. */
export function stateYaml(state: GameState): string {
  return stateYamlBytes(state).toString('utf8');
}

/** stateYaml in UTF-8, as the file holds it. */
export function stateYamlBytes(state: GameState): Buffer {
  return joinedBlocks(stateYamlParts(state));
}

/** stateYamlBytes in the blocks it was written into, for the file to take as they are. */
function stateYamlParts(state: GameState): Buffer[] {
  const records = [state.nations, state.settlements, state.externals, state.units];
  const document = (sorted: <V>(r: Record<string, V>) => Record<string, V>) => ({
    turn: state.turn,
    seq: state.seq,
    nations: sorted(state.nations),
    settlements: sorted(state.settlements),
    externals: sorted(state.externals),
    units: sorted(state.units),
    builds: state.builds,
    // Written only while aspects are in play (rules.fate.aspects), so other campaigns' files stay as they were.
    ...(state.aspects?.length ? { aspects: state.aspects } : {}),
    ...(state.tradeRoutes?.length ? { tradeRoutes: state.tradeRoutes } : {}),
  });
  // The records as they are, written in sorted order; a state the fast writer cannot write is copied sorted for js-yaml.
  return writeYamlSorted(document((r) => r), new Set(records)) ?? [Buffer.from(writeYaml(document(sortedCopy)))];
}

/** A record's copy with its keys inserted in sorted order (the built-in sort's: UTF-16 code units, as `<` compares). */
function sortedCopy<V>(r: Record<string, V>): Record<string, V> {
  const sorted: Record<string, V> = {};
  for (const key of Object.keys(r).sort()) sorted[key] = r[key]!;
  return sorted;
}

/**
 * Writes a whole turn folder atomically. Refuses to overwrite a resolved turn:
 * re-resolving goes through an explicit GM operation that keeps the old one.
 * `fill` writes further files (the reports) into the folder while it is
 * still temporary, so they are part of the same all-or-nothing rename.
 */
export async function writeTurn(dir: string, turn: number, files: TurnFiles, fill?: (sink: FolderSink, alongside: () => Promise<void>) => Promise<void>): Promise<string> {
  const turnsDir = join(dir, 'turns');
  const final = join(turnsDir, turnDirName(turn));
  if (existsSync(final)) throw new CampaignError([{ file: final, message: `turn ${turn} is already resolved` }]);
  await mkdir(turnsDir, { recursive: true });
  // A crash's leftovers, and only those: a live writer's folder is never touched (the campaign lock
  // keeps writers apart; this is the second line of defence).
  await clearDeadTemporaries(turnsDir, TURN_TEMPORARY);
  const tmp = join(turnsDir, temporaryName(`.${turnDirName(turn)}.partial-`));
  await rm(tmp, { recursive: true, force: true });
  const staging = new StagingFolder(tmp);
  // The turn's own files, written once: by `fill` while its workers render (seconds of YAML for a big
  // world, which would otherwise leave the other cores idle), or here after it.
  let own: Promise<void> | undefined;
  const writeOwn = () => (own ??= writeTurnFiles(staging, turn, files));
  try {
    if (fill) await fill(staging, writeOwn);
    await writeOwn();
    await staging.flush();
    // Last, so a folder with a manifest has everything the manifest lists.
    await writeManifest(tmp, { turn, files: staging.files });
    await syncDir(tmp);
  } catch (e) {
    // Nothing of a failed turn stays behind (a crash's leftovers are cleared by the next run).
    await own?.catch(() => undefined);
    await rm(tmp, { recursive: true, force: true, maxRetries: 5 });
    throw e;
  }
  await failpoint('before-turn-rename');
  await rename(tmp, final);
  await syncDir(turnsDir);
  return final;
}

/** A turn's own files into the folder being built: state.yaml, events.yaml, the extras and the files it keeps (the orders used). */
export async function writeTurnFiles(sink: FileSink, turn: number, files: TurnFiles): Promise<void> {
  await sink.write('state.yaml', stateYamlParts(files.state));
  await sink.write('events.yaml', writeYamlParts({ turn, events: files.events }));
  for (const [rel, content] of Object.entries(files.extra).sort(([a], [b]) => (a < b ? -1 : 1))) await sink.write(rel, content);
  for (const [rel, file] of Object.entries(files.kept ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) await keepFile(sink, rel, file);
}

/** A turn being written: ".NNNN.partial-<owner>" (process-owner.ts); it never counts as a turn. */
const TURN_TEMPORARY = /^\.\d{4,}\.partial-/;

/** Writes turn 0 from the start sheets when the campaign has no turns yet. */
export async function ensureStartingState(open: OpenCampaign, initial: () => GameState): Promise<void> {
  if ((await listTurns(open.dir)).length > 0) return;
  await writeTurn(open.dir, 0, { state: initial(), events: [], extra: {} });
}
