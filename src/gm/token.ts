import { existsSync } from 'node:fs';
import { sortedKeys } from '../core/ids.js';
import type { SendSummary } from '../mailroom/outbox.js';
import type { MailroomOptions } from '../mailroom/room.js';
import { sendNewToken } from '../mailroom/start-mail.js';
import { runtimePath } from '../schedule/runtime.js';
import { withGm, type GmOptions } from './context.js';
import { mailClock } from './start.js';
import { newToken, secretsPath, setToken, tokenDigest, tokenVariable } from '../campaign/secrets.js';

/**
 * `fatecraft token <campaign> <nation> --new`: one nation's order token replaced (it leaked, or a new
 * player took over by hand) and mailed to that nation's addresses only. The old token's digest goes to
 * runtime.yaml, so orders with it are refused as "replaced" rather than "wrong".
 */
export interface NewTokenResult {
  nation: string;
  token: string;
  /** A token was replaced (false: the nation had none). */
  replaced: boolean;
  file: string;
  /** Undefined without a mail: block; [] when the nation has no address. */
  mailedTo?: string[];
  sent?: SendSummary;
}

export async function renewToken(dir: string, nation: string, opts: GmOptions & { env?: NodeJS.ProcessEnv; mail?: Omit<MailroomOptions, 'clock'> }): Promise<NewTokenResult> {
  const env = opts.env ?? process.env;
  return withGm(dir, `token ${nation} --new`, opts, async (ctx) => {
    const nations = sortedKeys(ctx.open.file.nations);
    if (!nations.includes(nation)) ctx.refuse(`no nation "${nation}" in campaign.yaml; its nations are ${nations.join(', ')}`);
    if (!existsSync(runtimePath(dir))) ctx.refuse(`the campaign has not started, so no token has been mailed yet: fatecraft start ${dir} issues and mails every nation's token`);
    if (ctx.runtime.dropped[nation]) ctx.refuse(`${nation} was dropped; to give it to a player: fatecraft nation reassign ${dir} ${nation} --email <address>`);
    const variable = tokenVariable(nation);
    if ((env[variable] ?? '').trim() !== '') ctx.refuse(`${nation}'s token comes from the environment variable ${variable}, which beats the secrets file; change it there (or unset it and run this again)`);
    const token = newToken();
    const previous = await setToken(ctx.open.campaign.name, dir, nation, token, env);
    if (previous) ctx.runtime.retiredTokens[nation] = [...new Set([...(ctx.runtime.retiredTokens[nation] ?? []), tokenDigest(previous)])];
    ctx.log('token', `${nation} has a new order token${previous ? '; the old one is refused from now on' : ''}`, ctx.runtime.turn);
    await ctx.save();
    const base: NewTokenResult = { nation, token, replaced: previous !== undefined, file: secretsPath(ctx.open.campaign.name, env) };
    if (ctx.open.file.mail === undefined) return base;
    const mailed = await sendNewToken(dir, { nation, turn: ctx.runtime.turn, deadline: ctx.local(ctx.runtime.deadline) }, { ...opts.mail, clock: mailClock(opts.clock) });
    return { ...base, mailedTo: mailed.mailedTo, sent: mailed.sent };
  });
}
