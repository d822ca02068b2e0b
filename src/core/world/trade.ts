import type { TurnContext } from '../context.js';
import { hexLine, hexKey, offsetOf } from '../hex.js';
import type { HexKey, NationId } from '../ids.js';
import type { SettlementState } from '../state.js';
import type { Side } from './act.js';
import type { TradeRoute } from './action-types.js';

/**
 * Trade routes (docs/rules.md D4): opened by a `route` action's `trade_route`
 * effect between two settlements, one of them the actor's; a foreign end
 * needs its nation's `accept trade with <actor>` in the same turn's orders.
 * While open, each turn both nations earn the action's `income` in Renown;
 * a war between the two, or a unit of a nation at war with either standing
 * on the route's hexes, cuts it.
 */
export function openRoute(s: Side): void {
  const { ctx, place } = s;
  const a = place.settlement;
  const b = place.other;
  const tell = (text: string) => ctx.emit({ type: 'event_message', nations: [s.nation], nation: s.nation, event: s.def.id, text });
  if (!a || !b) return;
  for (const end of [a, b]) {
    if (end.nation === s.nation) continue;
    const consent = ctx.acceptedOf('accept_trade').some((x) => x.nation === end.nation && x.order.with === s.nation);
    if (!consent) return tell(`${ctx.nationDef(end.nation).name} did not accept trade with you this turn: no route to ${end.name} was opened.`);
  }
  const routes = (ctx.state.tradeRoutes ??= []);
  if (routes.some((r) => (r.from === a.id && r.to === b.id) || (r.from === b.id && r.to === a.id))) return tell(`A trade route between ${a.name} and ${b.name} is already open.`);
  const id = ctx.nextId('route-', (x) => routes.some((r) => r.id === x));
  routes.push({ id, from: a.id, to: b.id, action: s.def.id, opened: ctx.turn });
  ctx.emit({ type: 'trade_route_opened', nations: [...new Set([s.nation, a.nation, b.nation])].sort(), route: id, from: a.id, to: b.id, income: s.def.income });
}

/** The hexes a route runs over, ends included. */
export function routeHexes(a: SettlementState, b: SettlementState): HexKey[] {
  return hexLine(offsetOf(a.hex), offsetOf(b.hex)).map((h) => hexKey(h.col, h.row));
}

/** Pairs of nations at war this turn: they fought a battle, or one besieges the other's settlement. */
function warPairs(ctx: TurnContext): Set<string> {
  const pairs = new Set<string>();
  const add = (x: NationId, y: NationId) => {
    if (x === y) return;
    pairs.add(`${x}|${y}`).add(`${y}|${x}`);
  };
  for (const e of ctx.events) if (e.type === 'battle') add(e.attacker.nation, e.defender.nation);
  for (const u of Object.values(ctx.state.units)) {
    if (!u.besieging) continue;
    const s = ctx.settlement(u.besieging);
    if (s) add(u.nation, s.nation);
  }
  return pairs;
}

/** Each turn before income: routes are cut or pay. Nothing to do (and nothing scanned) without routes. */
export function tradeTurn(ctx: TurnContext): void {
  const routes = ctx.state.tradeRoutes;
  if (!routes?.length) return;
  const war = warPairs(ctx);
  const kept: TradeRoute[] = [];
  for (const r of routes) {
    const a = ctx.settlement(r.from as SettlementState['id']);
    const b = ctx.settlement(r.to as SettlementState['id']);
    const cut = (reason: string, nations: NationId[]) => ctx.emit({ type: 'trade_route_cut', nations: [...new Set(nations)].sort(), route: r.id, from: r.from as SettlementState['id'], to: r.to as SettlementState['id'], reason });
    if (!a || !b) {
      cut('one of its settlements is gone', [a?.nation, b?.nation].filter((n): n is NationId => n !== undefined));
      continue;
    }
    const owners = [a.nation, b.nation];
    if (war.has(`${a.nation}|${b.nation}`)) {
      cut(`war between ${ctx.nationDef(a.nation).name} and ${ctx.nationDef(b.nation).name}`, owners);
      continue;
    }
    const blocker = routeHexes(a, b)
      .flatMap((h) => ctx.unitsAt(h))
      .find((u) => owners.some((o) => war.has(`${u.nation}|${o}`)));
    if (blocker) {
      cut(`an enemy unit stands on the route at ${blocker.hex}`, owners);
      continue;
    }
    kept.push(r);
    const income = ctx.campaign.actions?.entries[r.action]?.income ?? 0;
    if (income) for (const n of new Set(owners)) ctx.changeResource(n, 'renown', income, `trade route ${a.name}–${b.name}`);
  }
  if (kept.length) ctx.state.tradeRoutes = kept;
  else delete ctx.state.tradeRoutes;
}
