/**
 * What the mailroom reads from a message beyond parseInbound's result: raw header fields (Message-ID for the
 * ledger key before any parsing, our own marker headers, Authentication-Results) and the facts of a delivery
 * status notification (which address failed, and why).
 */
import { createHash } from 'node:crypto';
import type { ParsedAttachment } from '../mail/parse.js';

/** Header fields of a raw message, lower-cased names, values unfolded and trimmed, in order. */
export type RawHeaders = Map<string, string[]>;

/** Reads the header block (up to the first empty line; at most 256 KiB) without decoding anything. */
export function readRawHeaders(raw: Buffer): RawHeaders {
  const limit = Math.min(raw.length, 256 * 1024);
  let end = limit;
  for (let i = 0; i < limit - 1; i++) {
    if (raw[i] === 0x0a && (raw[i + 1] === 0x0a || (raw[i + 1] === 0x0d && raw[i + 2] === 0x0a))) {
      end = i;
      break;
    }
  }
  const text = raw.subarray(0, end).toString('latin1');
  const headers: RawHeaders = new Map();
  for (const field of text.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = field.indexOf(':');
    if (colon <= 0) continue;
    const name = field.slice(0, colon).trim().toLowerCase();
    const value = field.slice(colon + 1).trim();
    headers.set(name, [...(headers.get(name) ?? []), value]);
  }
  return headers;
}

export function firstHeader(headers: RawHeaders, name: string): string | undefined {
  return headers.get(name.toLowerCase())?.[0];
}

/** `<id>` from a Message-ID field value, or undefined when it holds none. */
export function messageIdOf(value: string | undefined): string | undefined {
  const match = /<([^<>\s]+)>/.exec(value ?? '');
  if (match) return `<${match[1]}>`;
  const bare = value?.trim();
  return bare && /^[^\s<>]+@[^\s<>]+$/.test(bare) ? `<${bare}>` : undefined;
}

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** The bytes after the header block: identical for two deliveries of one message, whatever Received lines they gained. */
export function bodyDigest(raw: Buffer, headers: RawHeaders): string {
  const text = raw.toString('latin1');
  const split = /\r?\n\r?\n/.exec(text);
  const body = split ? raw.subarray(split.index + split[0].length) : Buffer.alloc(0);
  const identity = ['from', 'subject', 'date'].map((h) => firstHeader(headers, h) ?? '').join('\n');
  return createHash('sha256').update(identity).update('\n\n').update(body).digest('hex');
}

// ---------------------------------------------------------------------------------------------------------
// Authentication-Results (RFC 8601)
// ---------------------------------------------------------------------------------------------------------

export type AuthVerdict = 'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'temperror' | 'permerror' | 'policy';

export interface AuthSummary {
  /** Who stamped the results (the authserv-id), as written. */
  servId: string;
  /** True when servId is the one configured as our own server's (mail.authServId); otherwise anyone could have written it. */
  trusted: boolean;
  dkim?: AuthVerdict;
  spf?: AuthVerdict;
  dmarc?: AuthVerdict;
  /** The DKIM signing domain (header.d) or DMARC From domain, when stated. */
  domain?: string;
}

const VERDICTS = new Set<AuthVerdict>(['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror', 'policy']);

/**
 * The Authentication-Results a receiving server stamped on the message. The top-most field is the one our own
 * server added last; a trusted one is preferred. Undefined when there is none.
 */
export function authResults(headers: RawHeaders, trustedServId?: string): AuthSummary | undefined {
  const fields = headers.get('authentication-results') ?? [];
  let chosen: AuthSummary | undefined;
  for (const field of fields) {
    const summary = parseAuthResults(field, trustedServId);
    if (summary === undefined) continue;
    if (summary.trusted) return summary;
    chosen ??= summary;
  }
  return chosen;
}

function parseAuthResults(value: string, trustedServId: string | undefined): AuthSummary | undefined {
  const parts = value.replace(/\([^()]*\)/g, ' ').split(';').map((p) => p.trim());
  const servId = parts[0]?.split(/\s+/)[0];
  if (servId === undefined || servId === '') return undefined;
  const summary: AuthSummary = { servId, trusted: trustedServId !== undefined && servId.toLowerCase() === trustedServId.toLowerCase() };
  for (const part of parts.slice(1)) {
    const match = /^(dkim|spf|dmarc)\s*=\s*([a-z]+)(.*)$/i.exec(part);
    if (!match) continue;
    const method = match[1]!.toLowerCase() as 'dkim' | 'spf' | 'dmarc';
    const verdict = match[2]!.toLowerCase() as AuthVerdict;
    if (!VERDICTS.has(verdict) || summary[method] === 'pass') continue;
    summary[method] = verdict;
    const domain = /header\.(?:d|from)\s*=\s*([^\s;]+)/i.exec(match[3] ?? '')?.[1];
    if (domain && (method === 'dkim' || method === 'dmarc')) summary.domain ??= domain.toLowerCase();
  }
  return summary;
}

// ---------------------------------------------------------------------------------------------------------
// Delivery status notifications (RFC 3464)
// ---------------------------------------------------------------------------------------------------------

export interface BounceFacts {
  /** Each recipient the report is about, with its action (failed, delayed…), status and diagnostic. */
  recipients: { address: string; action: string; status?: string; diagnostic?: string }[];
  /** The Message-ID of the message that bounced, when the report returned its headers. */
  originalMessageId?: string;
  originalSubject?: string;
}

/** Reads a bounce's machine-readable part; falls back to addresses in angle brackets in the text. */
export function bounceFacts(attachments: readonly ParsedAttachment[], text: string): BounceFacts {
  const facts: BounceFacts = { recipients: [] };
  for (const attachment of attachments) {
    const body = attachment.content.toString('utf8');
    if (attachment.contentType === 'message/delivery-status' || attachment.contentType === 'message/global-delivery-status') {
      for (const block of body.split(/\r?\n\r?\n/)) {
        const fields = fieldMap(block);
        const recipient = fields.get('final-recipient') ?? fields.get('original-recipient');
        if (recipient === undefined) continue;
        const address = recipient.includes(';') ? recipient.slice(recipient.indexOf(';') + 1).trim() : recipient.trim();
        const status = fields.get('status');
        const diagnostic = fields.get('diagnostic-code');
        facts.recipients.push({
          address: address.replace(/^<|>$/g, '').toLowerCase(),
          action: (fields.get('action') ?? 'failed').toLowerCase(),
          ...(status ? { status } : {}),
          ...(diagnostic ? { diagnostic: diagnostic.replace(/^smtp;\s*/i, '') } : {}),
        });
      }
    } else if (attachment.contentType === 'text/rfc822-headers' || attachment.contentType === 'message/rfc822') {
      const headers = readRawHeaders(attachment.content);
      const id = messageIdOf(firstHeader(headers, 'message-id'));
      const subject = firstHeader(headers, 'subject');
      if (id) facts.originalMessageId = id;
      if (subject) facts.originalSubject = subject;
    }
  }
  if (facts.recipients.length === 0) {
    const seen = new Set<string>();
    for (const match of text.matchAll(/<([^<>\s@]+@[^<>\s@]+)>/g)) {
      const address = match[1]!.toLowerCase();
      if (!seen.has(address)) facts.recipients.push({ address, action: 'failed' });
      seen.add(address);
    }
  }
  return facts;
}

function fieldMap(block: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) map.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return map;
}
