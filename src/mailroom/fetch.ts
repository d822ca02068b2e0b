/**
 * `fatecraft mail fetch`: the inbound executor. For each message in the inbox, in order:
 *
 *   key       Message-ID (or a digest of the body) → the ledger entry, if the message was seen before
 *   decide    parse, authenticate and judge it (decide.ts); record the decision in the ledger
 *   carry out file the orders (and the raw mail beside them), queue the answer, alert the GM
 *   done      record it done in the ledger
 *   move      move the message to Processed (or Quarantine)
 *
 * then send the queued answers. Each step is recorded before the next begins, so a run cut short anywhere
 * ends, when run again, exactly where an uninterrupted run would: a message already done is only moved, one
 * decided but not done is carried out from its recorded decision, never judged again.
 *
 * A message that cannot be handled (unparseable, or anything unexpected) is quarantined with a GM alert and
 * the run goes on. Only trouble with the mailbox itself (unreachable, bad password) stops the run, leaving
 * the remaining messages for the next one.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import jsyaml from 'js-yaml';
import writeFileAtomic from 'write-file-atomic';
import { initialState } from '../campaign/initial-state.js';
import { ordersDir } from '../orders/pending.js';
import { nationsWithOrderFiles } from '../campaign/order-folder.js';
import { readRegularFile } from '../campaign/regular-file.js';
import { latestTurn, readState, turnDirName } from '../campaign/store.js';
import { writeYaml } from '../campaign/yaml-io.js';
import { asNationId, type NationId } from '../core/ids.js';
import type { GameState } from '../core/state.js';
import { MailErrorCode, isMailError } from '../mail/errors.js';
import { parseInbound } from '../mail/parse.js';
import type { InboxEntry, ProcessedFolder } from '../mail/types.js';
import { buildReceipt } from '../orders/receipt.js';
import { readYamlSheet } from '../orders/yaml-sheet.js';
import { composeAnswer, composeReport, type CommandFacts } from './compose.js';
import { senderDomain } from './config.js';
import type { DNSResolver } from 'mailauth';
import { decideInbound, decideTooLarge, type Decision, type GmNote } from './decide.js';
import { verifyMessage } from './verify.js';
import { htmlOnlyText } from './html-text.js';
import { authResults, bodyDigest, firstHeader, messageIdOf, readRawHeaders, sha256 } from './headers.js';
import { keepHeld } from './held.js';
import { recordBounce, type LedgerEntry } from './ledger.js';
import { emptySendSummary, type SendSummary } from './outbox.js';
import { readReportFiles } from './reports.js';
import { Mailroom, type MailroomOptions } from './room.js';
import { FaultInterrupt, passFault, unwrapFault } from './runtime.js';
import type { DeadlineClock } from '../schedule/player-time.js';
import type { PlayerPreference } from '../schedule/preferences.js';
import { PlayerSettings } from './player-settings.js';
import { newTokenMail } from './start-mail.js';
import { describeDecision } from './filing.js';
import type { SeatDesk } from '../schedule/seats/desk.js';
import { offerDigests } from './seat-mail.js';
import { SeatIntake } from './seat-intake.js';
import { fileOrders, type Filed } from './file-orders.js';

export interface FetchOptions extends MailroomOptions {
  /** Whether orders for `turn` arriving at `receivedAt` still count (the schedule's deadline and grace). Default: always. */
  acceptsOrders?: (turn: number, receivedAt: Date) => boolean;
  /** The pending turn's deadline as players should read it, for the "deadline" command. */
  deadline?: string;
  /** Send the queued answers at the end (default true). */
  send?: boolean;
  /** SHA-256 digests of each nation's replaced tokens (runtime.yaml retiredTokens). */
  retiredTokens?: Readonly<Record<string, readonly string[]>>;
  /** Records a player's absence in the schedule (the tick passes its own); without it the GM is told. */
  declareAbsence?: (nation: NationId, fromTurn: number, toTurn: number, note?: string) => Promise<void>;
  /** The pending turn's deadline and the players' own time zones: deadlines in answers are shown on both clocks. */
  deadlineClock?: DeadlineClock;
  /** Records a player's setting by mail (time zone, "wait") where the schedule keeps it; without it the GM is told. */
  recordPreference?: (nation: NationId, pref: PlayerPreference, note?: string) => Promise<void>;
  /** DNS for our own DKIM/SPF/DMARC checks (mail.verifyAuthentication); tests give a fixed one. */
  resolver?: DNSResolver;
  /** Seats by mail (volunteer, accept, back, ready) on runtime.yaml (the tick passes its own); without it the GM is told. */
  seats?: SeatDesk;
}

