/**
 * Signing in. A player asks for a link mailed to the nation's registered address (the page answers the same
 * whether the address is registered or not, but says so when it was asked too often), or gives the order
 * token. The mailed link opens a page whose button signs in: mail scanners that follow links burn nothing.
 * The GM signs in with the desk secret from the secrets file (FATECRAFT_GM_SECRET).
 */
import type { Hono } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { CampaignError } from '../../campaign/problems.js';
import { addressOf } from '../../mailroom/config.js';
import { mailSignInLink } from '../../mailroom/desk.js';
import { localTime } from '../../schedule/deadline.js';
import { tokenStatus } from '../../campaign/secrets.js';
import { asNationId, type NationId } from '../../core/ids.js';
import { baseOf, checkFormToken, clientOf, DeskRefusal, formOf, GM_SECRET, limit, page, type DeskContext, type DeskEnv } from '../context.js';
import { fingerprintOf, newSessionId, SESSION_COOKIE, SESSION_DAYS, type Session } from '../session.js';
import { LINK_MINUTES } from '../sign-in-links.js';

export function signInRoutes(app: Hono<DeskEnv>): void {
  app.get('/c/:slug/sign-in', async (c) => signInPage(c, {}));

  app.post('/c/:slug/sign-in/link', async (c) => {
    const form = await formOf(c);
    limit(c, 'signInPerClient', clientOf(c), 'tried to sign in');
    const address = addressOf((form.address ?? '').trim().slice(0, 320))?.toLowerCase();
    if (address === undefined) return signInPage(c, { linkError: 'Write the address your nation is registered with, e.g. name@example.org.' }, 400);
    limit(c, 'linkPerAddress', `${c.get('campaign').slug}:${address}`, 'asked for a link for this address');
    const campaign = c.get('campaign');
    const view = await campaign.view();
    if (view.open.file.mail === undefined) return signInPage(c, { linkError: 'This campaign sends no mail, so it cannot mail you a link: sign in with your order token.' }, 400);
    const parts = c.get('parts');
    const now = parts.clock.now();
    const nations = Object.entries(view.open.file.nations)
      .filter(([, n]) => n.email.some((e) => addressOf(e)?.toLowerCase() === address))
      .map(([id]) => asNationId(id));
    const secrets = await campaign.secrets();
    for (const nation of nations) {
      const { key, digest, expires } = await parts.links.issue(campaign.slug, { role: 'nation', nation }, now.getTime());
      const link = { nation, nationName: view.open.campaign.nations[nation]?.name ?? nation, url: `${parts.url}${baseOf(c)}/sign-in/link?k=${key}`, expires: localTime(new Date(expires), view.schedule.timeZone), digest };
      try {
        await mailSignInLink(campaign.dir, link, { clock: parts.mailClock, secrets, ...(parts.transport ? { transport: parts.transport } : {}), log: parts.log });
      } catch (e) {
        // Another mail run (a tick reading the mail) holds the mail lock: the link is for another minute.
        if (e instanceof CampaignError) throw new DeskRefusal(503, 'The campaign is busy with its mail just now, so no link was sent. Please ask again in a minute.', 'Busy');
        throw e;
      }
    }
    return page(c, 'link-sent', 'sign-in', { title: 'Check your mail', address, minutes: LINK_MINUTES });
  });

  // The mailed link: a page with a button; opening it uses nothing.
  app.get('/c/:slug/sign-in/link', async (c) => {
    const key = c.req.query('k') ?? '';
    const parts = c.get('parts');
    const holder = key.length <= 100 ? await parts.links.peek(c.get('campaign').slug, key, parts.clock.now().getTime()) : undefined;
    const view = await c.get('campaign').view();
    const name = holder === undefined ? null : holder.role === 'gm' ? 'the GM' : (view.open.campaign.nations[holder.nation]?.name ?? holder.nation);
    return page(c, 'link-landing', 'sign-in', { title: 'Sign in', key: holder ? key : null, nationName: name }, holder ? 200 : 400);
  });

  app.post('/c/:slug/sign-in/link/confirm', async (c) => {
    const form = await formOf(c);
    limit(c, 'signInPerClient', clientOf(c), 'tried to sign in');
    const parts = c.get('parts');
    const holder = await parts.links.redeem(c.get('campaign').slug, (form.k ?? '').slice(0, 100), parts.clock.now().getTime());
    if (holder === undefined) throw new DeskRefusal(400, 'This sign-in link has been used or has expired. Ask for a new one on the sign-in page.', 'Link expired');
    if (holder.role === 'gm') return signInAsGm(c);
    return signInAs(c, holder.nation);
  });

  app.post('/c/:slug/sign-in/token', async (c) => {
    const form = await formOf(c);
    limit(c, 'signInPerClient', clientOf(c), 'tried to sign in');
    const given = (form.token ?? '').trim().slice(0, 200);
    const campaign = c.get('campaign');
    const view = await campaign.view();
    const secrets = await campaign.secrets();
    // Checked against every nation's token in constant time, each of them: the time says nothing of which one.
    let owner: NationId | undefined;
    for (const nation of secrets.nationsWithTokens()) {
      if (tokenStatus(secrets.token(nation), [], given) === 'ok' && view.open.campaign.nations[asNationId(nation)]) owner ??= asNationId(nation);
    }
    if (owner === undefined) return signInPage(c, { tokenError: 'That is not an order token of this campaign. It is at the top of your latest turn report; a token the GM has replaced no longer works.' }, 400);
    return signInAs(c, owner);
  });

  app.post('/c/:slug/sign-out', async (c) => {
    const form = await formOf(c);
    if (c.get('session')) checkFormToken(c, form);
    deleteCookie(c, SESSION_COOKIE, { path: baseOf(c), secure: c.get('parts').secure });
    return c.redirect(`${baseOf(c)}/sign-in`, 303);
  });

  app.get('/c/:slug/gm/sign-in', async (c) => page(c, 'gm-sign-in', 'gm', { title: "The GM's sign-in", error: null }));

  app.post('/c/:slug/gm/sign-in', async (c) => {
    const form = await formOf(c);
    limit(c, 'signInPerClient', clientOf(c), 'tried to sign in');
    const secrets = await c.get('campaign').secrets();
    const secret = secrets.secret(GM_SECRET);
    if (secret === undefined) return page(c, 'gm-sign-in', 'gm', { title: "The GM's sign-in", error: `No desk secret is set for the GM: add a line "${GM_SECRET}: <a long secret>" to the campaign's secrets file and sign in with it.` }, 400);
    if (tokenStatus(secret, [], (form.secret ?? '').slice(0, 500)) !== 'ok') return page(c, 'gm-sign-in', 'gm', { title: "The GM's sign-in", error: 'That is not the desk secret.' }, 400);
    return signInAsGm(c);
  });
}

