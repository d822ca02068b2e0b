import type { Campaign } from '../core/campaign.js';
import type { LoggedEvent } from '../core/events.js';
import { compareIds, type NationId, type UnitId } from '../core/ids.js';
import { plural } from '../core/prose.js';
import type { GameState } from '../core/state.js';
import { unitName } from '../core/unit-name.js';
import type { SinceView } from './types.js';

/**
 * What happened to a nation while its player sent no orders, told at the top
 * of the report of the turn the player is back (issue 34): the battles it
 * fought, the units and settlements it lost and took, what it built, the
 * sieges laid to it, and the events that befell it, turn by turn of the gap.
 * Each turn's report told it then; a player back after a holiday reads it
 * here in a few lines. Made from the missed turns' own logs, so a report
 * rendered again says the same.
 */

/** At most this many missed turns are summed up: beyond it the player is told how many more there were. */
export const SINCE_TURNS = 6;

export interface MissedTurn {
  turn: number;
  events: readonly LoggedEvent[];
}

/**
 * The summary for a nation back after `missed` turns without orders: `turns` are those turns' logs, oldest
 * first; `start` the state before the first of them (whose units it names); `now` the state before this turn.
 */
export function sinceView(campaign: Campaign, nation: NationId, missed: number, turns: readonly MissedTurn[], start: GameState, now: GameState): SinceView | null {
  if (!turns.length) return null;
  const owner = new Map<UnitId, NationId>();
  for (const u of Object.values(start.units)) owner.set(u.id, u.nation);
  const named = new Map<UnitId, string>();
  const nameOf = (id: UnitId) => named.get(id) ?? (start.units[id] ? unitName(campaign, start.units[id]) : now.units[id] ? unitName(campaign, now.units[id]) : 'a unit');
  const settlementName = (id: string) => now.settlements[id as keyof GameState['settlements']]?.name ?? start.settlements[id as keyof GameState['settlements']]?.name ?? id;
  const towns = new Map<string, string>();
  for (const s of [...Object.values(start.settlements), ...Object.values(now.settlements)]) towns.set(s.hex, s.name);
  const where = (hex: string) => (towns.has(hex) ? `in ${towns.get(hex)}` : `at ${hex}`);
  let fought = 0;
  let won = 0;
  const lostUnits: string[] = [];
  const lostSettlements: string[] = [];
  const taken: string[] = [];
  const built: string[] = [];
  const besieged = new Set<string>();
  const befell: string[] = [];
  for (const { turn, events } of turns) {
    for (const e of events) {
      if (e.type === 'unit_created') {
        owner.set(e.unit, e.nation);
        continue;
      }
      if (!e.nations.includes(nation)) continue;
      switch (e.type) {
        case 'battle':
          if (e.attacker.nation === nation || e.defender.nation === nation) {
            fought += 1;
            if ((e.winner === 'attacker' && e.attacker.nation === nation) || (e.winner === 'defender' && e.defender.nation === nation)) won += 1;
          }
          break;
        case 'warfare':
          if (e.attacker === nation || e.defender === nation) {
            fought += 1;
            if (e[e.winner] === nation) won += 1;
          }
          break;
        case 'unit_health':
          if (e.to === 'destroyed' && owner.get(e.unit) === nation) lostUnits.push(`${nameOf(e.unit)} (turn ${turn})`);
          break;
        case 'settlement_captured':
        case 'settlement_revolted':
          if (e.from === nation) lostSettlements.push(`${settlementName(e.settlement)} (turn ${turn})`);
          else if (e.to === nation) taken.push(`${settlementName(e.settlement)} (turn ${turn})`);
          break;
        case 'build_completed':
          if (e.nation === nation) built.push(`${e.what} ${where(e.at)}`);
          break;
        case 'siege_started': {
          const s = start.settlements[e.settlement] ?? now.settlements[e.settlement];
          if (s?.nation === nation) besieged.add(s.name);
          break;
        }
        case 'event_fired':
          if (e.nation === nation) befell.push(`${e.title} (turn ${turn})`);
          break;
        default:
          break;
      }
    }
  }
  const lines: string[] = [];
  if (fought) lines.push(`Battles: ${plural(fought, 'battle')} fought, ${won} won.`);
  if (lostUnits.length) lines.push(`Units lost: ${lostUnits.join(', ')}.`);
  if (lostSettlements.length) lines.push(`Settlements lost: ${lostSettlements.join(', ')}.`);
  if (taken.length) lines.push(`Settlements taken: ${taken.join(', ')}.`);
  if (besieged.size) lines.push(`Besieged: ${[...besieged].sort(compareIds).join(', ')}.`);
  if (built.length) lines.push(`Built: ${built.join(', ')}.`);
  if (befell.length) lines.push(`Events: ${befell.join(', ')}.`);
  if (!lines.length) lines.push('Nothing befell your nation: your units held where they were.');
  const first = turns[0]!.turn;
  const last = turns[turns.length - 1]!.turn;
  // The missed turns not summed up, named by number: never more than there were turns before the first summed.
  const earlier = Math.max(0, Math.min(missed - turns.length, first - 1));
  const before = earlier ? [`(Before ${turns.length === 1 ? 'this one' : 'these'}, ${spanText(first - earlier, first - 1)} also passed without your orders.)`] : [];
  return { turns: spanText(first, last), missed: turns.length + earlier, lines: [...before, ...lines] };
}

/** "turn 4", "turns 4 and 5", "turns 4–7". */
function spanText(first: number, last: number): string {
  return first === last ? `turn ${first}` : last === first + 1 ? `turns ${first} and ${last}` : `turns ${first}–${last}`;
}
