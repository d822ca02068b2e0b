import type { Campaign } from '../core/campaign.js';
import type { NationId } from '../core/ids.js';
import type { GmAction } from '../core/orders.js';
import { signed } from './ladder.js';

/**
 * The GM's log as one nation reads it (campaign.yaml `reports.gmLog: true`): every operation that changed
 * the game outside the rules this turn, so players can see what the judge did and why. The schedule's
 * lines (a moved deadline, a pause, a rerun, a rollback, a nation added, dropped or reassigned) are the
 * same for everyone and hold no secrets; the GM's adjustments for the turn (orders/NNNN/_gm.yaml) are told
 * in full to the nation they concern, and to the others only as "another nation": never whose, how much or
 * why, since Renown, Fate and goals are secret.
 */
export function gmLogLines(campaign: Campaign, nation: NationId, scheduleLines: readonly string[], actions: readonly GmAction[]): string[] {
  const lines = [...scheduleLines];
  const others = { adjust: new Set<string>(), goal: new Set<string>(), event: new Set<string>() };
  let forcedRolls = 0;
  for (const a of actions) {
    if (a.kind === 'roll') {
      forcedRolls += a.values.length;
      continue;
    }
    // Aspects the GM places or removes show in the reports of those who may see them, never here.
    if (a.kind === 'aspect' || a.kind === 'remove_aspect') continue;
    const mine = a.nation === nation;
    if (a.kind === 'adjust') {
      if (!mine) others.adjust.add(a.nation);
      else lines.push(`The GM adjusted your standing: ${adjustmentText(a)}.${a.reason ? ` Reason: ${a.reason}` : ''}`);
    } else if (a.kind === 'complete_goal') {
      const goal = campaign.nations[nation]?.goals.find((g) => g.id === a.goal);
      if (!mine) others.goal.add(a.nation);
      else lines.push(`The GM counted your goal "${goal?.text ?? a.goal}" as reached.${a.reason ? ` Reason: ${a.reason}` : ''}`);
    } else if (a.kind === 'event') {
      if (!mine) others.event.add(a.nation);
      else lines.push('The GM sent your nation an event (it is among this turn\'s events).');
    }
  }
  const count = (n: number, one: string, many: string) => (n === 1 ? one : `${n} ${many}`);
  if (others.adjust.size) lines.push(`The GM adjusted the standing of ${count(others.adjust.size, 'another nation', 'other nations')}.`);
  if (others.goal.size) lines.push(`The GM counted a goal of ${count(others.goal.size, 'another nation', 'other nations')} as reached.`);
  if (others.event.size) lines.push(`The GM sent an event to ${count(others.event.size, 'another nation', 'other nations')}.`);
  if (forcedRolls) lines.push(`The GM set ${count(forcedRolls, 'one die roll', 'die rolls')} of this turn by hand.`);
  return lines;
}

function adjustmentText(a: Extract<GmAction, { kind: 'adjust' }>): string {
  const parts = [
    a.renown ? `${signed(a.renown)} Renown` : '',
    a.fate ? `${signed(a.fate)} Fate` : '',
    a.prosperity ? `${signed(a.prosperity)} Prosperity` : '',
    a.happiness ? `${signed(a.happiness)} Happiness` : '',
  ].filter(Boolean);
  return parts.join(', ') || 'no change';
}
