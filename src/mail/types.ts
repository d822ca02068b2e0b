/**
 * The mail transport contract. The turn processor sees only these types: where mail comes from (a folder of
 * .eml files or an IMAP mailbox) and how it leaves (files or SMTP) is chosen by configuration.
 */

/** Inboxes skip downloading messages larger than this unless configured otherwise. Orders are small. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** A message taken from an inbox, bytes exactly as stored. */
export interface InboundMessage {
  /** Stable key for this message in this inbox: `imap:<uidvalidity>:<uid>` or `file:<name>`. */
  id: string;
  raw: Buffer;
  /** Size in bytes as the inbox reports it. */
  size: number;
  /**
   * When the server received it (IMAP's internal date), ISO 8601; it decides whether orders are late. The
   * folder transport has none: a mail there arrives when a fetch first sees it.
   */
  receivedAt?: string;
  tooLarge?: false;
}

/**
 * A message over the inbox's size limit. Its bytes are deliberately not downloaded; the caller should
 * quarantine it (and may tell the sender) using what the envelope says.
 */
export interface TooLargeMessage {
  id: string;
  tooLarge: true;
  size: number;
  receivedAt?: string;
  /** Envelope sender address and subject, when the inbox could read them without downloading the body. */
  from?: string;
  subject?: string;
}

/** What MailInbox.list() returns; narrow with `entry.tooLarge`. */
export type InboxEntry = InboundMessage | TooLargeMessage;

export type ProcessedFolder = 'Processed' | 'Quarantine';

export interface MailInbox {
  /** Every message currently in the inbox, in a stable order (IMAP UID, or file name). */
  list(): Promise<InboxEntry[]>;
  /** Moves a listed message out of the inbox. Rejects with ENOTFOUND when it is no longer there. */
  markProcessed(id: string, folder: ProcessedFolder): Promise<void>;
  /**
   * Moves listed messages out of the inbox together (IMAP: one SEARCH and one UID MOVE for them all). Those no
   * longer there (moved already, or their mailbox renumbered) are passed over: the caller had them moved.
   */
  markAllProcessed(ids: readonly string[], folder: ProcessedFolder): Promise<void>;
  close(): Promise<void>;
}

export interface OutboundAttachment {
  filename: string;
  content: Buffer | string;
  /** Derived from the file name when omitted. */
  contentType?: string;
}

export interface OutboundMessage {
  /** With or without angle brackets; written as `<...>`. Set by the caller so a rerun produces the same mail. */
  messageId: string;
  /** The Date header, ISO 8601 or a Date. Set by the caller (e.g. the turn's deadline) for the same reason. */
  date: string | Date;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: OutboundAttachment[];
  inReplyTo?: string;
  references?: string[];
  /** Extra header fields, e.g. `Auto-Submitted: auto-replied` so players' vacation responders stay quiet. */
  headers?: Record<string, string>;
}

export interface SendResult {
  accepted: string[];
  rejected: string[];
  /** The server's final reply, or a note from a non-network outbox. */
  response: string;
}

export interface MailOutbox {
  /** Resolves when at least one recipient accepted; per-recipient refusals are in `rejected`. */
  send(message: OutboundMessage): Promise<SendResult>;
  close(): Promise<void>;
}
