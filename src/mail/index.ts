/** The mail transport layer: moves bytes in and out and says what they are. No game logic lives here. */
export * from './types.js';
export { MailError, MailErrorCode, isMailError, type MailErrorOptions } from './errors.js';
export { normalizeMessageId } from './compose.js';
export { parseInbound, type MailAddress, type ParsedAttachment, type ParsedInbound, type DeliveryHeaders } from './parse.js';
export { FolderInbox, FolderOutbox, outboxFileName, type FolderInboxOptions, type FolderOutboxOptions } from './folder-transport.js';
export { ImapInbox, type ImapInboxOptions } from './imap-inbox.js';
export { SmtpOutbox, type SmtpOutboxOptions } from './smtp-outbox.js';
