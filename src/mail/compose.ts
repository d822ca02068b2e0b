/**
 * OutboundMessage → nodemailer message options. Shared by every outbox so a message written to a folder
 * and the same message sent over SMTP carry identical headers and MIME structure.
 */
import { createHash } from 'node:crypto';
import type { SendMailOptions } from 'nodemailer';
import { headerText, plainLines } from '../text/escape.js';
import { MailError, MailErrorCode } from './errors.js';
import type { OutboundMessage } from './types.js';

/** `<id@host>`, whether or not the caller wrote the brackets. */
export function normalizeMessageId(messageId: string): string {
  const bare = messageId.trim().replace(/^<|>$/g, '');
  if (bare === '' || /[\s<>]/.test(bare)) {
    throw new MailError(MailErrorCode.EPERM, `invalid Message-ID ${JSON.stringify(messageId)}`);
  }
  return `<${bare}>`;
}

export function toMailOptions(message: OutboundMessage): SendMailOptions {
  const messageId = normalizeMessageId(message.messageId);
  const date = new Date(message.date);
  if (Number.isNaN(date.getTime())) {
    throw new MailError(MailErrorCode.EPERM, `${messageId}: invalid date ${JSON.stringify(String(message.date))}`);
  }
  if (message.to.length === 0) {
    throw new MailError(MailErrorCode.EPERM, `${messageId}: no recipients`);
  }
  return {
    messageId,
    date,
    from: message.from,
    to: message.to,
    // Subjects are built from names and echo senders' subjects: one line, nothing a terminal acts on.
    subject: headerText(message.subject),
    // Bodies quote senders (a bounce's subject, a receipt's echo): no terminal code reaches a reader.
    text: plainLines(message.text),
    ...(message.html === undefined ? {} : { html: message.html }),
    ...(message.inReplyTo === undefined ? {} : { inReplyTo: message.inReplyTo }),
    ...(message.references === undefined ? {} : { references: message.references }),
    ...(message.headers === undefined ? {} : { headers: message.headers }),
    attachments: (message.attachments ?? []).map((attachment) => ({
      filename: attachment.filename,
      content: attachment.content,
      ...(attachment.contentType === undefined ? {} : { contentType: attachment.contentType }),
    })),
    // nodemailer draws multipart boundaries from crypto.randomBytes; deriving them from the Message-ID
    // keeps a rerun byte-identical while still unique per message.
    baseBoundary: createHash('sha256').update(messageId).digest('hex').slice(0, 16),
    // Content comes from the game, never from paths or URLs; refuse them so a stray string cannot read files.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}
