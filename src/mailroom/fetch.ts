/**
 * `fatecraft mail fetch`: the inbound executor. For each message in the inbox, in order:
 *
 *   key       Message-ID (or a digest of the body) → the ledger entry, if the message was seen before
 *   decide    parse, authenticate and judge it (decide.ts); record the decision in the ledger
 *   carry out file the orders (and the raw mail beside them), queue the answer, alert the GM
 *   done      record it done in the ledger
 *   move      move the message to Processed (or Quarantine)
 *
 * Messages go in batches (FetchOptions.batch): each message is decided (flushed to disk) and carried out
 * (its files written whole but not flushed one by one, batch-flush.ts); then, for the batch, its files are
 * flushed together, its messages are recorded done together (one flushed journal, Ledger.putDone), their
 * answers go to the server while the next batch is handled (Mailroom.delivery: smtp.concurrency at a time,
 * each marked sent once the server took it), and the batch is moved out of the inbox in one command per
 * folder. What else is due goes out at the end. Each step is on
 * disk before the next that depends on it, so a run cut short anywhere, even by a power cut, ends, when run
 * again, exactly where an uninterrupted run would: a message already done is only moved, one decided but not
 * done is carried out from its recorded decision, never judged again, and an answer is sent only once the
 * ledger says its message is done (docs/mail.md, "Exactly once").
 *
 * A message that cannot be handled (unparseable, or anything unexpected) is quarantined with a GM alert and
 * the run goes on. Only trouble with the mailbox itself (unreachable, bad password) stops the run, leaving
 * the remaining messages for the next one.
 */
import { initialState } from '../campaign/initial-state.js';
import { ordersDir } from '../orders/pending.js';
import { nationsWithOrderFiles } from '../campaign/order-folder.js';
import { latestTurn, readState } from '../campaign/store.js';
import type { NationId } from '../core/ids.js';
import type { GameState } from '../core/state.js';
import { isMailError } from '../mail/errors.js';
import type { InboxEntry, ProcessedFolder } from '../mail/types.js';
import { BatchFlush } from './batch-flush.js';
import { composeAnswer } from './compose.js';
import type { Decision, GmNote } from './decide.js';
import { keepHeld } from './held.js';
import { recordBounce, type LedgerEntry } from './ledger.js';
import { emptySendSummary, type SendSummary } from './outbox.js';
import { Mailroom, type RunDelivery } from './room.js';
import { FaultInterrupt, passFault, unwrapFault } from './runtime.js';
import { PlayerSettings } from './player-settings.js';
import { newTokenMail } from './start-mail.js';
import { describeDecision } from './filing.js';
import { SeatIntake } from './seat-intake.js';
import { fileOrders, type Filed } from './file-orders.js';
import type { FetchOptions } from './fetch-options.js';
import { countDecision, emptyFetchSummary, type FetchSummary } from './fetch-summary.js';
import { checkUidValidity, identify, type Listed } from './inbox-identity.js';
import { judgeMessage, judgeTooLarge, type JudgeScene } from './judge.js';
import { commandFacts, resendReport, type CommandScene } from './command-answers.js';

/** Reads new mail, files accepted orders, answers each message and sends the answers. */
export async function fetchMail(campaignDir: string, opts: FetchOptions = {}): Promise<FetchSummary> {
  try {
    return await Mailroom.run(campaignDir, opts, (room) => new FetchRun(room, opts).run());
  } catch (error) {
    throw unwrapFault(error);
  }
}

class FetchRun {
  private summary: FetchSummary;
  private state!: GameState;
  private pendingTurn = 1;
  private ordersOnFile = new Set<string>();
  private startedAt = '';
  private moving: Promise<{ error: unknown } | undefined> | undefined;
  /** The batch being handled: messages carried out and not yet recorded done, and messages only to be moved. */
  private batch: { record?: LedgerEntry; transportId: string; folder: ProcessedFolder }[] = [];
  /** The batch's files written without their fsync. */
  private readonly flush = new BatchFlush();
  /** Keys of the messages handled so far in this run (a later copy of one is looked up again). */
  private readonly seen = new Set<string>();
  private readonly batchSize: number;
  /** The run's sending, begun with the first message (undefined with `send: false`). */
  private delivery: RunDelivery | undefined;
  /** Players' settings by mail (time zone, "wait"), and deadlines on their clocks. */
  private readonly settings: PlayerSettings;

