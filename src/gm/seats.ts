import { existsSync } from 'node:fs';
import type { MailroomOptions } from '../mailroom/room.js';
import { sendInvitation } from '../mailroom/seat-mail.js';
import type { SendSummary } from '../mailroom/outbox.js';
import { runtimePath, type Offer } from '../schedule/runtime.js';
import { addOffer } from '../schedule/seats/offers.js';
import { mailClock, withGm, type GmOptions } from './context.js';
import { checkEmails, hasStartingState } from './nations.js';
import { readState } from '../campaign/store.js';
import { asNationId, sortedKeys } from '../core/ids.js';
import { seatsKey } from '../campaign/secrets.js';

/**
 * `fatecraft nation offer <campaign> <nation> <address>`: a one-time
 * invitation to take a seat, mailed to a volunteer (or anyone). The first
 * `accept` with its code takes the seat (src/seats/desk.ts); the code is made
 * from the campaign's seats key (secrets file) and is only in the mail.
 */
export interface OfferResult {
  offer: Offer;
  /** Undefined without a mail: block. */
  sent?: SendSummary;
}

export async function offerSeat(dir: string, nation: string, address: string, opts: GmOptions & { name?: string; env?: NodeJS.ProcessEnv; mail?: Omit<MailroomOptions, 'clock'> }): Promise<OfferResult> {
  const env = opts.env ?? process.env;
  return withGm(dir, `nation offer ${nation} ${address}`, opts, async (ctx) => {
    const nations = sortedKeys(ctx.open.file.nations);
    const def = ctx.open.file.nations[nation] ?? ctx.refuse(`no nation "${nation}" in campaign.yaml; its nations are ${nations.join(', ')}`);
    if (def.rebels) ctx.refuse(`${nation} are the rebels, the GM's own: no player takes them`);
    // A nation in waiting has a seat once a civil war has brought it into play (docs/rules.md L3).
    if (def.breaksFrom && !(hasStartingState(dir) && (await readState(dir, ctx.latest, ctx.open.campaign)).nations[asNationId(nation)]?.alive)) ctx.refuse(`${nation} is a nation in waiting (it breaks from ${def.breaksFrom} only in a civil war): there is no seat to take yet`);
    if (!existsSync(runtimePath(dir))) ctx.refuse(`the campaign has not started: give ${nation} its player in campaign.yaml (nations.${nation}.email), then fatecraft start ${dir}`);
    if (ctx.runtime.dropped[nation]?.mode === 'neutral') ctx.refuse(`${nation}'s forces were made neutral when it was dropped; there is no seat left to take`);
    checkEmails(ctx, [address]);
    const lower = address.toLowerCase();
    if (def.email.some((e) => e.toLowerCase() === lower)) ctx.refuse(`${address} already plays ${nation}`);
    await seatsKey(ctx.open.campaign.name, dir, env);
    const name = opts.name ?? (ctx.runtime.standby ?? []).find((v) => v.address === lower)?.name;
    const offer = addOffer(ctx.runtime, { nation, address, ...(name ? { name } : {}), at: ctx.now });
    ctx.log('offer', `invitation ${offer.id}: the seat of ${nation} offered to ${address}${name ? ` (${name})` : ''}`, ctx.runtime.turn);
    await ctx.save();
    if (ctx.open.file.mail === undefined) return { offer };
    const sent = await sendInvitation(dir, { offer, turn: ctx.runtime.turn, deadline: ctx.local(ctx.runtime.deadline) }, { ...opts.mail, clock: mailClock(opts.clock) });
    offer.mailed = true;
    await ctx.save();
    return { offer, sent: sent.sent };
  });
}
