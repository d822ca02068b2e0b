import { readFileSync } from 'node:fs';
import { buildCampaign } from '../../src/campaign/build-campaign.js';
import { CampaignError, validate } from '../../src/campaign/problems.js';
import { campaignFileSchema } from '../../src/campaign/schema.js';
import { GM_LIMITS, readYaml } from '../../src/campaign/yaml-io.js';
import type { Campaign } from '../../src/core/campaign.js';
import type { NationId } from '../../src/core/ids.js';
import type { GameState } from '../../src/core/state.js';

/**
 * Small worlds for rules cases: a campaign.yaml-shaped file, with optional
 * rule overrides from the case, and a compact pre-state that fills defaults
 * so a case only writes what matters to it.
 */
export function loadWorld(path: string, ruleOverrides: Record<string, unknown> = {}): Campaign {
  const read = readYaml(readFileSync(path), GM_LIMITS);
  if (!read.ok) throw new Error(`${path}: ${read.problems.map((p) => p.message).join('; ')}`);
  const file = validate(campaignFileSchema, read, path);
  file.rules = { ...file.rules, ...ruleOverrides };
  const { campaign, problems } = buildCampaign(file, path);
  if (problems.length) throw new CampaignError(problems);
  return campaign;
}

/**
 * One unit of each nation in the rules cases' world (test/cases/_world.yaml): Argenta's marines beside
 * Gondarahl's dwarves at 7,2 (a battle when one attacks the other), Grarkul's orcs and Vulcanstille's
 * raiders near each other in the south.
 */
export const ONE_UNIT_EACH: Record<string, Record<string, unknown>> = {
  'a-1': { nation: 'argenta', type: 'marines', hex: '6,2' },
  'd-1': { nation: 'gondarahl', type: 'dwarves', hex: '7,2' },
  'g-1': { nation: 'grarkul', type: 'orcs', hex: '6,8' },
  'v-1': { nation: 'vulcanstille', type: 'raiders', hex: '8,8' },
};

export interface CompactState {
  turn?: number;
  nations?: Record<string, Partial<GameState['nations'][NationId]>>;
  units?: Record<string, Record<string, unknown>>;
  settlements?: Record<string, Record<string, unknown>>;
  externals?: Record<string, Record<string, unknown>>;
  builds?: GameState['builds'];
  /** Fate aspects in play (rules.fate.aspects); `since` defaults to 0. */
  aspects?: Record<string, unknown>[];
  tradeRoutes?: GameState['tradeRoutes'];
}

export function buildState(campaign: Campaign, compact: CompactState = {}): GameState {
  const state: GameState = { turn: compact.turn ?? 0, seq: 100, nations: {}, units: {}, settlements: {}, externals: {}, builds: compact.builds ?? [], ...(compact.tradeRoutes ? { tradeRoutes: compact.tradeRoutes } : {}) };
  for (const id of Object.keys(campaign.nations) as NationId[]) {
    const given = compact.nations?.[id] ?? {};
    state.nations[id] = {
      id,
      renown: 0,
      fate: 0,
      prosperity: 0,
      happiness: 0,
      goals: (campaign.nations[id]?.goals ?? []).map((g) => ({ id: g.id, done: false })),
      battlesWon: 0,
      missedTurns: 0,
      unitSeq: 0,
      alive: true,
      ...given,
    };
  }
  for (const [id, u] of Object.entries(compact.units ?? {})) {
    (state.units as Record<string, unknown>)[id] = { id, health: 'healthy', ...u };
  }
  for (const [id, s] of Object.entries(compact.settlements ?? {})) {
    (state.settlements as Record<string, unknown>)[id] = { id, name: id, level: 'village', home: true, captured: false, structures: [], battlements: [], ...s };
  }
  for (const [id, e] of Object.entries(compact.externals ?? {})) {
    (state.externals as Record<string, unknown>)[id] = { id, ...e };
  }
  if (compact.aspects?.length) state.aspects = compact.aspects.map((a) => ({ free: 0, since: 0, ...a })) as GameState['aspects'];
  return state;
}
