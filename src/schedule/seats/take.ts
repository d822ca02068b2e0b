import type { Runtime } from '../runtime.js';
import { startTenure } from './records.js';

/**
 * A seat given a new holder, as the last step of a whole operation (src/schedule/whole-operation.ts): an
 * `accept` by mail, or `fatecraft token --new` for a nation's first player. In runtime.yaml only, so it is
 * done (or redone after a crash) in the same write that clears the operation: the new tenure; and for an
 * invitation accepted, the invitation marked taken, the other open invitations to the seat withdrawn (the
 * first to accept takes it), and the taker off the standby list.
 */
export type SeatChange = NonNullable<NonNullable<NonNullable<Runtime['operation']>['whole']>['seat']>;

export function settleSeat(rt: Runtime, now: Date, seat: SeatChange): void {
  startTenure(rt, seat.nation, seat.player, seat.fromTurn, seat.name);
  if (!seat.offer) return;
  const { id, key } = seat.offer;
  for (const o of rt.offers ?? []) {
    if (o.id === id) Object.assign(o, { status: 'accepted' as const, acceptedBy: key, acceptedAt: now.toISOString() });
    else if (o.nation === seat.nation && o.status === 'open') o.status = 'withdrawn';
  }
  const taker = new Set(seat.player.map((a) => a.toLowerCase()));
  if (rt.standby) rt.standby = rt.standby.filter((v) => !taker.has(v.address));
}
