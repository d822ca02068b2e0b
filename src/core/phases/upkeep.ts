import type { TurnContext } from '../context.js';
import { compareIds, sortedKeys, type NationId, type UnitId } from '../ids.js';
import type { SettlementState } from '../state.js';
import type { Phase } from './phase.js';
import { pushTo } from '../multimap.js';
import { leaderOf } from '../leaders.js';
import { lostName, orderUnmet } from '../unmet.js';
import { unitName } from '../unit-name.js';

/** Resting units that did not fight this turn become healthy. */
export const recoveryPhase: Phase = {
  name: 'recovery',
  run(ctx: TurnContext) {
    const rests = [...ctx.acceptedOf('rest')].sort((a, b) => compareIds(a.order.unit, b.order.unit));
    for (const r of rests) {
      const unit = ctx.unit(r.order.unit);
      if (!unit) {
        orderUnmet(ctx, r, 'unit_lost', `did not rest: ${lostName(ctx, r.order.unit)} was lost this turn`);
        continue;
      }
      if (unit.health !== 'bloodied') continue;
      if (ctx.fought.has(unit.id)) {
        orderUnmet(ctx, r, 'fought', `did not heal: ${unitName(ctx.campaign, unit)} fought this turn`);
        continue;
      }
      ctx.emit({ type: 'unit_rested', nations: [unit.nation], unit: unit.id });
      ctx.setHealth(unit, 'healthy', 'rested a turn', [unit.nation]);
    }
  },
};

/**
 * Income for the coming turn, itemised: each settlement, Prosperity→Renown,
 * Happiness→Fate, and what structures and external structures yield.
 */
export const incomePhase: Phase = {
  name: 'income',
  run(ctx: TurnContext) {
    const held = new Map<NationId, SettlementState[]>();
    for (const s of Object.values(ctx.state.settlements)) pushTo(held, s.nation, s);
    const externals = new Map<NationId, string[]>();
    for (const e of Object.values(ctx.state.externals)) pushTo(externals, e.nation, e.type);
    for (const nation of sortedKeys(ctx.state.nations)) {
      const n = ctx.nationState(nation);
      if (!n.alive) continue;
      const settlements = (held.get(nation) ?? []).sort((a, b) => compareIds(a.id, b.id));
      for (const s of settlements) {
        const inc = ctx.rules.settlementIncome[s.level];
        ctx.changeResource(nation, 'renown', inc.renown, `income: ${s.level} ${s.name}`);
        ctx.changeResource(nation, 'fate', inc.fate, `income: ${s.level} ${s.name}`);
        for (const id of s.structures) {
          const st = ctx.campaign.structures[id];
          if (st?.perTurn) ctx.applyYield(nation, st.perTurn, `income: ${st.name} in ${s.name}`);
        }
      }
      for (const type of (externals.get(nation) ?? []).sort(compareIds)) {
        const ext = ctx.campaign.externals[type];
        if (ext?.perTurn) ctx.applyYield(nation, ext.perTurn, `income: ${ext.name}`);
      }
      const leader = leaderOf(ctx.campaign, n);
      if (leader.name !== null && leader.ability?.income) ctx.applyYield(nation, leader.ability.income, `income: ${leader.name}, ${leader.ability.name}`);
      ctx.changeResource(nation, 'renown', n.prosperity * ctx.rules.renownPerProsperity, `Prosperity ${signed(n.prosperity)}`);
      ctx.changeResource(nation, 'fate', n.happiness * ctx.rules.fatePerHappiness, `Happiness ${signed(n.happiness)}`);
    }
  },
};

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** Nations left with nothing fall; the season turns. */
export const endPhase: Phase = {
  name: 'end',
  run(ctx: TurnContext) {
    const present = new Set<NationId>();
    for (const id in ctx.state.units) present.add(ctx.state.units[id as UnitId]!.nation);
    for (const s of Object.values(ctx.state.settlements)) present.add(s.nation);
    for (const nation of sortedKeys(ctx.state.nations)) {
      const n = ctx.nationState(nation);
      if (n.alive && !present.has(nation) && !ctx.nationDef(nation).rebels) {
        n.alive = false;
        ctx.emit({ type: 'nation_fallen', nations: [nation], nation });
      }
    }
    ctx.state.turn = ctx.turn;
    const { season, year } = seasonOf(ctx.campaign.calendar, ctx.turn);
    ctx.emit({ type: 'season', nations: [], turn: ctx.turn, season, year });
  },
};

/** Turn 1 is the first season of the start year; two seasons a year by default. */
export function seasonOf(calendar: { seasons: string[]; startYear: number }, turn: number): { season: string; year: number } {
  const n = calendar.seasons.length;
  const i = Math.max(0, turn - 1);
  return { season: calendar.seasons[i % n] ?? '?', year: calendar.startYear + Math.floor(i / n) };
}