export interface FetchSummary {
  transport: string;
  /** Messages in the inbox when it was read. */
  listed: number;
  /** Messages judged for the first time by this run. */
  handled: number;
  filed: { nation: string; turn: number; key: string }[];
  refused: number;
  ignored: number;
  commands: number;
  bounces: number;
  quarantined: number;
  /** Orders held for the GM (DMARC failed): filed by fatecraft mail accept. */
  held: number;
  /** Messages seen before (a second delivery, or one a killed run had finished): only moved away. */
  alreadyHandled: number;
  /** Messages a killed run had decided but not finished: finished now. */
  resumed: number;
  /** Messages left in the inbox because their ledger entry is damaged (the GM is alerted). */
  skipped: { id: string; reason: string }[];
  /** One line per message: what happened to it. */
  outcomes: { key: string; outcome: string }[];
  uidValidityChanged?: { from: string; to: string };
  sent: SendSummary;
  /** Why the run stopped before the end (the mailbox could not be read or written). */
  error?: string;
}

/** Reads new mail, files accepted orders, answers each message and sends the answers. */
export async function fetchMail(campaignDir: string, opts: FetchOptions = {}): Promise<FetchSummary> {
  try {
    return await Mailroom.run(campaignDir, opts, (room) => new FetchRun(room, opts).run());
  } catch (error) {
    throw unwrapFault(error);
  }
}

interface Listed {
  entry: InboxEntry;
  key: string;
  digest?: string;
  existing?: LedgerEntry;
  /** Why its ledger entry could not be read. */
  damaged?: string;
}

class FetchRun {
  private readonly summary: FetchSummary;
  private state!: GameState;
  private pendingTurn = 1;
  private ordersOnFile = new Set<string>();
  private startedAt = '';
  private moving: Promise<{ error: unknown } | undefined> | undefined;
  /** Players' settings by mail (time zone, "wait"), and deadlines on their clocks. */
  private readonly settings: PlayerSettings;

  constructor(
    private readonly room: Mailroom,
    private readonly opts: FetchOptions,
  ) {
    this.settings = new PlayerSettings(room, opts);
    this.summary = { transport: '', listed: 0, handled: 0, filed: [], refused: 0, ignored: 0, commands: 0, bounces: 0, quarantined: 0, held: 0, alreadyHandled: 0, resumed: 0, skipped: [], outcomes: [], sent: emptySendSummary() };
  }

