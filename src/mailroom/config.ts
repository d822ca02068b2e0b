/**
 * The `mail:` block of campaign.yaml, validated with zod. Only settings live here: passwords, DKIM keys and
 * order tokens come from the environment or the secrets file (secrets.ts), never from the campaign folder.
 *
 *   mail:
 *     transport: folder                 # folder (mail/inbox, mail/outbox) or imap (IMAP in, SMTP out)
 *     from: "Silversheen GM <turns@silversheen.test>"
 *     gm: gm@silversheen.test
 *     imap: { host: imap.example.org, port: 993, secure: true, user: turns@example.org, passwordEnv: FATECRAFT_IMAP_PASSWORD }
 *     smtp: { host: smtp.example.org, port: 587, user: turns@example.org, passwordEnv: FATECRAFT_SMTP_PASSWORD }
 *     dkim: { domainName: example.org, keySelector: fatecraft, privateKeyFile: /etc/fatecraft/dkim.pem }
 */
import { join } from 'node:path';
import { z } from 'zod';
import { CampaignError, pathText, type FileProblem } from '../campaign/problems.js';
import { readYamlFile, type OpenCampaign } from '../campaign/store.js';

const ADDRESS = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+$/;
const envName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'the name of an environment variable, e.g. FATECRAFT_IMAP_PASSWORD');
const port = z.number().int().min(1).max(65535);
const address = z.string().refine((s) => addressOf(s) !== undefined, { message: 'a mail address, e.g. "gm@example.org" or "GM <gm@example.org>"' });

const imapSchema = z.strictObject({
  host: z.string().min(1),
  port,
  /** Implicit TLS (993). Without it the connection is upgraded by STARTTLS when offered. */
  secure: z.boolean().default(false),
  user: z.string().min(1),
  /** The environment variable (or secrets-file key) holding the password. */
  passwordEnv: envName,
  mailbox: z.string().min(1).default('INBOX'),
  processed: z.string().min(1).default('Processed'),
  quarantine: z.string().min(1).default('Quarantine'),
});

const timeoutMs = z.number().int().min(100, 'at least 100 (milliseconds)').max(600_000, 'at most 600000 (ten minutes, in milliseconds)');

const smtpTimeoutsSchema = z.strictObject({
  /** To open the connection. */
  connectMs: timeoutMs.default(5_000),
  /** For the server's greeting once connected (a server that accepts and never speaks). */
  greetingMs: timeoutMs.default(5_000),
  /** Of silence in the middle of a conversation (a reply to a command, the end of DATA). */
  socketMs: timeoutMs.default(20_000),
});

const smtpSchema = z.strictObject({
  host: z.string().min(1),
  port,
  secure: z.boolean().default(false),
  /** Refuse to send unless the server offers STARTTLS (for any server beyond loopback without `secure`). */
  requireTLS: z.boolean().default(false),
  user: z.string().min(1).optional(),
  passwordEnv: envName.optional(),
  /** Messages sent at once (each on its own connection). */
  concurrency: z.number().int().min(1).max(32).default(4),
  /** How long to wait for the server, in milliseconds; a run stops trying a server that does not answer twice. */
  timeouts: smtpTimeoutsSchema.default(smtpTimeoutsSchema.parse({})),
});

const dkimSchema = z
  .strictObject({
    domainName: z.string().min(1),
    keySelector: z.string().min(1),
    /** A PEM file outside the campaign folder. */
    privateKeyFile: z.string().min(1).optional(),
    /** Or: the environment variable (or secrets-file key) holding the PEM text. */
    privateKeyEnv: envName.optional(),
  })
  .refine((d) => (d.privateKeyFile === undefined) !== (d.privateKeyEnv === undefined), { message: 'give exactly one of privateKeyFile and privateKeyEnv' });

const floodSchema = z.strictObject({
  /** Messages from one address within 24 hours beyond this are filed away unanswered (the GM is told once). */
  perSenderPerDay: z.number().int().min(1).default(30),
  /** Automatic answers (receipts, refusals, command replies) to one address within 24 hours. */
  repliesPerAddressPerDay: z.number().int().min(1).default(20),
});

const retrySchema = z.strictObject({
  /** Tries per message within one run (4xx and dropped connections), with growing pauses. */
  attemptsPerRun: z.number().int().min(1).max(10).default(3),
  /** The first pause within a run, in milliseconds; each next pause is four times longer. */
  firstDelayMs: z.number().int().min(0).default(250),
  /** After a run's tries fail, the next run tries again after this many minutes, doubling up to six hours. */
  backoffMinutes: z.number().min(0).default(5),
  /** Runs that may fail temporarily before the message is marked failed and the GM told. */
  maxRuns: z.number().int().min(1).default(12),
});

