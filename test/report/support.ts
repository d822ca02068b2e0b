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

/** Plays `turns` turns of a campaign on a scratch copy, reports included. */
export async function play(source: string, turns: number, label: string): Promise<Played> {
  const { dir, cleanup } = scratchCopy(source, label);
  // A campaign copied with turns already resolved goes on from there.
  for (let i = 0; i < turns; i++) await runTurn(dir, { renderers: [reportRenderer()] });
  return readPlayed(dir, cleanup);
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
