import { join } from 'node:path';
import { ForcedRandomiser, SeededRandomiser } from '../../src/core/dice.js';
import type { LoggedEvent } from '../../src/core/events.js';
import type { NationId } from '../../src/core/ids.js';
import type { TurnOrders } from '../../src/core/orders.js';
import type { Campaign } from '../../src/core/campaign.js';
import type { GameState } from '../../src/core/state.js';
import { resolveTurn } from '../../src/core/turn.js';
import { interpretSheet } from '../../src/orders/sheet.js';
import { gmView } from '../../src/report/gm-view.js';
import { nationView } from '../../src/report/nation-view.js';
import { builtInTemplateDir, loadTemplates, renderGmReport, renderNationReports } from '../../src/report/render.js';
import { buildState, loadWorld, type CompactState } from '../support/case-world.js';

/**
 * One turn of the rules cases' small world (test/cases/_world.yaml) played to
 * the reports: a pre-state, each nation's orders as YAML order maps, forced
 * dice; out come the events and each nation's text report and the GM's page,
 * rendered with the built-in templates as `fatecraft turn` renders them.
 */
export const WORLD = join(import.meta.dirname, '..', 'cases', '_world.yaml');

export interface Scenario {
  rules?: Record<string, unknown>;
  state: CompactState;
  orders: Record<string, Record<string, unknown>[]>;
  dice?: Record<string, number[]>;
}

export interface Played {
  campaign: Campaign;
  before: GameState;
  state: GameState;
  events: LoggedEvent[];
  orders: TurnOrders;
  /** The nation's text report. */
  text(nation: string): string;
  /** The nation's HTML report. */
  html(nation: string): string;
  /** The GM's page. */
  gm(): string;
}

const templates = loadTemplates([builtInTemplateDir()]);

export function playScenario(s: Scenario, campaign: Campaign = loadWorld(WORLD, s.rules ?? {})): Played {
  const before = buildState(campaign, s.state);
  const orders: TurnOrders = { nations: {}, gm: [] };
  for (const [nation, list] of Object.entries(s.orders)) {
    const sheet = { turn: before.turn + 1, entries: list.map((fields, i) => ({ line: i + 1, text: JSON.stringify(fields), fields })), problems: [] };
    orders.nations[nation as NationId] = interpretSheet(sheet, nation as NationId, campaign, before).orders;
  }
  const { state, events } = resolveTurn({ campaign, state: before, orders, dice: new ForcedRandomiser(s.dice ?? {}, new SeededRandomiser(campaign.seed, before.turn + 1)) });
  const view = (nation: string) => nationView(campaign, before, state, events, nation as NationId, { orders });
  return {
    campaign,
    before,
    state,
    events,
    orders,
    text: (nation) => renderNationReports(view(nation), campaign, templates, ['txt']).txt,
    html: (nation) => renderNationReports(view(nation), campaign, templates, ['txt', 'html']).html ?? '',
    gm: () => renderGmReport(gmView(campaign, before, state, events, { orders }), templates).html,
  };
}
