import { createHash, timingSafeEqual } from 'node:crypto';
import type { Campaign } from '../core/campaign.js';
import { checkNationOrders } from '../core/checks/index.js';
import { TurnContext } from '../core/context.js';
import { SeededRandomiser } from '../core/dice.js';
import type { NationId, UnitId } from '../core/ids.js';
import type { NationOrders, Order, OrderKind, RefusedLine } from '../core/orders.js';
import { seasonOf } from '../core/phases/upkeep.js';
import { lossText } from '../core/work.js';
import { unitName } from '../core/unit-name.js';
import type { GameState } from '../core/state.js';
import { plainText } from '../text/escape.js';
import { findNation } from './names.js';
import { interpretSheet, WHOLE_FILE, type OrderSheet } from './sheet.js';

/**
 * The receipt a nation gets for its orders, before the deadline: every order
 * as the engine understood it, then every problem with its line. It is built
 * with the engine's own checker (checkNationOrders), against the state the
 * turn will start from, so the receipt and the resolution cannot disagree.
 */
export type TokenStatus = 'ok' | 'missing' | 'wrong' | 'unchecked';
export type TurnStatus = 'pending' | 'assumed' | 'past' | 'future';

export interface ReceiptOrder {
  line?: number;
  /** The order as written. */
  text: string;
  kind: OrderKind;
  /** How the engine understood it, e.g. "Marines 'Iron Guard' (argenta-1) moves 12,7 → 13,7". */
  summary: string;
  /** Moves: the turn the unit stands at its destination. */
  arrivesTurn?: number;
  renown: number;
  fate: number;
  /** Work in progress the order ends, each with what is lost ("Silver mine at 9,4 (20 Renown paid, 1 of 2 turns of work done)"). */
  abandons?: string[];
  /** Parts of the order left out, and why (a supporter that cannot reach the battle). */
  warnings?: string[];
  /** A `press` order's letter, for the mail room to relay at once (rules.press.relay). */
  letter?: { to: NationId[] | 'all'; text: string; anonymous?: true };
}

export interface ReceiptProblem {
  line?: number;
  text: string;
  /** What is wrong. */
  reason: string;
  /** What would be valid instead. */
  valid?: string;
  /** A "did you mean" for a misspelt unit, place or keyword. */
  didYouMean?: string;
}

export interface OrderReceipt {
  campaign: { name: string; title: string };
  nation: NationId;
  nationName: string;
  /** The turn being collected: the latest resolved turn + 1. */
  pendingTurn: number;
  season: string;
  /** The turn the orders say they are for (the pending turn when they do not say). */
  turn: number;
  turnStatus: TurnStatus;
  token: TokenStatus;
  /** A submission for this turn was already on file and this one replaces it whole (never when this one is refused whole). */
  replacesEarlier: boolean;
  /** Arrived after the deadline: kept for the record, not applied. */
  late: boolean;
  /** Set when none of the orders will be applied, with the reason. */
  refusedWhole?: string;
  accepted: ReceiptOrder[];
  problems: ReceiptProblem[];
  /** The nation's default loss order, as unit ids. */
  casualties: UnitId[];
  /** The same, as the units are named ("Marines 'Iron Guard' (argenta-1)"). */
  casualtyNames?: string[];
  renown: { available: number; spent: number; left: number };
  fate: { available: number; pledged: number; left: number };
  /** Every order valid and the whole sheet will be applied: exit code 0. */
  ok: boolean;
  /** What the line numbers count, when the orders came in a mail: "your message" or "the attached orders.yaml". */
  linesOf?: string;
}

export interface ReceiptInput {
  campaign: Campaign;
  /** The latest resolved state: the pending turn starts from it. */
  state: GameState;
  sheet: OrderSheet;
  nation: NationId;
  /** The nation's secret order token, from the caller's secrets; undefined: not checked (GM tools, files on disk). */
  expectedToken?: string;
  replacesEarlier?: boolean;
  late?: boolean;
  /** What the line numbers count (see OrderReceipt.linesOf). */
  linesOf?: string;
}

export interface ReceiptResult {
  receipt: OrderReceipt;
  /** The typed orders, refusals included, exactly as the engine will receive them. */
  orders: NationOrders;
  /** Each order as written (interpretSheet's texts), for the file the orders are kept in. */
  texts: string[];
}

/**
 * Compares a token in constant time: both sides are hashed first, so neither
 * the content nor the length of the expected token leaks through timing.
 */
