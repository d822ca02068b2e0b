import { existsSync } from 'node:fs';
import { sortedKeys } from '../core/ids.js';
import type { SendSummary } from '../mailroom/outbox.js';
import type { MailroomOptions } from '../mailroom/room.js';
import { sendNoticeMail } from '../mailroom/start-mail.js';
import { failpoint } from '../host/failpoints.js';
import { runtimePath, type Runtime } from '../schedule/runtime.js';
import { currentTenure, sameAddresses } from '../schedule/seats/records.js';
import { mailClock, withGm, type GmContext, type GmOptions } from './context.js';
import { readTokens, secretsPath, tokenVariable } from '../campaign/secrets.js';

/**
 * `fatecraft token <campaign> <nation> --new`: one nation's order token replaced (it leaked, or a new
 * player took over by hand) and mailed to that nation's addresses only: to the same player, in a mail of
 * its own; to a new one (newPlayer), with the full welcome, and the seat's record starts with them. The old token's digest goes to
 * runtime.yaml, so orders with it are refused as "replaced" rather than "wrong". The replacement, its log
 * line and its mail are one whole operation (src/schedule/whole-operation.ts): a crash anywhere ends, at the next command,
 * with all of it or none, and the GM is told which. The token itself is never printed or returned: it is
 * in the secrets file, and in the mail to the player.
 */
export interface NewTokenResult {
  nation: string;
  /** A token was replaced (false: the nation had none). */
  replaced: boolean;
  /** The secrets file that holds it. */
  file: string;
  /** Undefined without a mail: block; [] when the nation has no address. */
  mailedTo?: string[];
  sent?: SendSummary;
}

export async function renewToken(dir: string, nation: string, opts: GmOptions & { mail?: Omit<MailroomOptions, 'clock'> }): Promise<NewTokenResult> {
  return withGm(dir, `token ${nation} --new`, opts, async (ctx) => {
    const nations = sortedKeys(ctx.open.file.nations);
    if (!nations.includes(nation)) ctx.refuse(`no nation "${nation}" in campaign.yaml; its nations are ${nations.join(', ')}`);
    if (!existsSync(runtimePath(dir))) ctx.refuse(`the campaign has not started, so no token has been mailed yet: fatecraft start ${dir} issues and mails every nation's token`);
    if (ctx.runtime.dropped[nation]) ctx.refuse(`${nation} was dropped; to give it to a player: fatecraft nation reassign ${dir} ${nation} --email <address>`);
    const variable = tokenVariable(nation);
    if ((ctx.env[variable] ?? '').trim() !== '') ctx.refuse(`${nation}'s token comes from the environment variable ${variable}, which beats the secrets file; change it there (or unset it and run this again)`);
    const replaced = (await readTokens(ctx.open.campaign.name, ctx.env))[nation] !== undefined;
    const def = ctx.open.file.nations[nation]!;
    const rt = ctx.runtime;
    // A first player (a nation a civil war brought in, given an address by the GM) is welcomed like a split
    // nation's: the report, the order sheet with the token, the map (start-mail.ts sendWelcome).
    const welcome = newPlayer(rt, nation, def, replaced);
    const [notice] = await ctx.whole({
      kind: 'token',
      command: `fatecraft token ${dir} ${nation} --new`,
      token: { nation, action: 'issue' },
      log: [
        welcome
          ? { op: 'token', detail: `${nation} has its player ${def.email.join(', ')} and an order token${replaced ? '; the old one is refused from now on' : ''}`, turn: rt.turn, players: { turn: rt.turn, text: `${def.name} has a new player.` } }
          : { op: 'token', detail: `${nation} has a new order token${replaced ? '; the old one is refused from now on' : ''}`, turn: rt.turn },
      ],
      notices: [
        welcome
          ? { kind: 'nation-reassigned', turn: rt.turn, nations: [nation], text: `You now lead ${def.name}. Your orders for turn ${rt.turn} are due ${ctx.local(rt.deadline)}.` }
          : { kind: 'token-renewed', turn: rt.turn, nations: [nation], text: `The GM has given ${def.name} a new order token.` },
      ],
      ...(welcome ? { seat: { nation, player: [...def.email], fromTurn: rt.turn } } : {}),
    });
    const base: NewTokenResult = { nation, replaced, file: secretsPath(ctx.open.campaign.name, ctx.env) };
    if (ctx.open.file.mail === undefined) return base;
    const mailed = await mailNoticeNow(ctx, notice!, opts);
    return { ...base, ...mailed };
  });
}

/**
 * Whether the nation's addresses are a player who has not had the nation's welcome: the seat's record
 * names someone else (the GM changed the address by hand), or there is no record yet and the nation either
 * had no token (a nation in waiting declared after the start) or came in after the start (a civil war, a
 * split, an add): the start's mail never reached them. A replaced token for the same player is not one.
 */
function newPlayer(rt: Runtime, nation: string, def: { email: string[]; breaksFrom?: string | undefined; joined?: number | undefined }, hadToken: boolean): boolean {
  if (def.email.length === 0) return false;
  const tenure = currentTenure(rt, nation);
  if (tenure) return !sameAddresses(tenure.player, def.email);
  return !hadToken || def.breaksFrom !== undefined || def.joined !== undefined;
}

/**
 * Mails a notice the operation added at once rather than with the next tick, and marks it sent. Killed in
 * between, the tick sends it again: it is queued under the same Message-ID, so it goes once.
 */
export async function mailNoticeNow(ctx: GmContext, id: number, opts: GmOptions & { mail?: Omit<MailroomOptions, 'clock'> }): Promise<{ mailedTo: string[]; sent: SendSummary }> {
  const notice = ctx.runtime.notices.find((n) => n.id === id)!;
  const mailed = await sendNoticeMail(ctx.dir, notice, { deadline: ctx.local(ctx.runtime.deadline), deadlineByNation: ctx.byNation(ctx.runtime.deadline) }, { ...opts.mail, clock: mailClock(opts.clock) });
  await failpoint('gm-mail-queued');
  if (mailed.sent.stopped === undefined) {
    notice.sent = true;
    await ctx.save();
  }
  return mailed;
}
