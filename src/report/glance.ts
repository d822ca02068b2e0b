import type { LoggedEvent } from '../core/events.js';
import type { NationId } from '../core/ids.js';
import type { Namer } from './namer.js';
import { signed } from './ladder.js';
import { tallyAlerts, tallyText, tallyWords } from './order-outcomes.js';
import type { GlanceView, OrderTally, OwnSettlementView, UnrestView } from './types.js';

export interface GlanceFacts {
  nation: NationId;
  alive: boolean;
  missedTurns: number;
  /** At the start of the turn and now. */
  renown: [number, number];
  fate: [number, number];
  deadline: string;
  orders: OrderTally | null;
  unitsLost: number;
  settlements: readonly OwnSettlementView[];
  unrest: UnrestView | null;
  /** The events the nation took part in. */
  mine: readonly LoggedEvent[];
  names: Namer;
}

/**
 * The block a report opens with: the treasury now, the deadline, and what
 * went wrong or needs acting on, counted and named — the details are further
 * down. Built from the nation's own facts only.
 */
export function glanceOf(f: GlanceFacts): GlanceView {
  const alerts: string[] = [];
  if (!f.alive) alerts.push('Your nation has fallen: it holds no settlement and no unit.');
  for (const e of f.mine) {
    if ((e.type === 'settlement_captured' || e.type === 'settlement_revolted') && e.from === f.nation)
      alerts.push(`${f.names.settlement(e.settlement)} was lost to ${f.names.nationName(e.to)}.`);
    if (e.type === 'civil_war' && e.from === f.nation) alerts.push(`Civil war: ${f.names.nationName(e.into)} broke away with ${e.settlements.map((s) => f.names.settlement(s)).join(', ')}.`);
  }
  for (const s of f.settlements) if (s.besiegedBy.length) alerts.push(`${s.name} is besieged (${s.besiegedBy.length === 1 ? 'one unit' : `${s.besiegedBy.length} units`}).`);
  if (f.unrest && f.unrest.settlements.length)
    alerts.push(`Unrest: next turn ${f.unrest.settlements.length === 1 ? 'a settlement' : `${f.unrest.settlements.length} settlements`} without a garrison risk${f.unrest.settlements.length === 1 ? 's' : ''} revolt at ${f.unrest.chance}%.`);
  if (f.missedTurns > 0) alerts.push(`No orders arrived from you this turn${f.missedTurns > 1 ? ` (${f.missedTurns} turns in a row)` : ''}.`);
  alerts.push(...tallyAlerts(f.orders));
  return {
    renown: f.renown[1],
    fate: f.fate[1],
    renownChange: signed(f.renown[1] - f.renown[0]),
    fateChange: signed(f.fate[1] - f.fate[0]),
    deadline: f.deadline,
    refused: f.orders?.refused ?? 0,
    orders: f.orders,
    ordersText: tallyText(f.orders),
    ordersWords: tallyWords(f.orders),
    unitsLost: f.unitsLost,
    alerts,
  };
}
