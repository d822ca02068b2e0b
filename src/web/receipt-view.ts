/**
 * A receipt (orders/receipt.ts) as the desk shows it: the same facts as the mailed receipt, line by line,
 * with a verdict at the top saying what sending the form would do.
 */
import type { Decision } from '../mailroom/decide.js';
import { DESK_LINES } from '../mailroom/desk.js';
import type { OrderReceipt } from '../orders/receipt.js';
import { WHOLE_FILE } from '../orders/sheet.js';

export interface ReceiptView {
  /** One sentence: what filing does (or did) with these orders. */
  verdict: string;
  /** good: all valid; mixed: some problems; refused: nothing would be filed. */
  tone: 'good' | 'mixed' | 'refused';
  linesOf: string | null;
  accepted: { line: number | null; text: string; summary: string; notes: string[] }[];
  problems: { line: number | null; text: string; reason: string; valid: string | null; didYouMean: string | null; abandon: boolean }[];
  renown: string | null;
  fate: string | null;
}

/** The receipt view of what the desk's judgement decided (nothing filed yet: `filed` false). */
export function receiptView(decision: Decision, filed: boolean): ReceiptView {
  const receipt = 'receipt' in decision ? decision.receipt : undefined;
  if (decision.kind === 'file') return fromReceipt(decision.receipt, filed ? 'Filed.' : 'Ready to file.');
  if (decision.kind === 'refuse') {
    const why =
      decision.reason === 'refused-orders'
        ? `${capital(decision.detail)}.`
        : decision.reason === 'no-orders'
          ? receipt
            ? 'None of these orders could be read, so nothing would be filed; the orders you filed earlier, if any, stand.'
            : 'There are no orders here yet, so nothing would be filed.'
          : decision.reason === 'no-token-set'
            ? 'The GM has not set an order token for your nation yet, so no orders can be filed; the GM has been told.'
            : `Nothing would be filed: ${decision.detail}.`;
    if (receipt) return { ...fromReceipt(receipt, ''), verdict: why, tone: 'refused' };
    // Refused before the orders were read against the nation: the reader's own findings, already worded.
    const problems = (decision.problems ?? []).map((p) => {
      const m = /^line (\d+): (.*)$/s.exec(p);
      return { line: m ? Number(m[1]) : null, text: '', reason: m ? m[2]! : p, valid: null, didYouMean: null, abandon: false };
    });
    return { verdict: why, tone: 'refused', linesOf: problems.length ? DESK_LINES : null, accepted: [], problems, renown: null, fate: null };
  }
  return { verdict: 'Nothing would be filed.', tone: 'refused', linesOf: null, accepted: [], problems: [], renown: null, fate: null };
}

/** A receipt of orders on file (read back from the filed YAML). */
export function fromReceipt(r: OrderReceipt, lead: string): ReceiptView {
  const count = r.accepted.length;
  const summary = r.problems.length === 0 ? (count === 0 ? 'No orders: your units hold where they are.' : `All ${count} order${count === 1 ? ' is' : 's are'} valid.`) : `${count} valid, ${r.problems.length} with problems: the valid ones stand.`;
  return {
    verdict: `${lead ? `${lead} ` : ''}${summary}`,
    tone: r.problems.length === 0 ? 'good' : 'mixed',
    linesOf: r.linesOf ?? null,
    accepted: r.accepted.map((o) => ({
      line: o.line ?? null,
      text: o.text,
      summary: o.summary,
      notes: [...(o.abandons ?? []).map((a) => `This gives up work in progress, ${a}; it is lost.`), ...(o.warnings ?? [])],
    })),
    problems: r.problems.map((p) => ({
      line: p.line ?? null,
      text: p.text === WHOLE_FILE ? 'the whole form' : p.text,
      reason: p.reason,
      valid: p.valid ?? null,
      didYouMean: p.didYouMean ?? null,
      abandon: p.line !== undefined && / would abandon /.test(p.reason),
    })),
    renown: `Renown: ${r.renown.available} available, ${r.renown.spent} spent, ${r.renown.left} left.`,
    fate: `Fate: ${r.fate.available} available, ${r.fate.pledged} pledged, ${r.fate.left} left.`,
  };
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
