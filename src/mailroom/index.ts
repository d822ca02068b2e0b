/**
 * The mailroom: the game's side of play by mail. Inbound mail becomes filed orders and answers; resolved
 * turns become report mail. Built on the transport layer (src/mail) and the order reader (src/orders).
 *
 *   fetchMail(dir, opts)         read the inbox, file orders, answer, send the answers   (fatecraft mail fetch)
 *   sendReports(dir, turn, opts) queue and send every nation's report and the GM's       (fatecraft mail send)
 *   sendPending(dir, opts)       send what is due in the outgoing queue
 *   sendGmAlert / sendReminder / sendNotice
 *   mailStatus / reprocessQuarantined                                                     (fatecraft mail status|reprocess)
 *   mailroomHooks()              all of the above as the tick's TickHooks
 *
 * docs/mail.md is the GM's guide.
 */
export { mailSettingsOf, requireMailSettings, mailSettingsSchema, addressOf, mailDir, type MailSettings } from './config.js';
export { loadSecrets, staticSecrets, secretsPath, tokenVariable, type SecretSource } from './secrets.js';
export { decideInbound, decideTooLarge, findCommands, subjectHints, cutQuotedTail, type Decision, type InboundContext, type MailCommand, type RefusalReason, type IgnoreReason, type GmNote } from './decide.js';
export { fetchMail, type FetchOptions, type FetchSummary } from './fetch.js';
export { sendReports, sendPending, sendGmAlert, sendReminder, sendNotice, readReportFiles, type ReportsSummary, type SendOptions } from './reports.js';
export { mailStatus, renderMailStatus, reprocessQuarantined, queueStatus, type MailStatusReport } from './status.js';
export { Ledger, type LedgerEntry } from './ledger.js';
export { OutboxQueue, type QueuedMessage, type SendSummary, type OutKind } from './outbox.js';
export { openTransport, type MailTransport } from './transport.js';
export { FAULT_POINTS, mailClockFromEnv, systemMailClock, type FaultHook, type FaultPoint, type MailClock } from './runtime.js';
export { mailroomHooks } from './tick-hooks.js';
export type { MailroomOptions } from './room.js';
