import { successionPhase } from './phases/succession.js';
import { actionsPhase, tradePhase } from './phases/actions.js';
import type { Campaign } from './campaign.js';
import { TurnContext } from './context.js';
import { ForcedRandomiser, SeededRandomiser, type Randomiser } from './dice.js';
import type { LoggedEvent } from './events.js';
import { FateLayer } from './fate/layer.js';
import type { TurnOrders } from './orders.js';
import { combatPhase } from './phases/combat.js';
import { constructionPhase, startBuildsPhase } from './phases/construction.js';
import { eventsPhase } from './phases/events.js';
import { explorePhase } from './phases/explore.js';
import { gmPhase } from './phases/gm.js';
import { goalsPhase } from './phases/goals.js';
import { movementPhase } from './phases/movement.js';
import { ordersPhase } from './phases/orders.js';
import type { Phase } from './phases/phase.js';
import { siegePhase } from './phases/siege.js';
import { aspectsPhase } from './aspects/actions.js';
import { endPhase, incomePhase, recoveryPhase } from './phases/upkeep.js';
import { plainCopy, type IsPlainData } from './plain-copy.js';
import type { GameState } from './state.js';

/**
 * The turn, as a list. Order matters and is the rules' reading: orders are
 * checked and paid, the GM's adjustments land, builds start, units move (with
 * pursuit), battles are fought, sieges acted on, aspects are created and overcome (rules.fate.aspects),
 * units take their actions (espionage, sabotage...), work completes, the rested
 * heal, explorers search their hexes, goals are checked, the living world's events strike (and settlements
 * may rise), trade routes pay or are cut, income is paid for the next turn, the season turns.
 */
export const PHASES: readonly Phase[] = [
  ordersPhase,
  gmPhase,
  startBuildsPhase,
  movementPhase,
  combatPhase,
  siegePhase,
  aspectsPhase,
  actionsPhase,
  constructionPhase,
  recoveryPhase,
  explorePhase,
  goalsPhase,
  eventsPhase,
  successionPhase,
  tradePhase,
  incomePhase,
  endPhase,
];

// plainCopy copies plain data only: a state holding anything else must not compile.
const stateIsPlainData: IsPlainData<GameState> = true;
void stateIsPlainData;

export interface TurnInput {
  campaign: Campaign;
  state: GameState;
  orders: TurnOrders;
  /** Defaults to the campaign's seeded dice for this turn. */
  dice?: Randomiser;
  phases?: readonly Phase[];
}

export interface TurnResult {
  state: GameState;
  events: LoggedEvent[];
}

/** The GM's forced rolls (_gm.yaml `roll` actions) over the turn's dice, scope by scope. */
function withGmRolls(dice: Randomiser, orders: TurnOrders): Randomiser {
  const forced: Record<string, number[]> = {};
  for (const a of orders.gm) if (a.kind === 'roll') (forced[a.scope] ??= []).push(...a.values);
  return Object.keys(forced).length ? new ForcedRandomiser(forced, dice, true) : dice;
}

/**
 * Resolves one turn: a pure function of (campaign, state, orders, dice). The
 * input state is never touched; the result is a new state and the event log.
 */
export function resolveTurn(input: TurnInput): TurnResult {
  const state = plainCopy(input.state);
  const seeded = withGmRolls(input.dice ?? new SeededRandomiser(input.campaign.seed, state.turn + 1), input.orders);
  const fate = input.campaign.rules.fate;
  // The Fate randomisers read the decks as the turn found them (docs/rules.md F4).
  const layer = fate.randomiser === 'd6' ? undefined : new FateLayer(seeded, fate, (nation) => input.state.nations[nation]?.deck?.discards);
  const ctx = new TurnContext(input.campaign, state, input.orders, layer ?? seeded, input.state);
  for (const phase of input.phases ?? PHASES) {
    ctx.phase = phase.name;
    phase.run(ctx);
  }
  if (layer) {
    for (const [nation, discards] of layer.decksAfter()) {
      const n = ctx.state.nations[nation];
      if (!n) continue;
      if (discards.length) n.deck = { discards };
      else delete n.deck;
    }
  }
  return { state: ctx.state, events: ctx.events };
}