export function checkToken(given: string | undefined, expected: string | undefined): TokenStatus {
  if (expected === undefined) return 'unchecked';
  if (given === undefined || given.trim() === '') return 'missing';
  const digest = (s: string) => createHash('sha256').update(s.trim(), 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected)) ? 'ok' : 'wrong';
}

/** Only the pending turn is open: earlier turns are resolved, later ones not yet open. */
export function turnStatus(sheetTurn: number | undefined, pendingTurn: number): TurnStatus {
  if (sheetTurn === undefined) return 'assumed';
  if (sheetTurn < pendingTurn) return 'past';
  if (sheetTurn > pendingTurn) return 'future';
  return 'pending';
}

export function buildReceipt(input: ReceiptInput): ReceiptResult {
  const { campaign, state, sheet, nation } = input;
  const pendingTurn = state.turn + 1;
  const nationState = state.nations[nation];
  const base = {
    campaign: { name: campaign.name, title: campaign.title },
    nation,
    nationName: campaign.nations[nation]?.name ?? nation,
    pendingTurn,
    season: seasonText(campaign, pendingTurn),
    turn: sheet.turn ?? pendingTurn,
    turnStatus: turnStatus(sheet.turn, pendingTurn),
    token: checkToken(sheet.token, input.expectedToken),
    replacesEarlier: input.replacesEarlier ?? false,
    late: input.late ?? false,
    ...(input.linesOf ? { linesOf: input.linesOf } : {}),
  };
  const money = { renown: { available: nationState?.renown ?? 0, spent: 0, left: nationState?.renown ?? 0 }, fate: { available: nationState?.fate ?? 0, pledged: 0, left: nationState?.fate ?? 0 } };
  const at = (line: number | undefined) => (line !== undefined ? { line } : {});

  // A wrong or missing token: nothing is read back, so a stranger learns nothing of the nation's units.
  if (base.token === 'wrong' || base.token === 'missing') {
    const reason = base.token === 'missing' ? 'the orders carry no order token' : 'the order token is wrong';
    const problem: ReceiptProblem = { ...at(sheet.headerLines?.token), text: base.token === 'missing' ? '(no Token line)' : 'Token: …', reason, valid: 'add the line "Token: <your token>" with the token from your latest turn report' };
    // Why the whole file could not be read (size, encoding, bad YAML) says nothing of the nation: it is kept.
    const unreadable = sheet.problems.filter((p) => p.text === WHOLE_FILE).map(fromRefused);
    const receipt: OrderReceipt = { ...base, ...money, replacesEarlier: false, refusedWhole: `${reason}; none of these orders were read`, accepted: [], problems: [...unreadable, problem], casualties: [], ok: false };
    return { receipt, orders: { nation, turn: base.turn, orders: [], lines: [], refused: [{ ...at(problem.line), text: problem.text, reason }] }, texts: [] };
  }

  const { orders, texts } = interpretSheet(sheet, nation, campaign, state);
  const ctx = new TurnContext(campaign, state, { nations: {}, gm: [] }, new SeededRandomiser(campaign.seed, pendingTurn));
  const named = (ids: readonly UnitId[]) => ids.map((id) => (state.units[id] ? unitName(campaign, state.units[id]) : id));
  const checked = checkNationOrders(ctx, orders);
  const lineOf = (index: number) => (orders.lines?.[index] || undefined);

  const accepted: ReceiptOrder[] = checked.accepted.map((a) => ({
    ...at(lineOf(a.index)),
    text: texts[a.index] ?? '',
    kind: a.order.kind,
    summary: understood(a.order, a.summary, pendingTurn, named),
    ...(a.order.kind === 'move' ? { arrivesTurn: pendingTurn } : {}),
    renown: a.renown,
    fate: a.fate,
    ...(a.abandons?.length ? { abandons: a.abandons.map((w) => `${named([w.unit])[0]}: ${lossText(w)}`) } : {}),
    ...(a.warnings?.length ? { warnings: [...a.warnings] } : {}),
    ...(a.order.kind === 'press' ? { letter: { to: a.order.to === 'all' ? 'all' : [...a.order.to], text: a.order.text, ...(a.order.anonymous ? { anonymous: true as const } : {}) } } : {}),
  }));
  const problems: ReceiptProblem[] = [
    ...(orders.refused ?? []).map(fromRefused),
    ...checked.problems.map((p) => {
      const reason = p.reason.replace(/\(order (\d+)\)/, (_, n: string) => {
        const line = lineOf(Number(n) - 1);
        return line !== undefined ? `(line ${line})` : `(order ${n})`;
      });
      return withHint({ ...at(lineOf(p.index)), text: texts[p.index] ?? '', reason }, p.hint);
    }),
  ];

  const refusals: string[] = [];
  const claimed = findNation(campaign, sheet.nation ?? '') ?? sheet.nation;
  if (sheet.nation !== undefined && claimed !== nation) {
    problems.push({ ...at(sheet.headerLines?.nation), text: `Nation: ${sheet.nation}`, reason: `these orders say they are for "${sheet.nation}", but they were checked as ${nation}`, valid: `Nation: ${nation}` });
    refusals.push(`the orders name another nation`);
  }
  if (base.turnStatus === 'past' || base.turnStatus === 'future') {
    const reason = base.turnStatus === 'past' ? `turn ${base.turn} is already resolved` : `turn ${base.turn} is not open yet`;
    problems.push({ ...at(sheet.headerLines?.turn), text: `Turn: ${base.turn}`, reason: `${reason}; orders are taken for turn ${pendingTurn} only`, valid: `Turn: ${pendingTurn}` });
    refusals.push(reason);
  }
  if (base.late) refusals.push(LATE_REASON(pendingTurn));
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));

  const receipt: OrderReceipt = {
    ...base,
    // A submission refused whole replaces nothing: the earlier one stands.
    replacesEarlier: base.replacesEarlier && refusals.length === 0,
    ...(refusals.length ? { refusedWhole: `${refusals.join('; ')}: these orders will not be applied` } : {}),
    accepted,
    problems,
    casualties: orders.casualties ?? [],
    ...(orders.casualties?.length ? { casualtyNames: named(orders.casualties) } : {}),
    renown: { available: money.renown.available, spent: money.renown.available - checked.renownLeft, left: checked.renownLeft },
    fate: { available: money.fate.available, pledged: money.fate.available - checked.fateLeft, left: checked.fateLeft },
    ok: problems.length === 0 && refusals.length === 0,
  };
  return { receipt, orders, texts };
}

