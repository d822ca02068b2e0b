/**
 * What the mailroom decided, in one line for the GM: the same for every door orders come in by (the mail,
 * fetch.ts; the web desk, desk.ts). The filing itself is file-orders.ts.
 */
import type { Decision } from './decide.js';

/** One line for the GM (the ledger's outcome, `mail status`): what was decided. */
export function describeDecision(decision: Decision): string {
  switch (decision.kind) {
    case 'file':
      return `filed: orders of ${decision.nation} for turn ${decision.turn}${decision.replacesEarlier ? ' (replacing earlier orders)' : ''}, ${decision.receipt.accepted.length} accepted, ${decision.receipt.problems.length} with problems${decision.replyTo ? '' : ' (no receipt: reply limit)'}`;
    case 'hold':
      return `held for the GM: orders of ${decision.nation} for turn ${decision.turn}, ${decision.receipt.accepted.length} accepted — ${decision.why}`;
    case 'refuse':
      return `refused (${decision.reason}): ${decision.detail}${decision.replyTo ? '' : ' (no answer sent)'}`;
    case 'command':
      return `command from ${decision.nation}: ${decision.commands.join(', ')}${decision.replyTo ? '' : ' (no answer: reply limit)'}`;
    case 'bounce':
      return `bounce: ${decision.facts.recipients.map((r) => `${r.address} ${r.action}`).join(', ') || 'no recipient named'}${decision.nations.length ? ` (${decision.nations.join(', ')})` : ''}`;
    case 'ignore':
      return `ignored (${decision.reason}): ${decision.detail}`;
    case 'seat':
      return decision.action === 'volunteer' ? `volunteer: ${decision.address} (${decision.name})` : `accept: ${decision.address} takes ${decision.nation} (invitation ${decision.offer})`;
    case 'quarantine':
      return `quarantined: ${decision.reason}`;
  }
}
