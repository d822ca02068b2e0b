/**
 * The one place mail error codes are declared. Every transport rejects with a MailError, so callers decide
 * "retry later" vs "give up" from `code` alone, whatever library or server produced the failure.
 */

export const MailErrorCode = {
  /** Temporary: 4xx reply, dropped or refused connection, timeout. The same operation may succeed later. */
  ETEMP: 'ETEMP',
  /** Permanent: 5xx reply or a message the server will never take. Retrying the same thing fails again. */
  EPERM: 'EPERM',
  /** The transport is set up wrongly (bad option, TLS mismatch, missing mailbox). Needs a human. */
  ECONFIG: 'ECONFIG',
  /** The server refused the credentials. Needs a human. */
  EAUTH: 'EAUTH',
  /** The message to act on is not (or no longer) in the inbox, e.g. it was already moved. */
  ENOTFOUND: 'ENOTFOUND',
} as const;

export type MailErrorCode = (typeof MailErrorCode)[keyof typeof MailErrorCode];

export interface MailErrorOptions {
  cause?: unknown;
  /** The SMTP reply code, when a server answered with one. */
  responseCode?: number;
  /** No answer came at all: the connection was refused, dropped or timed out before a reply. */
  unreachable?: boolean;
}

export class MailError extends Error {
  override readonly name = 'MailError';
  readonly code: MailErrorCode;
  readonly responseCode: number | undefined;
  /** The server did not answer (refused, dropped, timed out): a sign it is down, not that this message is at fault. */
  readonly unreachable: boolean;

  constructor(code: MailErrorCode, message: string, options: MailErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.responseCode = options.responseCode;
    this.unreachable = options.unreachable ?? false;
  }

  /** Only temporary failures are worth retrying unchanged. */
  get retryable(): boolean {
    return this.code === MailErrorCode.ETEMP;
  }
}

export function isMailError(error: unknown): error is MailError {
  return error instanceof MailError;
}

/** The fields nodemailer and imapflow attach to their errors; all optional, read defensively. */
interface LibraryErrorFields {
  message?: unknown;
  code?: unknown;
  responseCode?: unknown;
  response?: unknown;
  authenticationFailed?: unknown;
  tlsFailed?: unknown;
  mailboxMissing?: unknown;
  serverResponseCode?: unknown;
  responseStatus?: unknown;
  responseText?: unknown;
}

function fieldsOf(error: unknown): LibraryErrorFields {
  return typeof error === 'object' && error !== null ? (error) : {};
}

function messageOf(error: unknown): string {
  const { message } = fieldsOf(error);
  return typeof message === 'string' && message !== '' ? message : String(error);
}

/** Socket-level failures: the peer was unreachable or went away, so trying again later is reasonable. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

// ---------------------------------------------------------------------------------------------------------
// SMTP (nodemailer)
// ---------------------------------------------------------------------------------------------------------

const SMTP_TEMPORARY_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'EPROXY']);
// TLS problems (expired certificate, wrong port for `secure`) do not fix themselves.
const SMTP_CONFIG_CODES = new Set(['ECONFIG', 'ETLS', 'EREQUIRETLS', 'EOAUTH2', 'EFILEACCESS', 'EURLACCESS']);

/**
 * Maps a nodemailer error. The reply code wins over nodemailer's own code: EENVELOPE and EMESSAGE both
 * carry 4xx or 5xx replies, and RFC 5321 makes 4yz transient and 5yz permanent. 503 (bad sequence of
 * commands) is a session problem, not a verdict on the message, so it counts as temporary.
 */