  constructor(
    private readonly room: Mailroom,
    private readonly opts: FetchOptions,
  ) {
    this.settings = new PlayerSettings(room, opts);
    this.summary = emptyFetchSummary();
    this.batchSize = Math.max(1, opts.batch ?? DEFAULT_BATCH);
  }

  async run(): Promise<FetchSummary> {
    try {
      return await this.steps();
    } catch (error) {
      await this.moving; // never leave a move or a send running behind a failed run
      await this.delivery?.abandon();
      throw error;
    }
  }

  private async steps(): Promise<FetchSummary> {
    const room = this.room;
    this.startedAt = room.clock.now().toISOString();
    this.summary.transport = room.transport.describe;
    const latest = await latestTurn(room.dir);
    this.state = latest === undefined ? initialState(room.open.file) : await readState(room.dir, latest, room.open.campaign);
    this.pendingTurn = this.state.turn + 1;
    this.ordersOnFile = await nationsWithOrders(room.dir, this.pendingTurn, (id) => room.open.campaign.nations[id as NationId] !== undefined);

    let entries: InboxEntry[];
    try {
      entries = await room.transport.inbox.list();
    } catch (error) {
      if (!isMailError(error)) throw error;
      this.summary.error = `reading the inbox failed: ${error.message}`;
      this.summary.sent = await this.send();
      return this.summary;
    }
    this.summary.listed = entries.length;
    const renumbered = await checkUidValidity(this.room);
    if (renumbered) this.summary.uidValidityChanged = renumbered;
    await passFault(this.opts.faults, 'after-list', `${entries.length} messages`);

    if (this.opts.send !== false) this.delivery = room.delivery();
    const listed: Listed[] = [];
    for (const entry of entries) listed.push(await identify(this.room, entry).catch((error: unknown) => ({ entry, key: '', damaged: (error as Error).message })));
    // A message a killed run decided goes first, so nothing decided after it can be overtaken by it.
    const ordered = [...listed.filter((l) => l.existing?.status === 'decided'), ...listed.filter((l) => l.existing?.status !== 'decided')];
    for (const listedItem of ordered) {
      this.delivery?.check(); // a send that failed unexpectedly stops the run, as it did when sending came last
      try {
        if (this.batch.length >= this.batchSize) await this.commitBatch();
        // Looked up again when an earlier message of this run had its key (a second delivery), even one a killed
        // run had decided: once that one is recorded done, the second copy is only moved, as in an uninterrupted run.
        if (this.seen.has(listedItem.key) && this.batch.some((b) => b.record?.key === listedItem.key)) await this.commitBatch();
        const item = listedItem.damaged !== undefined || !this.seen.has(listedItem.key) ? listedItem : await identify(this.room, listedItem.entry);
        if (item.damaged !== undefined) {
          // Its ledger entry cannot be read: handling it again might do it twice. It waits for the GM.
          this.summary.skipped.push({ id: item.entry.id, reason: item.damaged });
          await this.room.alert({ key: `ledger-damaged:${item.entry.id}:${item.damaged}`, subject: 'a damaged mail ledger entry', text: `The message ${item.entry.id} was left in the inbox: ${item.damaged}\nRestore or delete that ledger file, then run fatecraft mail fetch again.` });
          continue;
        }
        this.seen.add(item.key);
        await this.handle(item);
      } catch (error) {
        if (error instanceof FaultInterrupt) throw error;
        if (isMailError(error) || isEnvironmentError(error)) {
          this.summary.error = `stopped at ${listedItem.entry.id}: ${(error as Error).message}`;
          break;
        }
        throw error;
      }
    }
    try {
      await this.commitBatch();
      await this.flush.flush();
      await this.room.ledger.settleDone();
      await this.settleMove();
    } catch (error) {
      if (!isMailError(error) && !isEnvironmentError(error)) throw error;
      this.summary.error ??= `finishing the last messages failed: ${(error as Error).message}`;
    }
    this.summary.sent = await this.send();
    return this.summary;
  }

  private async send(): Promise<SendSummary> {
    if (this.opts.send === false) return emptySendSummary();
    return (this.delivery ?? this.room.delivery()).finish();
  }

  /** The campaign as this run sees it, for judging a message and answering commands. */
  private scene(): JudgeScene & CommandScene {
    return { room: this.room, opts: this.opts, state: this.state, pendingTurn: this.pendingTurn, ordersOnFile: this.ordersOnFile, settings: this.settings };
  }

