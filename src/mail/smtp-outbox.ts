/**
 * Sends over SMTP with nodemailer. With `connections`, a pool of at most that many connections is kept open
 * and reused, each for up to MESSAGES_PER_CONNECTION messages: a fetch of a thousand order mails sends a
 * thousand receipts, and a new connection (greeting, EHLO, login) for each was a third of every send. A
 * dropped pooled connection fails only the message on it, which the caller retries (ETEMP); the next message
 * gets a new connection. Without `connections`, one connection per message.
 */
import type { ConnectionOptions } from 'node:tls';
import { createTransport, type DKIMOptions, type SMTPTransportOptions } from 'nodemailer';
import { toMailOptions } from './compose.js';
import { fromSmtpError } from './errors.js';
import type { MailOutbox, OutboundMessage, SendResult } from './types.js';

export interface SmtpOutboxOptions {
  host: string;
  port: number;
  /** Implicit TLS from the first byte (port 465). Default false: plain, upgraded by STARTTLS if offered. */
  secure?: boolean;
  /** Fail unless the server offers STARTTLS; use for any non-loopback server without `secure`. */
  requireTLS?: boolean;
  auth?: { user: string; pass: string };
  /** Passed through to nodemailer, which signs every message with it. */
  dkim?: DKIMOptions;
  /** Name sent in EHLO; defaults to the machine's host name. */
  clientName?: string;
  tls?: ConnectionOptions;
  connectionTimeoutMs?: number;
  greetingTimeoutMs?: number;
  socketTimeoutMs?: number;
  /** Keep up to this many connections open and send over them in turn (nodemailer's pool). */
  connections?: number;
}

/** Messages sent over one pooled connection before it is closed and another opened. */
export const MESSAGES_PER_CONNECTION = 100;

export class SmtpOutbox implements MailOutbox {
  private readonly transport;
  private readonly label: string;

  constructor(options: SmtpOutboxOptions) {
    this.label = `smtp://${options.host}:${options.port}`;
    const config: SMTPTransportOptions = {
      host: options.host,
      port: options.port,
      secure: options.secure ?? false,
      requireTLS: options.requireTLS ?? false,
      logger: false,
      // Fail within seconds rather than nodemailer's minutes: the caller retries ETEMP on the next run.
      // The mailroom passes campaign.yaml's mail.smtp.timeouts; these are for other callers.
      connectionTimeout: options.connectionTimeoutMs ?? 5_000,
      greetingTimeout: options.greetingTimeoutMs ?? 5_000,
      socketTimeout: options.socketTimeoutMs ?? 20_000,
      ...(options.auth === undefined ? {} : { auth: { user: options.auth.user, pass: options.auth.pass } }),
      ...(options.dkim === undefined ? {} : { dkim: options.dkim }),
      ...(options.clientName === undefined ? {} : { name: options.clientName }),
      ...(options.tls === undefined ? {} : { tls: options.tls }),
      ...(options.connections === undefined ? {} : { pool: true, maxConnections: options.connections, maxMessages: MESSAGES_PER_CONNECTION }),
    };
    this.transport = createTransport(config);
  }

  async send(message: OutboundMessage): Promise<SendResult> {
    try {
      const info = await this.transport.sendMail(toMailOptions(message));
      return {
        accepted: info.accepted.map(String),
        rejected: info.rejected.map(String),
        response: info.response,
      };
    } catch (error) {
      throw fromSmtpError(error, `sending ${message.messageId} via ${this.label}`);
    }
  }

  /** Checks connection and credentials without sending, e.g. for a `--check-mail` command. */
  async verify(): Promise<void> {
    try {
      await this.transport.verify();
    } catch (error) {
      throw fromSmtpError(error, `connecting to ${this.label}`);
    }
  }

  close(): Promise<void> {
    this.transport.close();
    return Promise.resolve();
  }
}
