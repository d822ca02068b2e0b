import type { LoggedEvent } from './events.js';
import { sortedKeys } from './ids.js';
import type { GameState } from './state.js';

/**
 * Checks that a turn's log explains every change: no unit, Renown or Fate
 * point, indicator step or settlement is lost or gained without an event.
 * Returns the unexplained changes (empty when the turn is sound).
 */
export function auditTurn(before: GameState, after: GameState, events: readonly LoggedEvent[]): string[] {
  const problems: string[] = [];
  const destroyed = new Set<string>();
  const created = new Set<string>();
  const captured = new Map<string, string>();
  const founded = new Set<string>();
  const externalTo = new Map<string, string>();
  const externalGone = new Set<string>();
  const sums = new Map<string, number>();
  const add = (key: string, delta: number) => sums.set(key, (sums.get(key) ?? 0) + delta);
  for (const e of events) {
    if (e.type === 'unit_health' && e.to === 'destroyed') destroyed.add(e.unit);
    if (e.type === 'unit_created') created.add(e.unit);
    if (e.type === 'settlement_captured' || e.type === 'settlement_revolted') captured.set(e.settlement, e.to);
    if (e.type === 'settlement_founded') founded.add(e.settlement);
    if (e.type === 'external_captured') externalTo.set(e.external, e.to);
    if (e.type === 'external_destroyed') externalGone.add(e.external);
    if (e.type === 'civil_war') for (const s of e.settlements) captured.set(s, e.into);
    if (e.type === 'resource') add(`${e.nation}:${e.resource}`, e.delta);
    if (e.type === 'indicator') add(`${e.nation}:${e.indicator}`, e.delta);
  }
  for (const id of sortedKeys(before.units)) {
    if (!after.units[id] && !destroyed.has(id)) problems.push(`unit ${id} vanished without an event`);
  }
  for (const id of sortedKeys(after.units)) {
    if (!before.units[id] && !created.has(id)) problems.push(`unit ${id} appeared without an event`);
  }
  for (const id of sortedKeys(before.settlements)) {
    const was = before.settlements[id];
    const now = after.settlements[id];
    if (!now) problems.push(`settlement ${id} vanished without an event`);
    else if (was && now.nation !== was.nation && captured.get(id) !== now.nation) problems.push(`settlement ${id} changed hands without an event`);
  }
  for (const id of sortedKeys(after.settlements)) {
    if (!before.settlements[id] && !founded.has(id)) problems.push(`settlement ${id} appeared without an event`);
  }
  for (const id of sortedKeys(before.externals)) {
    const was = before.externals[id];
    const now = after.externals[id];
    if (!now && !externalGone.has(id)) problems.push(`external structure ${id} vanished without an event`);
    else if (was && now && now.nation !== was.nation && externalTo.get(id) !== now.nation) problems.push(`external structure ${id} changed hands without an event`);
  }
  for (const nation of sortedKeys(after.nations)) {
    const a = after.nations[nation];
    const b = before.nations[nation];
    if (!a || !b) continue;
    for (const key of ['renown', 'fate', 'prosperity', 'happiness'] as const) {
      const delta = a[key] - b[key];
      const explained = sums.get(`${nation}:${key}`) ?? 0;
      if (delta !== explained) problems.push(`${nation} ${key} changed by ${delta} but events explain ${explained}`);
    }
  }
  return problems;
}
