/**
 * Seats by mail as one fetch run carries them out (docs/mail.md, "Seats"): "volunteer" onto the standby list,
 * "back" and "ready", and an "accept" that takes a seat and queues the taker's welcome. The seat desk
 * (src/schedule/seats/desk.ts) keeps them in runtime.yaml; without one (the schedule not started), the GM is told.
 */
import type { CommandFacts } from './compose.js';
import { composeAnswer } from './compose.js';
import { seatTakenNote } from './compose-seats.js';
import type { Decision } from './decide.js';
import type { LedgerEntry } from './ledger.js';
import type { Mailroom } from './room.js';
import { queueSeatWelcome } from './seat-mail.js';
import { failpoint } from '../host/failpoints.js';
import type { SeatDesk } from '../schedule/seats/desk.js';

export class SeatIntake {
  constructor(
    private readonly room: Mailroom,
    private readonly desk: SeatDesk | undefined,
    /** The pending turn's deadline as a nation's player reads it. */
    private readonly deadlineFor: (nation: string) => string | undefined,
    private readonly pendingTurn: number,
  ) {}

  /** "volunteer": onto the standby list (or the GM told, when nothing keeps the list). */
  async volunteer(record: LedgerEntry, d: Extract<Decision, { kind: 'seat'; action: 'volunteer' }>, queue: (id: string) => void): Promise<CommandFacts> {
    const facts: CommandFacts = { pendingTurn: this.pendingTurn };
    if (this.desk) facts.volunteer = (await this.desk.volunteer(d.address, d.name)) === 'added';
    else queue(await this.room.alert({ key: `volunteer:${record.key}`, subject: `${d.name} volunteers to play`, text: `${d.name} <${d.address}> offered to take over a nation. The schedule is not running (no runtime.yaml), so the standby list was not kept; note the address.` }));
    return facts;
  }

  /** "back" and "ready", carried out on the seats (or the GM told). */
  async commands(record: LedgerEntry, d: Extract<Decision, { kind: 'command' }>, facts: CommandFacts, queue: (id: string) => void): Promise<void> {
    if (d.commands.includes('back')) {
      if (this.desk) facts.back = await this.desk.back(d.nation, d.replyTo ?? '?');
      else queue(await this.room.alert({ key: `back:${record.key}`, subject: `${d.nation} is back`, text: `${d.nation} wrote from ${d.replyTo} that they are back. The schedule is not running (no runtime.yaml), so nothing was filed.` }));
    }
    if (d.commands.includes('ready')) {
      if (this.desk) await this.desk.ready(d.nation);
      facts.ready = this.desk !== undefined;
    }
  }

  /** "accept" with an invitation's code: the seat is taken and the taker welcomed. Why not, when it was not. */
  async take(record: LedgerEntry, d: Extract<Decision, { kind: 'seat'; action: 'accept' }>, queue: (id: string) => void): Promise<string | undefined> {
    const room = this.room;
    if (!this.desk) {
      queue(await room.alert({ key: `accept:${record.key}`, subject: `${d.address} accepts the seat of ${d.nation}`, text: `${d.address} accepted invitation ${d.offer} to take ${d.nation}, but the schedule is not running, so the seat was not given. Run fatecraft tick (or mail fetch with the schedule started).` }));
      return 'the schedule is not running';
    }
    const taken = await this.desk.accept(d.offer, record.key);
    if (!taken.ok) {
      if (d.replyTo) {
        const answer = composeAnswer({ ...room.base(), key: record.key, inbound: record.inbound, decision: { kind: 'refuse', reason: 'invitation', detail: taken.why, nation: d.nation }, to: d.replyTo });
        if (answer) {
          await room.enqueue(answer.message, answer.kind, `answer for ${d.address}`);
          queue(answer.message.messageId);
        }
      }
      return taken.why;
    }
    const deadline = this.deadlineFor(taken.nation);
    queue(await queueSeatWelcome(room, { nation: taken.nation, to: d.address, token: taken.token, turn: taken.turn, ...(deadline ? { deadline } : {}), inbound: record.inbound }));
    // Killed here, the next fetch takes this mail up again: the seat is taken already, the welcome queued once.
    await failpoint('seat-welcome-queued');
    const def = room.open.file.nations[taken.nation];
    queue(await room.alert(seatTakenNote({ nation: taken.nation, nationName: def?.name ?? taken.nation, address: d.address, ...(taken.offer.name ? { name: taken.offer.name } : {}), turn: taken.turn, offer: taken.offer.id })));
    return undefined;
  }
}
