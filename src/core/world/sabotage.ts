import { compareIds } from '../ids.js';
import type { ExternalState, SettlementState } from '../state.js';
import { projectName } from '../work.js';
import type { Side } from './act.js';
import { applyEffect } from './effects.js';

/**
 * Sabotage or bombardment (the `damage` effect) on the target settlement:
 * what the order aims at (a structure, "battlement" or "work"), else the
 * work in progress, else the strongest battlement, else a structure (by id).
 * The owner sees the damage in its own events (with the action's name, never
 * the actor's); the actor is told what was struck (docs/rules.md D2).
 */
export function damage(s: Side, delay: number): void {
  const { ctx } = s;
  if (s.place.external) return razeExternal(s, s.place.external);
  const st = s.place.settlement ?? ctx.settlementAt(s.place.hex);
  const tell = (text: string) => ctx.emit({ type: 'event_message', nations: [s.nation], nation: s.nation, event: s.def.id, text });
  if (!st) return tell(`${s.def.name} found nothing to strike at ${s.place.label}.`);
  const work = ctx.state.builds.filter((b) => b.settlement === st.id || (b.hex === st.hex && b.nation === st.nation)).sort((a, b) => compareIds(a.id, b.id));
  const aim = s.aim ?? (work.length ? 'work' : st.battlements.length ? 'battlement' : [...st.structures].sort(compareIds)[0]);
  const struck = { scene: s.scene, nation: st.nation, target: { scope: 'settlement' as const, id: st.id, hex: st.hex }, event: s.def.id, title: s.def.name, fill: (t: string) => t, reason: s.def.name };
  if (aim === 'work') {
    const b = work[0];
    if (!b) return tell(`${s.def.name} found no work under way in ${st.name}.`);
    b.turnsLeft += delay;
    const what = projectName(ctx.campaign, b.project, b.nation);
    ctx.emit({ type: 'work_delayed', nations: [st.nation], nation: st.nation, build: b.id, what, by: delay, turnsLeft: b.turnsLeft, reason: s.def.name });
    return tell(`${s.def.name} set back the ${what} in ${st.name} by ${delay} turn${delay === 1 ? '' : 's'}.`);
  }
  if (aim === 'battlement') {
    if (!st.battlements.length) return tell(`${st.name} has no battlement to strike.`);
    applyEffect(ctx, struck, { kind: 'battlement_damaged' });
    return tell(`${s.def.name} damaged a battlement of ${st.name}.`);
  }
  if (!aim || !hasStructure(st, aim)) return tell(`${s.def.name} found no ${aim ? (ctx.campaign.structures[aim]?.name ?? aim) : 'structure'} in ${st.name}.`);
  applyEffect(ctx, struck, { kind: 'structure_destroyed', structure: aim });
  tell(`${s.def.name} destroyed the ${ctx.campaign.structures[aim]?.name ?? aim} of ${st.name}.`);
}

const hasStructure = (st: SettlementState, id: string) => st.structures.includes(id);

/**
 * An external structure (a mine, a dig site) has no works or walls to strike:
 * damage razes it, as a won attack that says `destroy` does. The owner learns
 * who did it only when the action names its actor.
 */
function razeExternal(s: Side, e: ExternalState): void {
  const { ctx } = s;
  if (!ctx.state.externals[e.id]) return;
  const named = s.def.named.includes(s.outcome) || e.nation === s.nation;
  const nations = [...new Set([e.nation, s.nation])].sort(compareIds);
  ctx.emit({ type: 'external_destroyed', nations, external: e.id, structure: e.type, at: e.hex, nation: e.nation, ...(named ? { by: s.nation } : {}), units: [], reason: s.def.name });
  delete ctx.state.externals[e.id];
}