export function fromSmtpError(error: unknown, context: string): MailError {
  if (isMailError(error)) return error;
  const fields = fieldsOf(error);
  const code = typeof fields.code === 'string' ? fields.code : undefined;
  const responseCode = typeof fields.responseCode === 'number' ? fields.responseCode : undefined;
  const message = `${context}: ${messageOf(error)}`;
  const options = { cause: error, responseCode };

  if (code === 'EAUTH' || code === 'ENOAUTH' || responseCode === 535) {
    return new MailError(MailErrorCode.EAUTH, message, options);
  }
  if (responseCode !== undefined && responseCode >= 500 && responseCode !== 503) {
    return new MailError(MailErrorCode.EPERM, message, options);
  }
  if (responseCode !== undefined && responseCode >= 400) {
    return new MailError(MailErrorCode.ETEMP, message, options);
  }
  if (code !== undefined && SMTP_CONFIG_CODES.has(code)) {
    return new MailError(MailErrorCode.ECONFIG, message, options);
  }
  // EENVELOPE/EMESSAGE without a reply: nodemailer refused the message itself (no recipients, bad address).
  if (code === 'EENVELOPE' || code === 'EMESSAGE' || code === 'EMAXRECIPIENTS') {
    return new MailError(MailErrorCode.EPERM, message, options);
  }
  if (code !== undefined && (SMTP_TEMPORARY_CODES.has(code) || NETWORK_CODES.has(code))) {
    return new MailError(MailErrorCode.ETEMP, message, { ...options, unreachable: true });
  }
  // Unknown: leave the message queued rather than drop it.
  return new MailError(MailErrorCode.ETEMP, message, options);
}

// ---------------------------------------------------------------------------------------------------------
// IMAP (imapflow)
// ---------------------------------------------------------------------------------------------------------

const IMAP_CONNECTION_CODES = new Set([
  'NoConnection',
  'EConnectionClosed',
  'StateLogout',
  'ClosedAfterConnectText',
  'ClosedAfterConnectTLS',
  'CONNECT_TIMEOUT',
  'GREETING_TIMEOUT',
  'UPGRADE_TIMEOUT',
  'ETIMEOUT',
  'ETHROTTLE',
  'LockTimeout',
  'PollFailed',
]);

/** RFC 5530 response codes that say "not now" rather than "never". */
const IMAP_TEMPORARY_RESPONSE_CODES = new Set(['UNAVAILABLE', 'INUSE', 'LIMIT', 'SERVERBUG', 'EXPUNGEISSUED']);

/** True when the error means the connection is gone, so a fresh connection may succeed. */
export function isImapConnectionError(error: unknown): boolean {
  const { code } = fieldsOf(error);
  return typeof code === 'string' && (IMAP_CONNECTION_CODES.has(code) || NETWORK_CODES.has(code));
}

export function fromImapError(error: unknown, context: string): MailError {
  if (isMailError(error)) return error;
  const fields = fieldsOf(error);
  const serverCode = typeof fields.serverResponseCode === 'string' ? fields.serverResponseCode.toUpperCase() : '';
  // imapflow's message is often just "Command failed"; the server's own words are in responseText.
  const base = messageOf(error);
  const detail = typeof fields.responseText === 'string' ? fields.responseText : '';
  const message = `${context}: ${base}${detail !== '' && !base.includes(detail) ? ` (${detail})` : ''}`;
  const options = { cause: error };

  const authFailed = serverCode === 'AUTHENTICATIONFAILED' || serverCode === 'AUTHORIZATIONFAILED';
  if (fields.authenticationFailed === true || authFailed) {
    return new MailError(MailErrorCode.EAUTH, message, options);
  }
  if (fields.tlsFailed === true) return new MailError(MailErrorCode.ECONFIG, message, options);
  if (fields.mailboxMissing === true || serverCode === 'NONEXISTENT') {
    return new MailError(MailErrorCode.ECONFIG, message, options);
  }
  if (isImapConnectionError(error) || IMAP_TEMPORARY_RESPONSE_CODES.has(serverCode)) {
    return new MailError(MailErrorCode.ETEMP, message, options);
  }
  // A plain NO/BAD to a command we built: the server will answer the same next time.
  if (fields.responseStatus === 'NO' || fields.responseStatus === 'BAD') {
    return new MailError(MailErrorCode.EPERM, message, options);
  }
  return new MailError(MailErrorCode.ETEMP, message, options);
}

// ---------------------------------------------------------------------------------------------------------
// Filesystem (folder transport)
// ---------------------------------------------------------------------------------------------------------

const FS_CONFIG_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EROFS']);

export function fromFsError(error: unknown, context: string): MailError {
  if (isMailError(error)) return error;
  const { code } = fieldsOf(error);
  const message = `${context}: ${messageOf(error)}`;
  // A missing or unwritable directory is a setup problem; a full disk or busy file may clear up.
  const kind = typeof code === 'string' && FS_CONFIG_CODES.has(code) ? MailErrorCode.ECONFIG : MailErrorCode.ETEMP;
  return new MailError(kind, message, { cause: error });
}