/** The engine's summary, plus what it leaves out: when a move arrives, a battle's own loss order. */
function understood(order: Order, summary: string, turn: number, named: (ids: readonly UnitId[]) => string[]): string {
  if (order.kind === 'move') return `${summary}, arriving turn ${turn}`;
  if ((order.kind === 'attack' || order.kind === 'assault') && order.casualties?.length) return `${summary}; losses first: ${named(order.casualties).join(', ')}`;
  return summary;
}

function fromRefused(r: RefusedLine): ReceiptProblem {
  return withHint({ ...(r.line !== undefined ? { line: r.line } : {}), text: r.text, reason: r.reason }, r.hint);
}

/** Engine and parser hints are one string: a "did you mean" or what would be valid. */
function withHint(p: ReceiptProblem, hint: string | undefined): ReceiptProblem {
  if (!hint) return p;
  return /^did you mean\b/i.test(hint) ? { ...p, didYouMean: hint } : { ...p, valid: hint };
}

function seasonText(campaign: Campaign, turn: number): string {
  const { season, year } = seasonOf(campaign.calendar, turn);
  return `${season} ${year}`;
}

/** One line per accepted order, in the receipt's words; tests compare these. */
export function acceptedLine(o: ReceiptOrder): string {
  return `${where(o.line)}${o.summary}`;
}

/** One line per problem: where, what was written, what is wrong, what would be valid, did you mean. */
export function problemLine(p: ReceiptProblem): string {
  const parts = [`${where(p.line)}"${p.text}": ${p.reason}`];
  if (p.valid) parts.push(`valid: ${p.valid}`);
  if (p.didYouMean) parts.push(p.didYouMean);
  return plainText(parts.join(' — '));
}

const where = (line: number | undefined) => (line !== undefined && line > 0 ? `line ${line}: ` : '');

/** Refused for being late and nothing else: sending it again, corrected, would not help. */
const lateOnly = (r: OrderReceipt) => r.late && r.refusedWhole === `${LATE_REASON(r.pendingTurn)}: these orders will not be applied`;

const LATE_REASON = (turn: number) => `they arrived after the deadline for turn ${turn}`;

