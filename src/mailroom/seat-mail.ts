/**
 * Seats by mail, the mailroom's side: the invitation to take a seat (`fatecraft nation offer`, or the
 * tick's autofill) and the welcome of the player who took one. Each is queued once under a Message-ID
 * derived from what it is, then the queue is sent.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { isPacked, readPackedReports } from '../campaign/packed-reports.js';
import { latestTurn, turnDirName } from '../campaign/store.js';
import { TAR_END, tarEntry } from '../campaign/tar.js';
import { SEATS_KEY } from '../campaign/secrets.js';
import type { Offer } from '../schedule/runtime.js';
import { codeDigest, offerCode } from '../schedule/seats/offers.js';
import { composeInvitation, composeSeatWelcome } from './compose-seats.js';
import type { InboundFacts } from './ledger.js';
import { emptySendSummary, type SendSummary } from './outbox.js';
import { readReportFiles, type SendOptions } from './reports.js';
import { Mailroom } from './room.js';
import { unwrapFault } from './runtime.js';

/** How many of a nation's earlier reports the welcome's archive carries. */
export const ARCHIVE_TURNS = 6;

/** The invitations' codes as the mailroom checks an `accept` against them (digests only). */
export function offerDigests(room: Mailroom, offers: readonly Offer[]): { id: number; nation: string; address: string; digest: string }[] {
  const key = room.secrets.secret(SEATS_KEY);
  if (key === undefined) return [];
  return offers.map((o) => ({ id: o.id, nation: o.nation, address: o.address, digest: codeDigest(offerCode(key, room.open.campaign.name, o)) }));
}

/** Queues the invitation to take a seat and sends the queue. */
export async function sendInvitation(campaignDir: string, input: { offer: Offer; turn: number; deadline: string }, opts: SendOptions = {}): Promise<{ queued: boolean; sent: SendSummary }> {
  try {
    return await Mailroom.run(campaignDir, opts, async (room) => {
      const key = room.secrets.secret(SEATS_KEY);
      if (key === undefined) throw new Error(`no ${SEATS_KEY} in the secrets (${room.secrets.where}): an invitation's code is made with it`);
      const def = room.open.file.nations[input.offer.nation]!;
      const latest = (await latestTurn(campaignDir)) ?? 0;
      const report = (await readReportFiles(campaignDir, latest, input.offer.nation))?.txt;
      const message = composeInvitation({
        ...room.base(),
        offer: input.offer.id,
        to: input.offer.address,
        ...(input.offer.name ? { name: input.offer.name } : {}),
        nationName: def.name,
        leader: def.leader,
        code: offerCode(key, room.open.campaign.name, input.offer),
        turn: input.turn,
        deadline: input.deadline,
        ...(report ? { report } : {}),
      });
      const queued = await room.enqueue(message, 'notice', `invitation ${input.offer.id} to ${input.offer.address} for ${input.offer.nation}`);
      return { queued, sent: opts.queueOnly ? emptySendSummary() : await room.deliver() };
    });
  } catch (error) {
    throw unwrapFault(error);
  }
}

/** Queues the welcome of a player who took a seat (the caller sends the queue). Its Message-ID. */
export async function queueSeatWelcome(room: Mailroom, o: { nation: string; to: string | string[]; token: string; turn: number; deadline?: string; inbound?: InboundFacts; intro?: string }): Promise<string> {
  const def = room.open.file.nations[o.nation]!;
  const latest = (await latestTurn(room.dir)) ?? 0;
  const files = await readReportFiles(room.dir, latest, o.nation);
  const archive = await reportArchive(room.dir, o.nation, latest);
  const message = composeSeatWelcome({
    ...room.base(),
    nation: o.nation,
    nationName: def.name,
    leader: def.leader,
    to: Array.isArray(o.to) ? o.to : [o.to],
    token: o.token,
    ...(o.intro ? { intro: o.intro } : {}),
    turn: o.turn,
    deadline: o.deadline ?? 'when the GM announces it',
    ...(files ? { files, reportTurn: latest } : {}),
    ...(archive.turns.length ? { archive } : {}),
    ...(o.inbound ? { inbound: o.inbound } : {}),
  });
  await room.enqueue(message, 'report', `welcome of the new player of ${o.nation}`);
  return message.messageId;
}

/** The nation's reports of the turns before `latest` (the last ARCHIVE_TURNS of them), as one .tar.gz. */
export async function reportArchive(dir: string, nation: string, latest: number): Promise<{ bytes: Buffer; turns: number[] }> {
  const parts: Buffer[] = [];
  const turns: number[] = [];
  for (let t = Math.max(1, latest - ARCHIVE_TURNS); t < latest; t++) {
    const folder = join(dir, 'turns', turnDirName(t));
    if (!existsSync(folder)) continue;
    const packed = !existsSync(join(folder, 'reports')) && isPacked(folder) ? await readPackedReports(folder, (n) => n.startsWith(`${nation}.`)) : undefined;
    const files = await readReportFiles(dir, t, nation, packed);
    if (!files) continue;
    turns.push(t);
    parts.push(...tarEntry(`${turnDirName(t)}/${nation}.txt`, Buffer.from(files.txt)));
    if (files.html !== undefined) parts.push(...tarEntry(`${turnDirName(t)}/${nation}.html`, Buffer.from(files.html)));
  }
  // No time in the gzip header: the same reports give the same bytes.
  return { bytes: gzipSync(Buffer.concat([...parts, TAR_END])), turns };
}
