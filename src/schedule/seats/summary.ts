import type { CampaignFile } from '../../campaign/schema.js';
import { playedNations, type Campaign } from '../../core/campaign.js';
import { asNationId } from '../../core/ids.js';
import type { GameState } from '../../core/state.js';
import type { Runtime } from '../runtime.js';
import type { SeatDecision } from '../../seats/policy.js';
import { currentTenure, reliabilityText, tenureText } from './records.js';

/**
 * The seats as the GM reads them in `fatecraft status` and the GM's report:
 * who holds each seat and how reliably, which seats a policy plays or takes
 * at this deadline, the standby list and the open invitations.
 */
export interface SeatsSummary {
  nations: SeatLine[];
  standby: { address: string; name: string; since: string }[];
  offers: { id: number; nation: string; address: string; name?: string; status: string; turn: number }[];
  rollCall?: { ready: string[]; told?: string };
}

export interface SeatLine {
  id: string;
  name: string;
  player: string[];
  /** Played by a caretaker or in civil disorder, since the turn (state). */
  inCare?: { policy: 'caretaker' | 'disorder'; since: number };
  /** The policy that takes the seat at this turn's deadline if no orders come (or plays it, when in care). */
  policy?: string;
  missedTurns: number;
  /** The current tenure's record, in words ("9 of 10 turns on time (90%)"). */
  reliability?: string;
  /** Every tenure, oldest first, in words. */
  history: string[];
}

export function seatsSummary(campaign: Campaign, file: CampaignFile, state: GameState | undefined, runtime: Runtime | undefined, decisions: readonly SeatDecision[]): SeatsSummary {
  const nations: SeatLine[] = playedNations(campaign).map((id) => {
    const ns = state?.nations[asNationId(id)];
    const d = decisions.find((x) => x.nation === id);
    const tenure = runtime ? currentTenure(runtime, id) : undefined;
    return {
      id,
      name: campaign.nations[asNationId(id)]!.name,
      player: file.nations[id]?.email ?? [],
      ...(ns?.seat ? { inCare: ns.seat } : {}),
      ...(d && d.mode !== 'hold' ? { policy: d.mode === 'pause' ? `pause, then ${d.atResolution}` : d.mode } : {}),
      missedTurns: ns?.missedTurns ?? 0,
      ...(tenure ? { reliability: reliabilityText(tenure) } : {}),
      history: (runtime?.seats?.[id] ?? []).map(tenureText),
    };
  });
  return {
    nations,
    standby: (runtime?.standby ?? []).map((v) => ({ address: v.address, name: v.name, since: v.at })),
    offers: (runtime?.offers ?? []).filter((o) => o.status === 'open').map((o) => ({ id: o.id, nation: o.nation, address: o.address, ...(o.name ? { name: o.name } : {}), status: o.status, turn: o.turn })),
    ...(runtime?.rollCall ? { rollCall: runtime.rollCall } : {}),
  };
}

/** The summary as lines of text (status; the GM report's text part). */
export function seatsText(s: SeatsSummary): string[] {
  const out: string[] = [];
  const interesting = s.nations.filter((n) => n.inCare || n.policy || n.history.length > 1);
  if (interesting.length) {
    out.push('Seats:');
    for (const n of interesting) {
      const care = n.inCare ? `played by ${n.inCare.policy === 'disorder' ? 'civil disorder' : 'the caretaker'} since turn ${n.inCare.since}` : n.policy ? `${n.policy} takes the seat at this deadline unless orders come` : '';
      out.push(`  ${n.id}: ${[care, n.missedTurns ? `${n.missedTurns} turn${n.missedTurns === 1 ? '' : 's'} without orders` : ''].filter(Boolean).join('; ') || 'held by its player'}`);
      for (const h of n.history) out.push(`    ${h}`);
    }
  }
  if (s.standby.length) {
    out.push(`Standby list (${s.standby.length}; offer a seat with fatecraft nation offer <campaign> <nation> <address>):`);
    for (const v of s.standby) out.push(`  ${v.name} <${v.address}> since ${v.since}`);
  }
  if (s.offers.length) {
    out.push('Open invitations:');
    for (const o of s.offers) out.push(`  #${o.id} ${o.nation} to ${o.name ? `${o.name} <${o.address}>` : o.address} (turn ${o.turn})`);
  }
  if (s.rollCall && !s.rollCall.told) out.push(`Roll-call: ready so far: ${s.rollCall.ready.join(', ') || 'nobody'}`);
  return out;
}

/** The schedule's side of the seats for the GM's report of a turn: each seat's holder and record, the standby list, invitations. */
export function seatRecordLines(campaign: Campaign, runtime: Runtime | undefined): string[] {
  if (!runtime) return [];
  const out: string[] = [];
  for (const id of playedNations(campaign)) {
    const t = currentTenure(runtime, id);
    const earlier = (runtime.seats?.[id]?.length ?? 1) - 1;
    if (t) out.push(`${campaign.nations[id]!.name}: ${tenureText(t)}${earlier ? ` (${earlier} earlier holder${earlier === 1 ? '' : 's'})` : ''}.`);
  }
  const standby = runtime.standby ?? [];
  if (standby.length) out.push(`Standby list: ${standby.map((v) => `${v.name} <${v.address}>`).join(', ')}.`);
  for (const o of runtime.offers ?? []) if (o.status === 'open') out.push(`Open invitation #${o.id}: the seat of ${o.nation} offered to ${o.name ? `${o.name} <${o.address}>` : o.address}.`);
  return out;
}