export const mailSettingsSchema = z
  .strictObject({
    transport: z.enum(['folder', 'imap']).default('folder'),
    /** Sender of every message the campaign sends; players write to this address. */
    from: address,
    /** Where the GM's report and alerts go. */
    gm: address,
    /** Further addresses of the processor itself (aliases): mail from them is never answered. */
    aliases: z.array(address).default([]),
    imap: imapSchema.optional(),
    smtp: smtpSchema.optional(),
    dkim: dkimSchema.optional(),
    /** Larger messages are refused by their size, before they are downloaded. */
    maxMessageBytes: z.number().int().min(4096).default(5 * 1024 * 1024),
    flood: floodSchema.default(floodSchema.parse({})),
    retry: retrySchema.default(retrySchema.parse({})),
    /**
     * The authserv-id of your own mail server's Authentication-Results header (RFC 8601), e.g. "mx.example.org".
     * Only results stamped with it are believed; others are recorded as unverified.
     */
    authServId: z.string().min(1).optional(),
    /**
     * Check DKIM, SPF and DMARC ourselves (mailauth, with DNS look-ups) and record the results for the GM,
     * instead of trusting the receiving server's Authentication-Results.
     */
    verifyAuthentication: z.boolean().default(false),
  })
  .superRefine((m, ctx) => {
    if (m.transport === 'imap' && m.imap === undefined) ctx.addIssue({ code: 'custom', path: ['imap'], message: 'transport imap needs an imap: block (host, port, user, passwordEnv)' });
    if (m.transport === 'imap' && m.smtp === undefined) ctx.addIssue({ code: 'custom', path: ['smtp'], message: 'transport imap needs an smtp: block (host, port) to send replies and reports' });
    if (m.smtp?.user !== undefined && m.smtp.passwordEnv === undefined) ctx.addIssue({ code: 'custom', path: ['smtp', 'passwordEnv'], message: 'smtp.user is set, so smtp.passwordEnv must name where its password is' });
  });

export type MailSettings = z.infer<typeof mailSettingsSchema>;

export const EXAMPLE = `for example:
  mail:
    transport: folder            # or imap, with imap: and smtp: blocks
    from: "The GM <turns@example.org>"
    gm: gm@example.org`;

/** The campaign's mail settings; undefined when campaign.yaml has no `mail:` block. Problems name their line. */
export async function mailSettingsOf(open: OpenCampaign): Promise<MailSettings | undefined> {
  const raw = open.file.mail;
  if (raw === undefined || raw === null) return undefined;
  const parsed = mailSettingsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const file = join(open.dir, 'campaign.yaml');
  let locate: ((path: (string | number)[]) => number | undefined) | undefined;
  try {
    locate = (await readYamlFile(file, file)).locate;
  } catch {
    locate = undefined;
  }
  const problems: FileProblem[] = parsed.error.issues.map((issue) => {
    const path = ['mail', ...(issue.path as (string | number)[])];
    const line = locate?.(path);
    return { file, path: pathText(path), ...(line !== undefined ? { line } : {}), message: issue.message };
  });
  problems[problems.length - 1]!.message += `\n${EXAMPLE}`;
  throw new CampaignError(problems);
}

/** Like mailSettingsOf, but a campaign without a `mail:` block is an error that says how to add one. */
export async function requireMailSettings(open: OpenCampaign): Promise<MailSettings> {
  const settings = await mailSettingsOf(open);
  if (settings === undefined) {
    throw new CampaignError([{ file: join(open.dir, 'campaign.yaml'), path: 'mail', message: `the campaign has no mail settings; add a mail: block, ${EXAMPLE}` }]);
  }
  return settings;
}

/** The bare address of "Name <addr>" or "addr", lower-cased; undefined when there is none. */
export function addressOf(text: string): string | undefined {
  const angle = /<([^<>]+)>\s*$/.exec(text.trim());
  const bare = (angle ? angle[1]! : text).trim();
  return ADDRESS.test(bare) ? bare.toLowerCase() : undefined;
}

/** The domain of the campaign's sender address: Message-IDs are minted under it. */
export function senderDomain(settings: MailSettings): string {
  const address = addressOf(settings.from) ?? 'fatecraft.invalid';
  return address.slice(address.indexOf('@') + 1);
}

/** Where a campaign's mail files live: inbox/outbox for the folder transport, and the ledger and queue for all. */
export function mailDir(campaignDir: string): string {
  return join(campaignDir, 'mail');
}
