/**
 * The campaigns a desk serves, read from their folders as they are and cached only as long as the files are
 * unchanged: a turn resolved by a tick, a GM's edit of campaign.yaml or a new runtime.yaml is seen by the
 * next request. Nothing here writes.
 */
import { existsSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { initialState } from '../campaign/initial-state.js';
import { CampaignError } from '../campaign/problems.js';
import { listTurns, openCampaign, readState, type OpenCampaign } from '../campaign/store.js';
import type { GameState } from '../core/state.js';
import { loadSecrets, secretsPath, type SecretSource } from '../mailroom/secrets.js';
import { readRuntime, type Runtime } from '../schedule/runtime.js';
import { scheduleOf, type Schedule } from '../schedule/settings.js';

/** A campaign's name in the desk's addresses: /c/<slug>/. */
export const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export interface CampaignView {
  open: OpenCampaign;
  schedule: Schedule;
  /** Resolved turns, oldest first (0: the starting position). */
  turns: number[];
  /** The latest resolved turn; the pending one is latest + 1. Undefined before `fatecraft start`. */
  latest: number | undefined;
}

/** Remembers one value per key of file versions; a new key replaces it (and loads once for concurrent callers). */
class Cached<T> {
  private key = '';
  private value: Promise<T> | undefined;

  get(key: string, load: () => Promise<T>): Promise<T> {
    if (this.value === undefined || key !== this.key) {
      this.key = key;
      const loading = load();
      this.value = loading;
      // A failed load is not kept: the next request tries again.
      loading.catch(() => {
        if (this.value === loading) this.value = undefined;
      });
    }
    return this.value;
  }
}

/**
 * "mtime:size" of a file or folder, "-" when it is missing: what the caches are keyed by. Looked at on every
 * request, synchronously: a stat of a file the system has just seen costs microseconds, a trip through the
 * thread pool more than the page it guards.
 */
function version(path: string): Promise<string> {
  const s = statSync(path, { throwIfNoEntry: false });
  return Promise.resolve(s ? `${s.mtimeMs}:${s.size}` : '-');
}

/** What a request reads of a campaign (DeskCampaign, or its view for one request). */
export interface CampaignReader {
  readonly slug: string;
  readonly dir: string;
  version(): Promise<string>;
  view(): Promise<CampaignView>;
  state(): Promise<{ view: CampaignView; state: GameState }>;
  runtime(): Promise<Runtime | undefined>;
  secrets(): Promise<SecretSource>;
}

export class DeskCampaign implements CampaignReader {
  private readonly views = new Cached<CampaignView>();
  private readonly states = new Cached<GameState>();
  private readonly runtimes = new Cached<Runtime | undefined>();
  private readonly secretSources = new Cached<SecretSource>();

  constructor(
    readonly slug: string,
    readonly dir: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /**
   * The version of the files a view and a state are read from ("mtime:size" of each): it changes when a turn
   * is resolved or the campaign is edited, and with it everything worked out from the state (checks).
   */
  async version(): Promise<string> {
    const parts = await Promise.all(['campaign.yaml', 'events.yaml', 'actions.yaml', 'turns'].map((f) => version(join(this.dir, f))));
    return parts.join('|');
  }

  /** The campaign as its folder has it now. */
  async view(): Promise<CampaignView> {
    return this.views.get(await this.version(), async () => {
      const open = await openCampaign(this.dir);
      const turns = await listTurns(this.dir);
      return { open, schedule: scheduleOf(open.file, join(this.dir, 'campaign.yaml')), turns, latest: turns.at(-1) };
    });
  }

  /** The latest resolved state (the one the pending turn starts from), shared by every check until it changes. */
  async state(): Promise<{ view: CampaignView; state: GameState }> {
    const key = await this.version();
    const view = await this.view();
    const state = await this.states.get(key, async () => (view.latest === undefined ? initialState(view.open.file) : readState(this.dir, view.latest, view.open.campaign)));
    return { view, state };
  }

  /** runtime.yaml as it is now (undefined before the schedule's first tick). */
  async runtime(): Promise<Runtime | undefined> {
    return this.runtimes.get(await version(join(this.dir, 'runtime.yaml')), () => readRuntime(this.dir));
  }

  /** The campaign's secrets (order tokens, the GM's desk secret), read again when the file changes. */
  async secrets(): Promise<SecretSource> {
    const view = await this.view();
    const load = () => Promise.resolve(loadSecrets({ campaign: view.open.campaign.name, campaignDir: this.dir, env: this.env }));
    return this.secretSources.get(`${view.open.campaign.name}|${await version(secretsPath(view.open.campaign.name, this.env))}`, load);
  }
}

/**
 * One request's reading of a campaign: the files are looked at (stat) once per request, however many parts
 * of the page ask; the next request looks again.
 */
export function forOneRequest(campaign: DeskCampaign): CampaignReader {
  const once = <T>(read: () => Promise<T>) => {
    let value: Promise<T> | undefined;
    return () => (value ??= read());
  };
  return { slug: campaign.slug, dir: campaign.dir, version: once(() => campaign.version()), view: once(() => campaign.view()), state: once(() => campaign.state()), runtime: once(() => campaign.runtime()), secrets: once(() => campaign.secrets()) };
}

/**
 * The campaigns in a folder: the folder itself when it holds campaign.yaml, else each sub-folder that does
 * (by its folder name, which must be a plain lower-case name to appear in addresses).
 */
export async function findCampaigns(folder: string, env: NodeJS.ProcessEnv = process.env): Promise<DeskCampaign[]> {
  const root = resolve(folder);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new CampaignError([{ file: folder, message: 'no such folder' }]);
  if (existsSync(join(root, 'campaign.yaml'))) return [new DeskCampaign(slugOf(basename(root)), root, env)];
  const found: DeskCampaign[] = [];
  for (const entry of (await readdir(root, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!entry.isDirectory() || !existsSync(join(root, entry.name, 'campaign.yaml'))) continue;
    if (!SLUG.test(entry.name)) throw new CampaignError([{ file: join(root, entry.name), message: 'a campaign folder served by the desk needs a plain lower-case name (letters, digits, - and _), as it appears in the desk\'s addresses' }]);
    found.push(new DeskCampaign(entry.name, join(root, entry.name), env));
  }
  if (found.length === 0) throw new CampaignError([{ file: folder, message: 'neither a campaign folder (no campaign.yaml) nor a folder of campaign folders' }]);
  return found;
}

/** A folder's name made fit for an address ("Silversheen Sea" → "silversheen-sea"). */
function slugOf(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64);
  return SLUG.test(slug) ? slug : 'campaign';
}