  async run(): Promise<FetchSummary> {
    try {
      return await this.steps();
    } catch (error) {
      await this.moving; // never leave a move running behind a failed run
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
    await this.checkUidValidity();
    await passFault(this.opts.faults, 'after-list', `${entries.length} messages`);

    const listed: Listed[] = [];
    for (const entry of entries) listed.push(await this.identify(entry).catch((error: unknown) => ({ entry, key: '', damaged: (error as Error).message })));
    // A message a killed run decided goes first, so nothing decided after it can be overtaken by it.
    const ordered = [...listed.filter((l) => l.existing?.status === 'decided'), ...listed.filter((l) => l.existing?.status !== 'decided')];
    for (const listedItem of ordered) {
      try {
        // Looked up again: an earlier message of this run may have been the same one (a second delivery), even
        // one a killed run had decided: the second copy is then only moved, as in an uninterrupted run.
        const item = listedItem.damaged !== undefined ? listedItem : await this.identify(listedItem.entry);
        if (item.damaged !== undefined) {
          // Its ledger entry cannot be read: handling it again might do it twice. It waits for the GM.
          this.summary.skipped.push({ id: item.entry.id, reason: item.damaged });
          await this.room.alert({ key: `ledger-damaged:${item.entry.id}:${item.damaged}`, subject: 'a damaged mail ledger entry', text: `The message ${item.entry.id} was left in the inbox: ${item.damaged}\nRestore or delete that ledger file, then run fatecraft mail fetch again.` });
          continue;
        }
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
      await this.settleMove();
    } catch (error) {
      if (!isMailError(error)) throw error;
      this.summary.error = `moving the last message failed: ${error.message}`;
    }
    this.summary.sent = await this.send();
    return this.summary;
  }

  private async send(): Promise<SendSummary> {
    if (this.opts.send === false) return emptySendSummary();
    return this.room.deliver();
  }

  private async checkUidValidity(): Promise<void> {
    const now = this.room.transport.uidValidity();
    if (now === undefined) return;
    const file = join(this.room.mailDir, 'imap-state.yaml');
    const before = existsSync(file) ? ((jsyaml.load(await readFile(file, 'utf8'), { schema: jsyaml.CORE_SCHEMA }) as { uidValidity?: string } | null)?.uidValidity ?? undefined) : undefined;
    if (before === now) return;
    if (before !== undefined) {
      this.summary.uidValidityChanged = { from: before, to: now };
      await this.room.alert({
        key: `uidvalidity:${before}:${now}`,
        subject: `the mailbox was renumbered (UIDVALIDITY ${before} → ${now})`,
        text: `The IMAP server renumbered the campaign's mailbox (UIDVALIDITY changed from ${before} to ${now}). Messages are recognised by their Message-ID, so none is handled twice; this is for your information.`,
      });
    }
    await mkdir(this.room.mailDir, { recursive: true });
    await writeFileAtomic(file, writeYaml({ uidValidity: now }), { fsync: true });
  }

  /** The message's ledger key, and its entry if it was seen before. */
  private async identify(entry: InboxEntry): Promise<Listed> {
    if (entry.tooLarge) {
      if (entry.from === undefined && this.room.transport.peekHeaders) Object.assign(entry, await this.room.transport.peekHeaders(entry.id));
      const key = `big:${sha256([entry.from ?? '', entry.subject ?? '', entry.size, entry.receivedAt ?? entry.id].join('|'))}`;
      const existing = await this.room.ledger.get(key);
      return { entry, key, ...(existing ? { existing } : {}) };
    }
    const headers = readRawHeaders(entry.raw);
    const digest = bodyDigest(entry.raw, headers);
    const id = messageIdOf(firstHeader(headers, 'message-id'));
    let key = id !== undefined ? `mid:${id.toLowerCase()}` : `raw:${digest}`;
    let existing = await this.room.ledger.get(key);
    if (existing && id !== undefined && existing.digest !== undefined && existing.digest !== digest) {
      // Another message reusing a Message-ID: its own entry.
      key = `${key}#${digest.slice(0, 16)}`;
      existing = await this.room.ledger.get(key);
    }
    return { entry, key, digest, ...(existing ? { existing } : {}) };
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
      await this.settleMove();
      await this.move(entry.id, existing.folder ?? (existing.status === 'quarantined' ? 'Quarantine' : 'Processed'));
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
      decision = entry.tooLarge ? this.decideTooLarge(entry, now) : await this.decide(entry.raw, record, now);
    } catch (error) {
      if (error instanceof FaultInterrupt) throw error;
      await this.quarantine(record, entry.id, error);
      return;
    }
    record.decision = decision;
    record.outcome = describeDecision(decision);

    try {
      if (decision.kind === 'ignore' && decision.gm === undefined) {
        // Nothing to carry out: recorded done at once.
        await this.finish(record, entry.id);
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

  private decideTooLarge(entry: Extract<InboxEntry, { tooLarge: true }>, now: Date): Decision {
    const from = entry.from?.toLowerCase();
    const ctx = {
      addresses: this.room.addressBook(),
      recentRepliesTo: from ? this.room.senders.recentReplies(from, now) : 0,
      limits: this.room.settings.flood,
      ownAddresses: this.room.ownAddresses(),
    };
    return decideTooLarge({ ...(from ? { from } : {}), ...(entry.subject ? { subject: entry.subject } : {}), size: entry.size }, ctx, this.room.settings.maxMessageBytes);
  }

  private async decide(raw: Buffer, record: LedgerEntry, now: Date): Promise<Decision> {
    const room = this.room;
    const headers = readRawHeaders(raw);
    const parsed = await parseInbound(raw);
    // HTML-only mail: mailparser's conversion wraps long lines; convert it again without wrapping.
    const html = await htmlOnlyText(raw);
    if (html !== undefined) {
      parsed.text = html;
      parsed.textFromHtml = true;
    }
    const from = parsed.from?.address.toLowerCase();
    record.inbound = {
      ...(parsed.messageId ? { messageId: parsed.messageId } : {}),
      ...(from ? { from } : {}),
      subject: parsed.subject,
      ...(parsed.inReplyTo ? { inReplyTo: parsed.inReplyTo } : {}),
      ...(parsed.references.length ? { references: parsed.references } : {}),
    };
    const auth = room.settings.verifyAuthentication
      ? await verifyMessage(raw, this.opts.resolver ? { resolver: this.opts.resolver } : {})
      : authResults(headers, room.settings.authServId);
    if (auth) record.auth = auth;
    const receivedAt = new Date(record.receivedAt);
    return decideInbound(parsed, {
      campaign: room.open.campaign,
      addresses: room.addressBook(),
      state: this.state,
      tokens: room.secrets,
      ...(this.opts.retiredTokens ? { retiredTokens: this.opts.retiredTokens } : {}),
      ownAddresses: room.ownAddresses(),
      ownDomain: senderDomain(room.settings),
      ordersOnFile: this.ordersOnFile,
      late: !(this.opts.acceptsOrders?.(this.pendingTurn, receivedAt) ?? true),
      recentFromSender: from ? room.senders.recentMessages(from, receivedAt, record.key) : 0,
      recentFiledFromSender: from ? room.senders.recentFiled(from, receivedAt, record.key) : 0,
      recentRepliesTo: from ? room.senders.recentReplies(from, now) : 0,
      limits: room.settings.flood,
      headers,
      ...(auth ? { auth } : {}),
      day: now.toISOString().slice(0, 10),
      receivedAt: record.receivedAt,
      ...(parsed.messageId ? { messageId: parsed.messageId } : {}),
      ledgerKey: record.key,
      campaignDir: room.dir,
      ...(this.opts.seats ? { offers: offerDigests(room, this.opts.seats.openOffers()) } : {}),
    });
  }

  /** Does what the decision says. Every step is safe to repeat: a rerun after a crash does it again. */
  private async carryOut(record: LedgerEntry, decision: Decision, raw: Buffer | undefined): Promise<void> {
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
        filed = await fileOrders(room, filing, { state: () => Promise.resolve(this.state), queue, afterFile: () => passFault(this.opts.faults, 'after-file', record.key) });
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
      const command = decision.kind === 'command' ? await this.commandFacts(decision.nation, decision.commands) : decision.kind === 'seat' ? await seats.volunteer(record, decision, queue) : undefined;
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
        const report = await this.resendReport(decision.nation, command.resentTurn, record, decision.replyTo);
        if (report !== undefined) queue(report);
      }
    }
    const note: GmNote | undefined = decision.gm ?? (decision.kind === 'quarantine' ? { key: `quarantine:${record.key}`, subject: `a message was quarantined`, text: decision.detail } : undefined);
    if (note) queue(await room.alert(note));
    record.queued = queued;
    await passFault(this.opts.faults, 'after-enqueue', record.key);
  }

  private async commandFacts(nation: string, commands: readonly string[]): Promise<CommandFacts> {
    const room = this.room;
    const deadline = this.settings.deadlineFor(nation);
    const facts: CommandFacts = { pendingTurn: this.pendingTurn, ...(deadline ? { deadline } : {}) };
    if (commands.includes('show')) {
      const file = join(ordersDir(room.dir, this.pendingTurn), `${nation}.yaml`);
      const read = existsSync(file) ? await readRegularFile(file) : undefined;
      if (read?.ok) {
        const sheet = readYamlSheet(read.bytes);
        // Orders filed from a mail keep its line numbers (yaml-write.ts).
        facts.ordersOnFile = buildReceipt({ campaign: room.open.campaign, state: this.state, sheet, nation: asNationId(nation), linesOf: 'the message that brought them' }).receipt;
      }
    }
    if (commands.includes('resend') && this.state.turn >= 1 && existsSync(join(room.dir, 'turns', turnDirName(this.state.turn), 'reports', `${nation}.txt`))) {
      facts.resentTurn = this.state.turn;
    }
    return facts;
  }

  /** Queues the report again; its Message-ID, or undefined when the turn has no report for the nation. */
  private async resendReport(nation: string, turn: number, record: LedgerEntry, to: string): Promise<string | undefined> {
    const room = this.room;
    const files = await readReportFiles(room.dir, turn, nation);
    if (files === undefined) return undefined;
    const token = room.secrets.token(nation);
    const message = composeReport({
      ...room.base(),
      nation,
      nationName: room.open.campaign.nations[asNationId(nation)]?.name ?? nation,
      turn,
      rerun: 0,
      to: [to],
      files,
      ...(token ? { token } : {}),
      ...(this.settings.deadlineFor(nation) ? { deadline: this.settings.deadlineFor(nation)! } : {}),
      resendKey: record.key,
      inbound: record.inbound,
    });
    await room.enqueue(message, 'report', `report of turn ${turn} for ${nation} (resent)`);
    return message.messageId;
  }

  /** Records the message done, then moves it out of the inbox. */
  private async finish(record: LedgerEntry, transportId: string): Promise<void> {
    const decision = record.decision;
    record.status = 'done';
    record.doneAt = this.room.clock.now().toISOString();
    record.folder = decision?.kind === 'quarantine' || (decision?.kind === 'refuse' && decision.reason === 'too-large') ? 'Quarantine' : 'Processed';
    if (decision?.kind === 'quarantine') record.status = 'quarantined';
    await this.room.ledger.put(record);
    await passFault(this.opts.faults, 'after-done', record.key);
    this.count(decision);
    this.summary.outcomes.push({ key: record.key, outcome: record.outcome ?? '' });
    this.room.log(`${transportId}: ${record.outcome}`);
    // The move runs while the next message is handled (its ledger entry is already done): one at a time.
    await this.settleMove();
    const folder = record.folder;
    this.moving = this.move(transportId, folder)
      .then(() => passFault(this.opts.faults, 'after-move', record.key))
      .then(
        () => undefined,
        (error: unknown) => ({ error }),
      );
  }

  /** Waits for the move in flight; its failure is thrown here. */
  private async settleMove(): Promise<void> {
    const result = await this.moving;
    this.moving = undefined;
    if (result !== undefined) throw result.error;
  }

  private count(decision: Decision | undefined): void {
    switch (decision?.kind) {
      case 'refuse':
        this.summary.refused += 1;
        break;
      case 'ignore':
        this.summary.ignored += 1;
        break;
      case 'command':
        this.summary.commands += 1;
        break;
      case 'bounce':
        this.summary.bounces += 1;
        break;
      case 'quarantine':
        this.summary.quarantined += 1;
        break;
      case 'hold':
        this.summary.held += 1;
        break;
      case 'seat':
        this.summary.commands += 1;
        break;
      default:
        break;
    }
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

  private async move(id: string, folder: ProcessedFolder): Promise<void> {
    try {
      await this.room.transport.inbox.markProcessed(id, folder);
    } catch (error) {
      if (isMailError(error) && error.code === MailErrorCode.ENOTFOUND) return; // already moved
      throw error;
    }
  }
}

/** A failure of the machine (disk full, permissions), not of one message: it would hit every message. */
function isEnvironmentError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && ['ENOSPC', 'EACCES', 'EROFS', 'EDQUOT', 'EMFILE', 'ENFILE', 'EIO'].includes(code);
}

async function nationsWithOrders(dir: string, turn: number, isNation: (id: string) => boolean): Promise<Set<string>> {
  return new Set(await nationsWithOrderFiles(ordersDir(dir, turn), isNation));
}