  private async handle(item: Listed): Promise<void> {
    const { entry, existing } = item;
    if (existing !== undefined && existing.status !== 'retry') {
      if (existing.status === 'decided' && existing.decision !== undefined) {
        this.summary.resumed += 1;
        this.room.log(`${entry.id}: finishing what a stopped run decided (${existing.outcome ?? existing.decision.kind})`);
        const raw = entry.tooLarge ? undefined : entry.raw;
        await this.carryOut(existing, existing.decision, raw);
        await this.finish(existing, entry.id);
        return;
      }
      // Handled before: a second delivery, or a run killed before the move. Only move it.
      this.summary.alreadyHandled += 1;
      if (!existing.transportIds.includes(entry.id)) {
        existing.transportIds = [...existing.transportIds, entry.id].slice(-20);
        existing.duplicates = (existing.duplicates ?? 0) + 1;
        await this.room.ledger.put(existing);
      }
      this.room.log(`${entry.id}: already handled (${existing.outcome ?? existing.status})`);
      this.batch.push({ transportId: entry.id, folder: existing.folder ?? (existing.status === 'quarantined' ? 'Quarantine' : 'Processed') });
      return;
    }

    this.summary.handled += 1;
    const now = new Date(this.startedAt);
    // No message arrives after now (a test clock); one without a server's time (the folder transport) arrives now, when first seen.
    const receivedAt = entry.receivedAt !== undefined && Date.parse(entry.receivedAt) <= now.getTime() ? entry.receivedAt : now.toISOString();
    const record: LedgerEntry = {
      key: item.key,
      ...(item.digest ? { digest: item.digest } : {}),
      status: 'decided',
      transportIds: existing ? [...new Set([...existing.transportIds, entry.id])] : [entry.id],
      inbound: entry.tooLarge ? { ...(entry.from ? { from: entry.from.toLowerCase() } : {}), ...(entry.subject ? { subject: entry.subject } : {}) } : {},
      receivedAt,
      size: entry.size,
      decidedAt: now.toISOString(),
      ...(existing?.history || existing?.outcome ? { history: [...(existing.history ?? []), { at: existing.doneAt ?? existing.decidedAt ?? receivedAt, outcome: existing.outcome ?? existing.status }] } : {}),
    };

    let decision: Decision;
    try {
      decision = entry.tooLarge ? judgeTooLarge(this.room, entry, now) : await judgeMessage(this.scene(), entry.raw, record, now);
    } catch (error) {
      if (error instanceof FaultInterrupt) throw error;
      await this.quarantine(record, entry.id, error);
      return;
    }
    record.decision = decision;
    record.outcome = describeDecision(decision);

    try {
      if (decision.kind === 'ignore' && decision.gm === undefined) {
        // Nothing to carry out: recorded done at once (its flood counts on disk before the next message is judged).
        await this.finish(record, entry.id, { now: true });
        return;
      }
      await this.room.ledger.put(record);
      await passFault(this.opts.faults, 'after-decide', entry.id);
      await this.carryOut(record, decision, entry.tooLarge ? undefined : entry.raw);
      await this.finish(record, entry.id);
    } catch (error) {
      if (error instanceof FaultInterrupt || isMailError(error) || isEnvironmentError(error)) throw error;
      await this.quarantine(record, entry.id, error);
    }
  }

  /** Does what the decision says. Every step is safe to repeat: a rerun after a crash does it again. */
  private async carryOut(record: LedgerEntry, decision: Decision, raw: Buffer | undefined): Promise<void> {
    this.room.batchFlush = this.flush;
    try {
      await this.carryOutNow(record, decision, raw);
    } finally {
      this.room.batchFlush = undefined;
    }
  }

