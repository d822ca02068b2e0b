import type { AcceptedOrder, TurnContext } from '../context.js';
import type { NationId, UnitId } from '../ids.js';
import type { NationOrders, Order } from '../orders.js';
import { orderText } from '../order-text.js';
import { checkBuildBattlement, checkBuildStructure, checkBuildUnit, checkUpgrade } from './settlement-orders.js';
import {
  checkAssault,
  checkAttack,
  checkConstruct,
  checkDefend,
  checkFound,
  checkHold,
  checkMove,
  checkRest,
  checkSiegeAction,
  checkSortie,
} from './unit-orders.js';
import { checkAnswer } from './answer.js';
import { checkExplore } from './explore.js';
import { checkPress } from './press.js';
import { checkHeir } from './heir.js';
import { checkHuntSpies } from './hunt.js';
import { checkBattlePlan } from './battle-plan.js';
import { checkCreateAdvantage, checkInvoke, checkOvercome } from './aspects.js';
import { checkAcceptTrade, checkAct } from './act.js';
import { reject, type Verdict } from './verdict.js';
import type { UnitWork } from '../work.js';

export type { Verdict } from './verdict.js';

type Checker<O extends Order> = (ctx: TurnContext, nation: NationId, order: O) => Verdict;

/** One checker per order kind; the mapped type makes a missing one a compile error. */
const CHECKERS: { [K in Order['kind']]: Checker<Extract<Order, { kind: K }>> } = {
  move: checkMove,
  attack: checkAttack,
  defend: checkDefend,
  rest: checkRest,
  hold: checkHold,
  build_unit: checkBuildUnit,
  build_structure: checkBuildStructure,
  build_battlement: checkBuildBattlement,
  construct: checkConstruct,
  found: checkFound,
  upgrade: checkUpgrade,
  siege_action: checkSiegeAction,
  sortie: checkSortie,
  assault: checkAssault,
  answer: checkAnswer,
  explore: checkExplore,
  note: (_ctx, _nation, o) => ({ ok: true, claims: [], summary: `Note to the GM: "${o.text}"` }),
  press: checkPress,
  heir: checkHeir,
  battle_plan: checkBattlePlan,
  create_advantage: checkCreateAdvantage,
  overcome: checkOvercome,
  invoke: checkInvoke,
  act: checkAct,
  accept_trade: checkAcceptTrade,
  hunt_spies: checkHuntSpies,
};

export interface CheckedOrder extends AcceptedOrder {
  summary: string;
  renown: number;
  fate: number;
  /** Work in progress this order gives up, for the receipt's warning. */
  abandons?: UnitWork[];
  /** Parts of the order left out (a supporter that cannot reach), for the receipt's warning and the report. */
  warnings?: string[];
}

export interface OrderProblem {
  nation: NationId;
  index: number;
  order: Order;
  reason: string;
  hint?: string;
}

export interface CheckResult {
  accepted: CheckedOrder[];
  problems: OrderProblem[];
  renownLeft: number;
  fateLeft: number;
}

function checkOne(ctx: TurnContext, nation: NationId, order: Order): Verdict {
  const checker = CHECKERS[order.kind] as Checker<Order> | undefined;
  if (!checker) return reject(`unknown order "${(order as { kind: string }).kind}"`);
  return checker(ctx, nation, order);
}

/**
 * Checks a nation's orders against the state at the start of the turn, in
 * listing order: that order is also the payment order, so when Renown runs
 * out the later costly orders are the ones refused. Pure; used by the engine
 * and by the receipt alike, so the two can never disagree.
 */
export function checkNationOrders(ctx: TurnContext, orders: NationOrders): CheckResult {
  const nation = orders.nation;
  const state = ctx.state.nations[nation];
  let renownLeft = state?.renown ?? 0;
  let fateLeft = state?.fate ?? 0;
  const claimedBy = new Map<UnitId, number>();
  const slotUse = new Map<string, number>();
  const accepted: CheckedOrder[] = [];
  const problems: OrderProblem[] = [];

  orders.orders.forEach((order, index) => {
    const fail = (reason: string, hint?: string) => problems.push({ nation, index, order, reason, ...(hint ? { hint } : {}) });
    const verdict = checkOne(ctx, nation, order);
    if (!verdict.ok) return fail(verdict.reason, verdict.hint);
    for (const unit of verdict.claims) {
      const earlier = claimedBy.get(unit);
      const line = orders.lines?.[earlier ?? -1];
      if (earlier !== undefined) return fail(`${unit} already has an order (${line ? `line ${line}` : `order ${earlier + 1}`})`, 'a unit takes one order a turn: it moves or acts');
    }
    for (const slot of verdict.slots ?? []) {
      if ((slotUse.get(slot.key) ?? 0) >= slot.limit) return fail(`over the limit: ${slot.label}`);
    }
    const renown = verdict.renown ?? 0;
    const fate = verdict.fate ?? 0;
    if (renown > renownLeft) {
      return fail(`costs ${renown} Renown; only ${renownLeft} left after the orders above`, 'list the orders you most want paid first');
    }
    if (fate > fateLeft) return fail(`pledges ${fate} Fate; only ${fateLeft} left after the orders above`);
    renownLeft -= renown;
    fateLeft -= fate;
    for (const unit of verdict.claims) claimedBy.set(unit, index);
    for (const slot of verdict.slots ?? []) slotUse.set(slot.key, (slotUse.get(slot.key) ?? 0) + 1);
    accepted.push({
      nation,
      index,
      order: verdict.order ?? order,
      summary: verdict.summary,
      renown,
      fate,
      ...(verdict.path ? { path: verdict.path } : {}),
      ...(verdict.abandons?.length ? { abandons: verdict.abandons } : {}),
      ...(verdict.warnings?.length ? { warnings: verdict.warnings } : {}),
    });
  });
  return { accepted, problems, renownLeft, fateLeft };
}

/** A readable one-line form of an order, in the plain-text order language (order-text.ts). */
export function describeOrder(order: Order): string {
  return orderText(order);
}
