import { afterAll, beforeAll } from 'vitest';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCampaign, readState, turnDirName, type OpenCampaign } from '../../src/campaign/store.js';
import type { LoggedEvent } from '../../src/core/events.js';
import type { GameState } from '../../src/core/state.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { readTurnOrders, reportRenderer } from '../../src/report/renderer.js';
import { readTurnEvents } from '../../src/campaign/store.js';
import type { TurnOrders } from '../../src/core/orders.js';
import { asHexKey, type NationId } from '../../src/core/ids.js';
import { nationView } from '../../src/report/nation-view.js';
import { builtInTemplateDir, loadTemplates, renderNationReports } from '../../src/report/render.js';

/**
 * The report fixture campaign (test/fixtures/report/campaign), played for
 * real: copied to a scratch folder and resolved turn by turn with the report
 * renderer plugged in, exactly as `fatecraft turn` does.
 */
export const ROOT = join(import.meta.dirname, '..', '..');
export const FIXTURE = join(ROOT, 'test', 'fixtures', 'report', 'campaign');
export const GOLDEN = join(ROOT, 'test', 'fixtures', 'report', 'golden');
export const DEMO = join(ROOT, 'campaigns', 'silversheen');
export const FIXTURE_TURNS = 2;

export interface PlayedTurn {
  turn: number;
  before: GameState;
  state: GameState;
  events: LoggedEvent[];
  orders: TurnOrders;
  /** Report files by name (argenta.txt, gm.html...). */
  reports: Record<string, string>;
}

export interface Played {
  dir: string;
  open: OpenCampaign;
  turns: PlayedTurn[];
  cleanup: () => void;
}

export function readReports(dir: string, turn: number): Record<string, string> {
  const reportsDir = join(dir, 'turns', turnDirName(turn), 'reports');
  const out: Record<string, string> = {};
  if (!existsSync(reportsDir)) return out;
  for (const name of readdirSync(reportsDir).sort()) out[name] = readFileSync(join(reportsDir, name), 'utf8');
  return out;
}

export function scratchCopy(source: string, label: string): { dir: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), `fatecraft-report-${label}-`));
  const dir = join(root, 'campaign');
  cpSync(source, dir, { recursive: true });
  return { dir, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * The fixture and the demo campaign played, once per test process: many files read the same turns, and a
 * turn with its reports costs far more than a copy of its folder. Kept until the process exits.
 */
const playedOnce = new Map<string, Promise<string>>();

function playedFolder(source: string, turns: number): Promise<string> {
  const key = `${source}#${turns}`;
  let folder = playedOnce.get(key);
  if (!folder) {
    folder = (async () => {
      const { dir, cleanup } = scratchCopy(source, 'played-once');
      process.once('exit', cleanup);
      for (let i = 0; i < turns; i++) await runTurn(dir, { renderers: [reportRenderer()] });
      return dir;
    })();
    playedOnce.set(key, folder);
  }
  return folder;
}

/**
 * Plays `turns` turns of a campaign on a scratch copy of its own, reports included. The fixture and the
 * demo are played once per test process and copied (the same bytes: a turn is a function of its folder);
 * `fresh` plays them again, for a test of just that.
 */
export async function play(source: string, turns: number, label: string, opts: { fresh?: boolean } = {}): Promise<Played> {
  const shared = !opts.fresh && (source === FIXTURE || source === DEMO);
  const { dir, cleanup } = scratchCopy(shared ? await playedFolder(source, turns) : source, label);
  // A campaign copied with turns already resolved goes on from there.
  if (!shared) for (let i = 0; i < turns; i++) await runTurn(dir, { renderers: [reportRenderer()] });
  return readPlayed(dir, cleanup);
}

/** Plays a campaign (as `play`) before the tests of the file or block it is called in, hands it to `keep`, and cleans it up after. */
export function playBeforeAll(source: string, turns: number, label: string, keep: (played: Played) => void): void {
  let played: Played | undefined;
  beforeAll(async () => {
    played = await play(source, turns, label);
    keep(played);
  });
  afterAll(() => played?.cleanup());
}

type BattleEvent = Extract<LoggedEvent, { type: 'battle' }>;

/** An open battle for report tests, at 3,6 unless said: who fought, the sides and who won; no casualties unless given. */
export function openBattle(fields: Pick<BattleEvent, 'nations' | 'battle' | 'attacker' | 'defender' | 'winner' | 'deficit'> & Partial<BattleEvent>): BattleEvent {
  return { seq: 9000, phase: 'combat', type: 'battle', at: asHexKey('3,6'), kind: 'open', casualties: [], overkill: 0, ...fields };
}

/** A campaign's resolved turns as a Played (however they were resolved: by hand, a tick, the tests). */
export async function readPlayed(dir: string, cleanup: () => void): Promise<Played> {
  const open = await openCampaign(dir);
  const played: PlayedTurn[] = [];
  const resolved = readdirSync(join(dir, 'turns')).filter((n) => /^\d{4,}$/.test(n)).map(Number).sort((a, b) => a - b);
  for (const turn of resolved.filter((t) => t > 0)) {
    const before = await readState(dir, turn - 1, open.campaign);
    played.push({
      turn,
      before,
      state: await readState(dir, turn, open.campaign),
      events: await readTurnEvents(dir, turn),
      orders: await readTurnOrders(open, before, turn),
      reports: readReports(dir, turn),
    });
  }
  return { dir, open, turns: played, cleanup };
}

/** The visible text of an HTML document, roughly: tags dropped, entities decoded. */
export function htmlText(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ' '));
}

export function decodeEntities(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#x27;/g, "'")
    .replace(/&#x3D;/g, '=')
    .replace(/&#x60;/g, '`')
    .replace(/&amp;/g, '&');
}

/**
 * A nation's view of a played turn (the first by default) with `extra` events added to its log: a battle
 * or a fight written for the test, shown as the turn's own would be.
 */
export function viewWith(played: Played, nation: NationId, extra: readonly LoggedEvent[], index = 0): ReturnType<typeof nationView> {
  const t = played.turns[index]!;
  return nationView(played.open.campaign, t.before, t.state, [...t.events, ...extra], nation, { orders: t.orders, legend: played.open.file.map.legend });
}

/** That view rendered in `formats` with the built-in templates. */
export function reportWith(played: Played, nation: NationId, extra: readonly LoggedEvent[], formats: Parameters<typeof renderNationReports>[3]): ReturnType<typeof renderNationReports> {
  return renderNationReports(viewWith(played, nation, extra), played.open.campaign, loadTemplates([builtInTemplateDir()]), formats);
}