  private async carryOutNow(record: LedgerEntry, decision: Decision, raw: Buffer | undefined): Promise<void> {
    const room = this.room;
    const queued: string[] = [...(record.queued ?? [])];
    // The answers are counted for the flood limits from the ledger entry itself (SenderStats.absorb).
    const queue = (id: string) => {
      if (!queued.includes(id)) queued.push(id);
    };

    let filed: Filed | undefined;
    if (decision.kind === 'file') {
      // The latest resolved turn as this run found it (a killed run's decision may be for a turn resolved since).
      const latest = this.state.turn;
      if (decision.turn <= latest) {
        // The turn was resolved between the decision and now (only after a crash): too late to file.
        record.outcome = `${describeDecision(decision)} — not filed: turn ${decision.turn} was resolved in the meantime`;
        await passFault(this.opts.faults, 'after-file', record.key);
      } else {
        const filing = { nation: decision.nation, turn: decision.turn, ordersYaml: decision.ordersYaml, receipt: decision.receipt, ...(raw !== undefined ? { raw } : {}) };
        filed = await fileOrders(room, filing, { state: () => Promise.resolve(this.state), queue, afterFile: () => passFault(this.opts.faults, 'after-file', record.key), flush: this.flush });
        if (decision.turn === this.pendingTurn) this.ordersOnFile.add(decision.nation);
        this.summary.filed.push({ nation: decision.nation, turn: decision.turn, key: record.key });
        room.log(`filed the orders of ${decision.nation} for turn ${decision.turn} (${record.inbound.from ?? '?'})`);
      }
    }
    if (decision.kind === 'hold' && raw !== undefined) await keepHeld(room.mailDir, record.key, raw);
    if (decision.kind === 'bounce') {
      const book = room.addressBook();
      await recordBounce(room.mailDir, record.key, record.receivedAt, decision.facts, (address) => Object.keys(book).filter((n) => book[n]!.includes(address)));
    }

    const seats = new SeatIntake(room, this.opts.seats, (nation) => this.settings.deadlineFor(nation), this.pendingTurn);
    if (decision.kind === 'seat' && decision.action === 'accept') {
      const why = await seats.take(record, decision, queue);
      if (why !== undefined) record.outcome = `${describeDecision(decision)} — not taken: ${why}`;
    }
    if ((decision.kind === 'file' || decision.kind === 'hold' || decision.kind === 'refuse' || decision.kind === 'command' || (decision.kind === 'seat' && decision.action === 'volunteer')) && decision.replyTo !== undefined) {
      const command = decision.kind === 'command' ? commandFacts(this.scene(), decision.nation, decision.commands) : decision.kind === 'seat' ? await seats.volunteer(record, decision, queue) : undefined;
      if (decision.kind === 'command' && command) await seats.commands(record, decision, command, queue);
      if (decision.kind === 'command' && command) await this.settings.apply(decision, command, record.key, this.pendingTurn, queue);
      if (decision.kind === 'command' && decision.absence && command) {
        const { fromTurn, toTurn } = decision.absence;
        if (this.opts.declareAbsence) await this.opts.declareAbsence(decision.nation, fromTurn, toTurn, `declared by mail from ${decision.replyTo}`);
        else queue(await room.alert({ key: `absence:${record.key}`, subject: `${decision.nation} will be away`, text: `${decision.nation} wrote from ${decision.replyTo} that they will be away for turns ${fromTurn}–${toTurn}. The schedule is not running this fetch; record it with the schedule if you use one.` }));
        command.absence = { fromTurn, toTurn, recorded: this.opts.declareAbsence !== undefined };
      }
      const deadline = decision.kind === 'file' ? this.settings.deadlineFor(decision.nation) : undefined;
      const answered = filed && decision.kind === 'file' ? { ...decision, receipt: filed.receipt } : decision;
      const tokenNation = decision.kind === 'refuse' && decision.detail === 'replaced order token' ? decision.nation : undefined;
      const newToken = tokenNation ? await newTokenMail(room, tokenNation) : undefined;
      const tokenMail = newToken && tokenNation ? { newToken: { subject: newToken.subject, sent: this.settings.timeFor(tokenNation, newToken.at) } } : {};
      const answer = composeAnswer({ ...room.base(), key: record.key, inbound: record.inbound, decision: answered, to: decision.replyTo, ...(command ? { command } : {}), ...(deadline ? { deadline } : {}), ...(filed?.relayed ? { relayed: filed.relayed } : {}), ...tokenMail });
      if (answer) {
        await room.enqueue(answer.message, answer.kind, `${decision.kind === 'file' ? 'receipt' : 'answer'} for ${'nation' in decision ? (decision.nation ?? decision.replyTo) : decision.replyTo}`);
        queue(answer.message.messageId);
      }
      if (decision.kind === 'command' && decision.commands.includes('resend') && command?.resentTurn !== undefined) {
        const report = await resendReport(this.scene(), decision.nation, command.resentTurn, record, decision.replyTo);
        if (report !== undefined) queue(report);
      }
    }
    const note: GmNote | undefined = decision.gm ?? (decision.kind === 'quarantine' ? { key: `quarantine:${record.key}`, subject: `a message was quarantined`, text: decision.detail } : undefined);
    if (note) queue(await room.alert(note));
    record.queued = queued;
    await passFault(this.opts.faults, 'after-enqueue', record.key);
  }

