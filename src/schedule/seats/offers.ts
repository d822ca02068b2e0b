import { createHmac } from 'node:crypto';
import { tokenDigest } from '../../campaign/secrets.js';
import type { Offer, Runtime } from '../runtime.js';

/**
 * One-time invitations to take a seat. The code an `accept` must carry is
 * derived from the campaign's seats key (secrets file, outside the campaign
 * folder) and the invitation, so it is in the mail and nowhere on disk, and
 * the same invitation always has the same code: sent again after a crash it
 * is the same message, queued once.
 */
export function offerCode(key: string, campaign: string, offer: Pick<Offer, 'id' | 'nation' | 'address'>): string {
  const mac = createHmac('sha256', key).update(`${campaign}\u0000${offer.id}\u0000${offer.nation}\u0000${offer.address.toLowerCase()}`).digest();
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const chars = [...mac.subarray(0, 15)].map((b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5, 10)}-${chars.slice(10)}`;
}

/** The digest a code is compared by (in constant time, as a token is). */
export const codeDigest = tokenDigest;

/** Records a new invitation (the caller saves the runtime and mails it). */
export function addOffer(runtime: Runtime, o: { nation: string; address: string; name?: string; at: Date }): Offer {
  const offers = (runtime.offers ??= []);
  const offer: Offer = { id: Math.max(0, ...offers.map((x) => x.id)) + 1, nation: o.nation, address: o.address.toLowerCase(), ...(o.name ? { name: o.name } : {}), at: o.at.toISOString(), turn: runtime.turn, status: 'open' };
  offers.push(offer);
  return offer;
}

export const openOffers = (runtime: Runtime): Offer[] => (runtime.offers ?? []).filter((o) => o.status === 'open');

/** The volunteer first in line who holds no open invitation and plays no nation (`taken`: addresses that do). */
export function nextVolunteer(runtime: Runtime, taken: ReadonlySet<string>): { address: string; name: string } | undefined {
  const invited = new Set(openOffers(runtime).map((o) => o.address));
  return (runtime.standby ?? []).find((v) => !invited.has(v.address) && !taken.has(v.address));
}
