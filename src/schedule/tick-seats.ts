import { playedNations } from '../core/campaign.js';
import { seatsKey } from '../campaign/secrets.js';
import { seatsOf } from '../seats/settings.js';
import { logOp, raiseAlert } from './runtime.js';
import { openSeatTurn } from './seats/open-turn.js';
import { addOffer, nextVolunteer } from './seats/offers.js';
import { submittedNations } from './submitted.js';
import { sendOffers } from './tick-owed.js';
import type { TickSession } from './tick-session.js';

/** The seats of the turn just opened: tenures counted, caretakers' orders filed, quiet players warned (src/seats). */
export async function seatWork(s: TickSession): Promise<void> {
  const result = await openSeatTurn({ dir: s.dir, open: s.open, runtime: s.runtime, now: s.now, local: s.local });
  for (const line of result.lines) s.say(line);
  if (result.done) {
    await autofill(s, result.taken.map((d) => d.nation));
    await s.save();
  }
  await sendOffers(s);
}

/** seats.autofill: each seat a policy takes (or silent at roll-call) is offered to the next volunteer. */
export async function autofill(s: TickSession, nations: readonly string[]): Promise<void> {
  if (!nations.length || !seatsOf(s.open.file, s.open.campaign).campaign.autofill) return;
  const playing = new Set(Object.values(s.open.file.nations).flatMap((n) => n.email.map((e) => e.toLowerCase())));
  for (const nation of nations) {
    const volunteer = nextVolunteer(s.runtime, playing);
    if (!volunteer) {
      s.say(`seats.autofill: no volunteer left for ${nation}`);
      continue;
    }
    await seatsKey(s.open.campaign.name, s.dir);
    const offer = addOffer(s.runtime, { nation, address: volunteer.address, name: volunteer.name, at: s.now });
    logOp(s.runtime, s.now, 'offer', `invitation ${offer.id}: the seat of ${nation} offered to ${volunteer.address} (${volunteer.name}) by seats.autofill`, s.runtime.turn);
    s.say(`offered the seat of ${nation} to ${volunteer.address} (seats.autofill)`);
  }
}

/** Roll-call before turn 1: the GM hears which players have not confirmed (ready, or orders); autofill offers those seats. */
export async function rollCall(s: TickSession, turn: number): Promise<void> {
  const rt = s.runtime;
  const call = (rt.rollCall ??= { ready: [] });
  const submitted = await submittedNations(s.dir, turn, playedNations(s.open.campaign));
  const silent = playedNations(s.open.campaign).filter((n) => (s.open.file.nations[n]?.email ?? []).length > 0 && !rt.dropped[n] && !call.ready.includes(n) && !submitted.includes(n));
  call.told = s.now.toISOString();
  const message = silent.length
    ? `roll-call before turn ${turn}: no word from ${silent.join(', ')} (neither "ready" nor orders); turn ${turn} is due ${s.local(rt.deadline)}. Offer a seat to a volunteer: fatecraft nation offer ${s.dir} <nation> <address>${seatsOf(s.open.file, s.open.campaign).campaign.autofill ? ' (seats.autofill offers them now to the standby list)' : ''}`
    : `roll-call before turn ${turn}: every player has confirmed`;
  if (silent.length) raiseAlert(rt, s.now, { key: `roll-call:${turn}`, kind: 'seats', turn, message });
  logOp(rt, s.now, 'roll-call', message, turn);
  s.say(message);
  await autofill(s, silent);
  await s.save();
  await sendOffers(s);
}