  /** Marks the message done: recorded with its batch (commitBatch), or at once, then moved out of the inbox with its batch. */
  private async finish(record: LedgerEntry, transportId: string, opts: { now?: boolean } = {}): Promise<void> {
    const decision = record.decision;
    record.status = 'done';
    record.doneAt = this.room.clock.now().toISOString();
    record.folder = decision?.kind === 'quarantine' || (decision?.kind === 'refuse' && decision.reason === 'too-large') ? 'Quarantine' : 'Processed';
    if (decision?.kind === 'quarantine') record.status = 'quarantined';
    if (opts.now === true) {
      await this.room.ledger.put(record);
      await passFault(this.opts.faults, 'after-done', record.key);
    }
    this.summary = countDecision(this.summary, decision);
    this.summary.outcomes.push({ key: record.key, outcome: record.outcome ?? '' });
    this.room.log(`${transportId}: ${record.outcome}`);
    this.batch.push({ ...(opts.now === true ? {} : { record }), transportId, folder: record.folder });
  }

  /**
   * The batch's group commit: its files flushed together, then its messages recorded done together (one
   * flushed journal, Ledger.putDone: none is done on disk without the others), its answers handed to the
   * server, and the batch moved out of the inbox while the next batch is handled.
   */
  private async commitBatch(): Promise<void> {
    const batch = this.batch;
    this.batch = [];
    if (batch.length === 0) return;
    // The batch's files, and the last batch's done marks in their own files: then its journal can go.
    await this.flush.flush();
    await this.room.ledger.settleDone();
    const done = batch.flatMap((b) => (b.record !== undefined ? [b.record] : []));
    if (done.length > 0) await this.room.ledger.putDone(done, this.flush);
    for (const record of done) await passFault(this.opts.faults, 'after-done', record.key);
    // Done on disk: their answers may leave now.
    await this.delivery?.give(batch.flatMap((b) => b.record?.queued ?? []));
    // The moves run while the next batch is handled: one batch at a time.
    await this.settleMove();
    this.moving = this.moveAll(batch)
      .then(() => passFault(this.opts.faults, 'after-move', `${batch.length} messages`))
      .then(
        () => undefined,
        (error: unknown) => ({ error }),
      );
  }

  /** Waits for the moves in flight; their failure is thrown here. */
  private async settleMove(): Promise<void> {
    const result = await this.moving;
    this.moving = undefined;
    if (result !== undefined) throw result.error;
  }

  private async quarantine(record: LedgerEntry, transportId: string, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    const decision: Decision = { kind: 'quarantine', reason: 'unexpected error', detail: `The message ${record.inbound.messageId ?? transportId} from ${record.inbound.from ?? 'an unknown sender'} could not be handled: ${message}\nIt is in the quarantine folder. To try again after fixing the cause: fatecraft mail reprocess <campaign>.` };
    record.decision = decision;
    record.error = message;
    record.outcome = `quarantined: ${message}`;
    await this.room.ledger.put(record);
    await this.carryOut(record, decision, undefined);
    await this.finish(record, transportId);
  }

  /** Moves a batch out of the inbox: one command per folder (those already gone are passed over). */
  private async moveAll(batch: readonly { transportId: string; folder: ProcessedFolder }[]): Promise<void> {
    for (const folder of ['Processed', 'Quarantine'] as const) {
      const ids = batch.filter((b) => b.folder === folder).map((b) => b.transportId);
      if (ids.length > 0) await this.room.transport.inbox.markAllProcessed(ids, folder);
    }
  }
}

/** Messages per batch by default: their files flushed together, their answers and their move given together. */
export const DEFAULT_BATCH = 32;

/** A failure of the machine (disk full, permissions), not of one message: it would hit every message. */
function isEnvironmentError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && ['ENOSPC', 'EACCES', 'EROFS', 'EDQUOT', 'EMFILE', 'ENFILE', 'EIO'].includes(code);
}

async function nationsWithOrders(dir: string, turn: number, isNation: (id: string) => boolean): Promise<Set<string>> {
  return new Set(await nationsWithOrderFiles(ordersDir(dir, turn), isNation));
}