async function signInPage(c: DeskContext, errors: { linkError?: string; tokenError?: string }, status: 200 | 400 = 200) {
  const view = await c.get('campaign').view();
  return page(c, 'sign-in', 'sign-in', { title: 'Sign in', mail: view.open.file.mail !== undefined, minutes: LINK_MINUTES, linkError: errors.linkError ?? null, tokenError: errors.tokenError ?? null }, status);
}

async function signInAs(c: DeskContext, nation: NationId) {
  const campaign = c.get('campaign');
  const secrets = await campaign.secrets();
  setSession(c, { role: 'nation', slug: campaign.slug, nation, issued: c.get('parts').clock.now().getTime(), fingerprint: fingerprintOf(secrets.token(nation)), id: newSessionId() });
  return c.redirect(`${baseOf(c)}/report`, 303);
}

async function signInAsGm(c: DeskContext) {
  const secret = (await c.get('campaign').secrets()).secret(GM_SECRET);
  if (secret === undefined) throw new DeskRefusal(403, `No desk secret is set for the GM: add "${GM_SECRET}: <a long secret>" to the campaign's secrets file.`, 'Not signed in');
  setSession(c, { role: 'gm', slug: c.get('campaign').slug, issued: c.get('parts').clock.now().getTime(), fingerprint: fingerprintOf(secret), id: newSessionId() });
  return c.redirect(`${baseOf(c)}/gm`, 303);
}

function setSession(c: DeskContext, session: Session): void {
  const parts = c.get('parts');
  setCookie(c, SESSION_COOKIE, parts.keys.seal(session), { path: baseOf(c), httpOnly: true, sameSite: 'Lax', secure: parts.secure, maxAge: SESSION_DAYS[session.role] * 24 * 3600 });
}
