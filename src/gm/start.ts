import { existsSync } from 'node:fs';
import { sortedKeys } from '../core/ids.js';
import { writeStartingPosition, type StartingPosition } from '../campaign/starting-position.js';
import type { OpenCampaign } from '../campaign/store.js';
import type { MailroomOptions } from '../mailroom/room.js';
import { sendStartMail, type StartMailSummary } from '../mailroom/start-mail.js';
import type { Clock } from '../schedule/clock.js';
import { runtimePath, type Runtime } from '../schedule/runtime.js';
import { withGm, type GmOptions } from './context.js';
import { newToken, readTokens, secretsPath, setToken, tokenDigest, tokenVariable } from './secrets.js';

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

export interface IssuedTokens {
  /** Nations given a token now (they had none). */
  issued: string[];
  /** Nations whose token was replaced (--new-tokens). */
  renewed: string[];
  /** Nations whose token was kept. */
  kept: string[];
  /** Nations whose token comes from a FATECRAFT_TOKEN_<NATION> variable, which this command cannot change. */
  fromEnv: string[];
  file: string;
}

export interface StartResult extends StartingPosition {
  /** The campaign had been started before (runtime.yaml was on disk). */
  wasStarted: boolean;
  /** Turn 1's deadline, as players read it. */
  deadline: string;
  tokens: IssuedTokens;
  /** Undefined when campaign.yaml has no mail: block (the GM hands reports and tokens out). */
  mail?: StartMailSummary;
}

/**
 * Gives every nation that has none (the rebels apart) an order token in the secrets file (all of them, with `renew`),
 * recording each replaced token's digest in `retired` so the mail loop can say "replaced".
 */
export async function issueTokens(open: OpenCampaign, opts: { renew?: boolean; env?: NodeJS.ProcessEnv; skip?: readonly string[]; retired?: Runtime['retiredTokens'] } = {}): Promise<IssuedTokens> {
  const env = opts.env ?? process.env;
  const name = open.campaign.name;
  const have = await readTokens(name, env);
  const out: IssuedTokens = { issued: [], renewed: [], kept: [], fromEnv: [], file: secretsPath(name, env) };
  for (const nation of sortedKeys(open.file.nations)) {
    // The rebels are the GM's to play and send no orders: a token of theirs would be a secret with no use.
    if (opts.skip?.includes(nation) || open.file.nations[nation]?.rebels) continue;
    if ((env[tokenVariable(nation)] ?? '').trim() !== '') {
      out.fromEnv.push(nation);
      continue;
    }
    if (have[nation] && !opts.renew) {
      out.kept.push(nation);
      continue;
    }
    const previous = await setToken(name, open.dir, nation, newToken(), env);
    if (previous && opts.retired) opts.retired[nation] = [...new Set([...(opts.retired[nation] ?? []), tokenDigest(previous)])];
    (previous ? out.renewed : out.issued).push(nation);
  }
  return out;
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
    return { ...position, wasStarted, deadline, tokens, ...(mail ? { mail } : {}) };
  });
}

/** A GM clock as the mailroom's: pauses between retries wait on it (a fake clock jumps). */
export function mailClock(clock: Clock): NonNullable<MailroomOptions['clock']> {
  return { now: () => clock.now(), sleep: (ms) => clock.sleepUntil(new Date(clock.now().getTime() + ms)) };
}