/** "; 1 goes ahead with a warning (! WARNING above)": accepted orders carried out, but not quite as written. */
function warnedText(r: OrderReceipt): string {
  const n = r.accepted.filter((o) => o.warnings?.length || o.abandons?.length).length;
  if (!n) return '';
  return `; ${n === 1 ? '1 goes' : `${n} go`} ahead with a warning (! WARNING above)`;
}

/** The receipt as plain text, for the terminal and the reply mail. */
export function renderReceipt(r: OrderReceipt): string {
  const out: string[] = [];
  out.push(`${r.campaign.title} — orders receipt`);
  out.push(`Nation: ${r.nationName} (${r.nation})`);
  out.push(`Turn: ${r.turn}${r.turnStatus === 'assumed' ? ` (no Turn line: taken as the pending turn, ${r.pendingTurn})` : ''} — the pending turn is ${r.pendingTurn}, ${r.season}`);
  if (r.token === 'ok') out.push('Token: accepted');
  else if (r.token !== 'unchecked') out.push(`Token: ${r.token}`);
  if (r.replacesEarlier) out.push(`These orders replace, whole, the orders you sent earlier for turn ${r.pendingTurn}.`);
  if (r.late) out.push(`LATE: the deadline for turn ${r.pendingTurn} has passed.`);
  if (r.linesOf) out.push(`Line numbers count the lines of ${r.linesOf}, from its first line.`);
  if (r.refusedWhole) out.push('', `NOT ACCEPTED: ${r.refusedWhole}.`);
  out.push('');
  out.push(r.refusedWhole && r.accepted.length ? `Understood (${r.accepted.length}), but not applied:` : `Accepted (${r.accepted.length}):`);
  if (!r.accepted.length) out.push('  (none)');
  for (const o of r.accepted) {
    out.push(`  ${o.line ? `line ${o.line}` : '-'}: ${o.text}`);
    out.push(`      → ${o.summary}`);
    for (const lost of o.abandons ?? []) out.push(`      ! WARNING: this gives up work in progress, ${lost}; it is lost`);
    for (const warning of o.warnings ?? []) out.push(`      ! WARNING: ${warning}`);
  }
  out.push('');
  out.push(`Problems (${r.problems.length}):`);
  if (!r.problems.length) out.push('  (none)');
  for (const p of r.problems) {
    out.push(`  ${p.line ? `line ${p.line}` : '-'}: ${p.text === WHOLE_FILE ? WHOLE_FILE : p.text}`);
    out.push(`      ✗ ${p.reason}`);
    if (p.valid) out.push(`      valid: ${p.valid}`);
    if (p.didYouMean) out.push(`      ${p.didYouMean}`);
  }
  out.push('');
  if (!(r.token === 'wrong' || r.token === 'missing')) {
    out.push(`Renown: ${r.renown.available} available, ${r.renown.spent} spent, ${r.renown.left} left (costly orders are paid in the order listed).`);
    out.push(`Fate: ${r.fate.available} available, ${r.fate.pledged} pledged, ${r.fate.left} left.`);
    if (r.casualties.length) out.push(`Casualty priority: ${(r.casualtyNames ?? r.casualties).join(', ')} (lost first to last).`);
    out.push('');
  }
  if (r.ok && r.accepted.length === 0) out.push('No orders: your units hold where they are and nothing is built.');
  else if (r.ok) out.push(`${r.accepted.length === 1 ? 'The order is valid' : `All ${r.accepted.length} orders are valid`}${warnedText(r)}.`);
  else if (r.refusedWhole && lateOnly(r)) out.push(`Nothing from this submission will be applied: it came after the deadline, and turn ${r.pendingTurn} is resolved with the orders on file before it, if any. These are not kept for a later turn; if something kept you from sending them in time, tell the GM.`);
  else if (r.refusedWhole) out.push('Nothing from this submission will be applied. Send the whole sheet again, corrected.');
  else if (r.accepted.length === 0) out.push(`${r.problems.length === 1 ? 'The order could not be read' : `None of the ${r.problems.length} orders could be read`}, so nothing from this submission is applied. Correct ${r.problems.length === 1 ? 'it' : 'them'} and send the whole sheet again.`);
  else out.push(`${r.accepted.length} valid${warnedText(r)}, ${r.problems.length} with problems. The valid orders stand; to change anything, send the whole sheet again — a new submission replaces this one.`);
  // Echoed text is a player's: each line is made printable (no terminal codes, no fake lines).
  return `${out.map(plainText).join('\n')}\n`;
}
