import type { Decision } from './decide.js';
import { emptySendSummary, type SendSummary } from './outbox.js';

/** What one `fatecraft mail fetch` run did, message by message and in sums. */
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

export function emptyFetchSummary(): FetchSummary {
  return { transport: '', listed: 0, handled: 0, filed: [], refused: 0, ignored: 0, commands: 0, bounces: 0, quarantined: 0, held: 0, alreadyHandled: 0, resumed: 0, skipped: [], outcomes: [], sent: emptySendSummary() };
}

type Tally = 'refused' | 'ignored' | 'commands' | 'bounces' | 'quarantined' | 'held';

/** Which sum a finished message's decision counts in (filed orders are listed, not counted; seats are commands). */
const TALLIES: Partial<Record<Decision['kind'], Tally>> = {
  refuse: 'refused',
  ignore: 'ignored',
  command: 'commands',
  seat: 'commands',
  bounce: 'bounces',
  quarantine: 'quarantined',
  hold: 'held',
};

/** The summary with one finished message counted by its decision. */
export function countDecision(summary: FetchSummary, decision: Decision | undefined): FetchSummary {
  const tally = decision === undefined ? undefined : TALLIES[decision.kind];
  return tally === undefined ? summary : { ...summary, [tally]: summary[tally] + 1 };
}
