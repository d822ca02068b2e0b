import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { auditTurn } from '../../src/core/audit.js';
import { ForcedRandomiser, SeededRandomiser } from '../../src/core/dice.js';
import type { LoggedEvent } from '../../src/core/events.js';
import type { NationId } from '../../src/core/ids.js';
import type { GmAction, TurnOrders } from '../../src/core/orders.js';
import type { Campaign } from '../../src/core/campaign.js';
import type { GameState } from '../../src/core/state.js';
import { resolveTurn } from '../../src/core/turn.js';
import { interpretSheet } from '../../src/orders/sheet.js';
import { readEventCatalogue } from '../../src/campaign/event-catalogue.js';
import { readActionCatalogue } from '../../src/campaign/action-catalogue.js';
import { CampaignError } from '../../src/campaign/problems.js';
import { buildState, loadWorld, type CompactState } from '../support/case-world.js';
import { mismatches, missingEvents } from '../support/match.js';

/**
 * The rules suite as data (after godip's DATC cases): every file under
 * test/cases is a pre-state, orders, forced dice and the expected state and
 * events, replayed here. Every rules bug found becomes a new case file.
 */
const CASES = join(import.meta.dirname, '..', 'cases');

interface TurnSpec {
  note?: string;
  orders?: Record<string, unknown[] | { casualties?: string[]; orders: unknown[] }>;
  gm?: GmAction[];
  dice?: Record<string, number[]>;
  /** Roll real seeded dice where no forced ones are given. */
  seeded?: boolean;
  expect?: Expectation;
}

interface Expectation {
  units?: Record<string, unknown>;
  settlements?: Record<string, unknown>;
  nations?: Record<string, unknown>;
  externals?: Record<string, unknown>;
  builds?: unknown[];
  /** The aspects in play after the turn, in order; [] or null: none. */
  aspects?: unknown[] | null;
  tradeRoutes?: unknown;
  events?: unknown[];
  noEvents?: unknown[];
  rejected?: number;
}

interface CaseFile extends TurnSpec {
  name: string;
  /** An event catalogue, as events.yaml would hold it (settings and events). */
  catalogue?: unknown;
  /** An actions catalogue, as actions.yaml would hold it (the built-in actions come with or without it). */
  actions?: unknown;
  source?: string;
  world?: string;
  rules?: Record<string, unknown>;
  state?: CompactState;
  turns?: TurnSpec[];
}

function caseFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return caseFiles(path);
      return name.endsWith('.yaml') && !name.startsWith('_') ? [path] : [];
    });
}

function withCatalogue(campaign: Campaign, catalogue: unknown, file: string): Campaign {
  if (catalogue === undefined) return campaign;
  const read = readEventCatalogue(catalogue, () => undefined, file, campaign);
  if (!read.catalogue) throw new CampaignError(read.problems);
  return { ...campaign, events: read.catalogue };
}

function withActions(campaign: Campaign, actions: unknown, file: string): Campaign {
  const read = readActionCatalogue(actions ?? {}, () => undefined, file, campaign);
  if (!read.catalogue) throw new CampaignError(read.problems);
  return { ...campaign, actions: read.catalogue };
}

function ordersFor(campaign: Campaign, state: GameState, spec: TurnSpec): TurnOrders {
  const orders: TurnOrders = { nations: {}, gm: spec.gm ?? [] };
  for (const [nation, given] of Object.entries(spec.orders ?? {})) {
    const list = Array.isArray(given) ? given : given.orders;
    const casualties = Array.isArray(given) ? undefined : given.casualties;
    const sheet = {
      turn: state.turn + 1,
      entries: list.map((fields, i) => ({ line: i + 1, text: JSON.stringify(fields), fields: fields as Record<string, unknown> })),
      problems: [],
      ...(casualties ? { casualties } : {}),
    };
    orders.nations[nation as NationId] = interpretSheet(sheet, nation as NationId, campaign, state).orders;
  }
  return orders;
}

function check(state: GameState, events: LoggedEvent[], want: Expectation | undefined): string[] {
  if (!want) return [];
  const problems: string[] = [];
  for (const key of ['units', 'settlements', 'nations', 'externals'] as const) {
    for (const [id, expected] of Object.entries(want[key] ?? {})) {
      problems.push(...mismatches((state[key] as Record<string, unknown>)[id], expected, `${key}.${id}`));
    }
  }
  if (want.builds) problems.push(...mismatches(state.builds, want.builds, 'builds'));
  if (want.aspects !== undefined) problems.push(...mismatches(state.aspects ?? [], want.aspects ?? [], 'aspects'));
  if (want.tradeRoutes !== undefined) problems.push(...mismatches(state.tradeRoutes, want.tradeRoutes, 'tradeRoutes'));
  problems.push(...missingEvents(events, want.events ?? []));
  for (const banned of want.noEvents ?? []) {
    const hit = events.find((e) => mismatches(e, banned).length === 0);
    if (hit) problems.push(`unexpected event: ${JSON.stringify(hit)}`);
  }
  const rejected = events.filter((e) => e.type === 'order_rejected');
  const allowed = want.rejected ?? 0;
  if (rejected.length !== allowed) problems.push(`expected ${allowed} rejected orders, got ${rejected.length}: ${JSON.stringify(rejected.map((r) => r.type === 'order_rejected' && r.reason))}`);
  return problems;
}

describe('rules cases', () => {
  for (const file of caseFiles(CASES)) {
    const spec = parse(readFileSync(file, 'utf8')) as CaseFile;
    it(`${relative(CASES, file)}: ${spec.name}`, () => {
      const campaign = withActions(withCatalogue(loadWorld(join(CASES, spec.world ?? '_world.yaml'), spec.rules), spec.catalogue, file), spec.actions, file);
      let state = buildState(campaign, spec.state);
      const turns = spec.turns ?? [spec];
      turns.forEach((turn, i) => {
        const label = turn.note ?? `turn ${state.turn + 1}`;
        const fallback = turn.seeded ? new SeededRandomiser(campaign.seed, state.turn + 1) : undefined;
        const dice = new ForcedRandomiser(turn.dice ?? {}, fallback);
        const result = resolveTurn({ campaign, state, orders: ordersFor(campaign, state, turn), dice });
        const problems = [...auditTurn(state, result.state, result.events).map((p) => `audit: ${p}`), ...check(result.state, result.events, turn.expect)];
        if (problems.length) {
          const log = result.events.map((e) => `  ${e.seq} ${e.phase} ${JSON.stringify(e)}`).join('\n');
          expect.fail(`${label} (step ${i + 1}):\n- ${problems.join('\n- ')}\nevent log:\n${log}`);
        }
        state = result.state;
      });
    });
  }
});
