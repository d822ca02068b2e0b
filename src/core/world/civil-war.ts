import type { TurnContext } from '../context.js';
import { hexDistance, offsetOf } from '../hex.js';
import { asNationId, compareIds, type SettlementId, type UnitId } from '../ids.js';
import type { NationState, SettlementState } from '../state.js';
import type { Struck } from './effects.js';
import type { Effect } from './types.js';

/**
 * The `civil_war` effect (docs/rules.md L3): part of the struck nation breaks away as the nation in waiting
 * the effect names. Every nation is declared in campaign.yaml, so the turn writes no campaign file: the new
 * nation was declared there in advance (`breaksFrom`), out of play, and the civil war brings it in. A rerun
 * gives the same bytes because nothing outside the turn's state changes.
 *
 * The settlements that go: those named (of the nation's own, never its capital), or the `settlements` the
 * farthest from its capital (then by id); the nation always keeps one. Its units standing in them and the
 * work under way there go with them. The new nation's Prosperity and Happiness are the effect's, or the old
 * nation's; its Renown and Fate its start sheet's.
 */
export function civilWar(ctx: TurnContext, s: Struck, e: Extract<Effect, { kind: 'civil_war' }>): void {
  const from = s.nation;
  const into = asNationId(e.into);
  const def = ctx.campaign.nations[into];
  const void_ = (why: string) => ctx.emit({ type: 'event_message', nations: [], nation: from, event: s.event, text: `No civil war: ${why}.` });
  if (!def?.breaksFrom) return void_(`${e.into} is not a nation in waiting`);
  if (def.breaksFrom !== from) return void_(`${def.name} breaks from ${ctx.nationDef(def.breaksFrom).name}, not ${ctx.nationDef(from).name}`);
  if (ctx.state.nations[into]?.alive) return void_(`${def.name} has broken away already`);

  const own = s.scene.settlementsOf(from);
  const capital = own.find((x) => x.level === 'capital');
  const chosen = pick(own, capital, e.settlements);
  if (!chosen.length) return void_(`${ctx.nationDef(from).name} has no settlement to lose but its last`);

  const ns: NationState = (ctx.state.nations[into] ??= { id: into, renown: 0, fate: 0, prosperity: 0, happiness: 0, goals: def.goals.map((g) => ({ id: g.id, done: false })), battlesWon: 0, missedTurns: 0, unitSeq: 0, alive: false });
  ns.alive = true;
  const hexes = new Set(chosen.map((x) => x.hex as string));
  const settlements: SettlementId[] = [];
  for (const st of chosen) {
    st.nation = into;
    s.scene.settlementMoved(st, from);
    settlements.push(st.id);
  }
  const units: UnitId[] = [];
  for (const u of s.scene.unitsOf(from).filter((x) => hexes.has(x.hex))) {
    u.nation = into;
    s.scene.unitChangedHands(u, from);
    units.push(u.id);
  }
  const ids = new Set<string>(settlements);
  let builds = 0;
  for (const b of ctx.state.builds) if (b.nation === from && b.settlement !== undefined && ids.has(b.settlement)) { b.nation = into; builds++; }
  const was = ctx.nationState(from);
  ctx.emit({ type: 'civil_war', nations: [from, into].sort(compareIds), from, into, leader: def.leader, settlements, units: units.sort(compareIds), builds, event: s.title });
  const reason = `broke away from ${ctx.nationDef(from).name}`;
  ctx.changeIndicator(into, 'prosperity', (e.prosperity ?? was.prosperity) - ns.prosperity, reason);
  ctx.changeIndicator(into, 'happiness', (e.happiness ?? was.happiness) - ns.happiness, reason);
}

function pick(own: readonly SettlementState[], capital: SettlementState | undefined, wanted: number | string[]): SettlementState[] {
  const candidates = own.filter((x) => x !== capital);
  // The nation keeps one settlement at least: its capital, or the nearest to where its capital would be.
  const room = capital ? candidates.length : Math.max(0, candidates.length - 1);
  if (Array.isArray(wanted)) return candidates.filter((x) => wanted.includes(x.id)).slice(0, room);
  const centre = offsetOf((capital ?? own[0])?.hex ?? ('0,0' as SettlementState['hex']));
  const far = [...candidates].sort((a, b) => hexDistance(centre, offsetOf(b.hex)) - hexDistance(centre, offsetOf(a.hex)) || compareIds(a.id, b.id));
  return far.slice(0, Math.min(wanted, room));
}
