import type { AuthStatus, DNSResolver } from 'mailauth';
import type { AuthSummary, AuthVerdict } from './headers.js';

/**
 * Our own check of a message's DKIM signatures, SPF and DMARC (mailauth), for
 * campaigns whose receiving server does not stamp Authentication-Results we
 * can trust. The result is recorded in the mail ledger for the GM; it does not
 * decide whether orders count (the registered address and the order token do).
 */
export const OWN_SERV_ID = 'fatecraft';

const VERDICTS = new Set<string>(['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror', 'policy']);

function verdict(status: AuthStatus | undefined): AuthVerdict | undefined {
  const result = status?.result === 'temperr' ? 'temperror' : status?.result;
  return result !== undefined && VERDICTS.has(result) ? (result as AuthVerdict) : undefined;
}

export interface VerifyOptions {
  /** DNS look-ups (TXT records for keys and policies); the system resolver when absent. */
  resolver?: DNSResolver;
  /** Our host name, as the receiving MTA. */
  mta?: string;
}

export async function verifyMessage(raw: Buffer, opts: VerifyOptions = {}): Promise<AuthSummary> {
  // Loaded here, not with the mailroom: only campaigns with mail.verifyAuthentication use it.
  const { authenticate } = await import('mailauth');
  const r = await authenticate(raw, {
    // SPF needs the connecting IP: take it from the Received header our own server added.
    trustReceived: true,
    disableArc: true,
    disableBimi: true,
    ...(opts.mta ? { mta: opts.mta } : {}),
    ...(opts.resolver ? { resolver: opts.resolver } : {}),
  });
  const signatures = r.dkim.results;
  const passing = signatures.find((s) => s.status.result === 'pass');
  const summary: AuthSummary = { servId: OWN_SERV_ID, trusted: true };
  const dkim = passing ? 'pass' : signatures.length ? verdict(signatures[0]?.status) : 'none';
  if (dkim) summary.dkim = dkim;
  const spf = r.spf ? verdict(r.spf.status) : undefined;
  if (spf) summary.spf = spf;
  const dmarc = r.dmarc ? verdict(r.dmarc.status) : undefined;
  if (dmarc) summary.dmarc = dmarc;
  const domain = passing?.signingDomain ?? (r.dmarc ? r.dmarc.domain : undefined);
  if (domain) summary.domain = domain.toLowerCase();
  return summary;
}
