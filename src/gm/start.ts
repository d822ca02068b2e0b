import { existsSync } from 'node:fs';
import { issueTokens, type IssuedTokens } from '../campaign/secrets.js';
import { writeStartingPosition, type StartingPosition } from '../jobs/starting-position.js';
import type { MailroomOptions } from '../mailroom/room.js';
import { sendStartMail, type StartMailSummary } from '../mailroom/start-mail.js';
import { runtimePath } from '../schedule/runtime.js';
import { mailClock, withGm, type GmOptions } from './context.js';

/**
 * `fatecraft start`: a campaign's first step. Under the campaign lock it writes turn 0 from the start sheets
 * and its reports, issues every nation's order token into the secrets file (outside the campaign folder),
 * records the start and turn 1's deadline in runtime.yaml, and mails each nation its welcome (starting
 * report, order sheet with the token, how to send orders and when) and the GM the GM's report. Every step
 * is skipped when already done, and the mail is queued under stable Message-IDs, so running it again sends
 * nothing twice; it only finishes what an interrupted run left.
 */
export interface StartOptions extends GmOptions {
  /** Replace tokens already issued (the old ones are refused from then on). */
  newTokens?: boolean;
  /** Where the secrets file is looked for (FATECRAFT_SECRETS); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Mail options (a transport or secrets handed in by tests). */
  mail?: Omit<MailroomOptions, 'clock'>;
}

export interface StartResult extends StartingPosition {
  /** The campaign had been started before (runtime.yaml was on disk). */
  wasStarted: boolean;
  /** Turn 1's deadline, as players read it. */
  deadline: string;
  tokens: IssuedTokens;
  /** Each nation's name by id, for the GM's console (which names nations, with the id the commands take). */
  nationNames: Record<string, string>;
  /** Undefined when campaign.yaml has no mail: block (the GM hands reports and tokens out). */
  mail?: StartMailSummary;
}

export async function startCampaign(dir: string, opts: StartOptions): Promise<StartResult> {
  return withGm(dir, 'start', opts, async (ctx) => {
    if (ctx.latest > 0) {
      ctx.refuse(`the campaign has started already: turn ${ctx.latest} is resolved. For a player's new token: fatecraft token ${dir} <nation> --new; to send reports again: fatecraft mail send ${dir}`);
    }
    const wasStarted = existsSync(runtimePath(dir));
    const deadline = ctx.local(ctx.runtime.deadline);
    const byNation = ctx.byNation(ctx.runtime.deadline);
    const position = await writeStartingPosition(ctx.open, deadline, byNation);
    const tokens = await issueTokens(ctx.open, { renew: opts.newTokens ?? false, ...(opts.env ? { env: opts.env } : {}), skip: Object.keys(ctx.runtime.dropped), retired: ctx.runtime.retiredTokens });
    if (!wasStarted) ctx.log('start', `campaign started; turn ${ctx.runtime.turn} is due ${deadline}`, ctx.runtime.turn);
    if (tokens.issued.length) ctx.log('tokens', `order tokens issued for ${tokens.issued.join(', ')}`, ctx.runtime.turn);
    if (tokens.renewed.length) ctx.log('tokens', `order tokens replaced for ${tokens.renewed.join(', ')}; the old ones are refused from now on`, ctx.runtime.turn);
    await ctx.save();
    const mail = ctx.open.file.mail !== undefined ? await sendStartMail(dir, { deadline, deadlineByNation: byNation }, { ...opts.mail, clock: mailClock(opts.clock) }) : undefined;
    const nationNames = Object.fromEntries(Object.values(ctx.open.campaign.nations).map((n) => [n.id, n.name]));
    return { ...position, wasStarted, deadline, tokens, nationNames, ...(mail ? { mail } : {}) };
  });
}
