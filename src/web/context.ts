/**
 * What every handler of the desk shares: the desk's parts (campaigns, keys, links, limits, views) and, per
 * request, the campaign it addresses and the session it carries. One gate: a page for a nation reads the
 * nation from the session, never from the address, so no address names another nation's files.
 */
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { HTTPException } from 'hono/http-exception';
import type { NationId } from '../core/ids.js';
import type { TurnRenderer } from '../campaign/turn-renderer.js';
import type { MailTransport } from '../mailroom/transport.js';
import type { MailClock } from '../mailroom/runtime.js';
import type { Clock } from '../schedule/clock.js';
import type { CampaignReader, DeskCampaign } from './campaigns.js';
import type { Checker } from './check-pool.js';
import { RateLimiter, type DeskLimits } from './rate-limit.js';
import { fingerprintOf, SESSION_COOKIE, SessionKeys, type Session } from './session.js';
import { SignInLinks } from './sign-in-links.js';
import { noLayout, Views, type LayoutView } from './views.js';

export interface DeskParts {
  campaigns: ReadonlyMap<string, DeskCampaign>;
  /** The desk's public address (links in mail, the Origin its forms come from), without a trailing slash. */
  url: string;
  /** Cookies only over TLS: the public address is https. */
  secure: boolean;
  clock: Clock;
  mailClock: MailClock;
  keys: SessionKeys;
  links: SignInLinks;
  limits: Record<keyof DeskLimits, RateLimiter>;
  views: Views;
  /** The live check and the receipts of orders on file, off the thread that serves pages (check-pool.ts). */
  checker: Checker;
  /** How long filing orders or a GM operation waits for a campaign busy with a tick (ms). */
  lockWaitMs: number;
  /** What a preview writes besides the state (the report renderers). */
  renderers: TurnRenderer[];
  /** The compiled preview worker, when previews run in a thread of their own (preview.ts). */
  previewWorker?: string;
  /** A transport to use instead of each campaign's own (tests). */
  transport?: MailTransport;
  /** Use X-Forwarded-For from a proxy on this host for the client's address. */
  trustProxy: boolean;
  log: (line: string) => void;
}

export type DeskEnv = {
  Variables: {
    parts: DeskParts;
    campaign: CampaignReader;
    session: Session | undefined;
    /** Extra 'sha256-…' sources for style-src: a stored report's own style blocks. */
    styleHashes: string[];
  };
};

export type DeskContext = Context<DeskEnv>;

/** A page the player or GM may see instead of an error: a status and a reason in plain words. */
export class DeskRefusal extends HTTPException {
  constructor(
    status: 400 | 403 | 404 | 409 | 413 | 429 | 503,
    readonly reason: string,
    readonly heading = 'Not possible',
  ) {
    super(status, { message: reason });
  }
}

export const notFound = () => new DeskRefusal(404, 'There is no such page here, or it is not yours to see.', 'Not found');

/** The session this request carries for its campaign, if it is still good (its secret unchanged). */
export async function readSession(c: DeskContext, campaign: CampaignReader): Promise<Session | undefined> {
  const parts = c.get('parts');
  const session = parts.keys.open(getCookie(c, SESSION_COOKIE), parts.clock.now().getTime());
  if (session === undefined || session.slug !== campaign.slug) return undefined;
  const secrets = await campaign.secrets();
  if (session.role === 'gm') {
    const secret = secrets.secret(GM_SECRET);
    return secret !== undefined && session.fingerprint === fingerprintOf(secret) ? session : undefined;
  }
  const view = await campaign.view();
  if (view.open.campaign.nations[session.nation] === undefined) return undefined;
  return session.fingerprint === fingerprintOf(secrets.token(session.nation)) ? session : undefined;
}

/** The secrets file's key for the GM's desk secret (upper case: a secret, not a nation's token). */
export const GM_SECRET = 'FATECRAFT_GM_SECRET';

export function nationSession(c: DeskContext): Extract<Session, { role: 'nation' }> {
  const session = c.get('session');
  if (session?.role !== 'nation') throw new DeskRefusal(403, 'Sign in as your nation to see this page.', 'Sign in first');
  return session;
}

export function gmSession(c: DeskContext): Extract<Session, { role: 'gm' }> {
  const session = c.get('session');
  if (session?.role !== 'gm') throw new DeskRefusal(403, "Sign in with the GM's desk secret to see this page.", 'Sign in first');
  return session;
}

export const baseOf = (c: DeskContext) => `/c/${c.get('campaign').slug}`;

/** The frame of a page in this campaign, for whoever is signed in. */
export async function layoutOf(c: DeskContext, here: string): Promise<LayoutView> {
  const campaign = c.get('campaign');
  const session = c.get('session');
  const view = await campaign.view();
  const who = session?.role === 'nation' ? (view.open.campaign.nations[session.nation]?.name ?? session.nation) : session?.role === 'gm' ? 'the GM' : null;
  return {
    ...noLayout(here),
    campaignTitle: view.open.campaign.title,
    base: baseOf(c),
    who,
    role: session?.role ?? null,
    csrf: session ? c.get('parts').keys.formToken(session) : null,
  };
}

/** A whole page of this campaign. */
export async function page(c: DeskContext, name: string, here: string, view: Record<string, unknown> & { title: string }, status: 200 | 400 | 409 | 429 | 503 = 200) {
  const layout = await layoutOf(c, here);
  return c.html(c.get('parts').views.page(name, { ...view, layout, base: layout.base, csrf: layout.csrf }), status);
}

/** A whole page with a stored report in it (Views.pageWith): the report's bytes go out as they are. */
export async function pageWithReport(c: DeskContext, name: string, here: string, view: Record<string, unknown> & { title: string }, report: Buffer) {
  const layout = await layoutOf(c, here);
  const html = c.get('parts').views.pageWith(name, { ...view, layout, base: layout.base, csrf: layout.csrf }, report);
  return c.body(new Uint8Array(html.buffer as ArrayBuffer, html.byteOffset, html.byteLength), 200, { 'Content-Type': 'text/html; charset=UTF-8' });
}

/** The body of a form post (urlencoded or multipart), values as text; a file field counts as missing. */
export async function formOf(c: DeskContext): Promise<Record<string, string>> {
  const body = await c.req.parseBody();
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** A signed-in form's token must be the session's: another site cannot make one. */
export function checkFormToken(c: DeskContext, form: Record<string, string>): void {
  const session = c.get('session');
  if (session === undefined || !c.get('parts').keys.checkFormToken(session, form.csrf)) {
    throw new DeskRefusal(403, 'This form is out of date or did not come from this desk (its security token does not match). Go back, reload the page and send it again.', 'Form refused');
  }
}

/** The client's address, for the limits on signing in (the proxy's word for it only when trusted). */
export function clientOf(c: DeskContext): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  const direct = incoming?.socket?.remoteAddress ?? 'unknown';
  if (c.get('parts').trustProxy && /^(?:127\.|::1$|::ffff:127\.)/.test(direct)) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return direct;
}

/** Counts one more against a limit; a page saying to wait when it is used up. */
export function limit(c: DeskContext, which: keyof DeskLimits, key: string, what: string): void {
  const wait = c.get('parts').limits[which].take(key, c.get('parts').clock.now().getTime());
  if (wait !== undefined) {
    const minutes = Math.max(1, Math.ceil(wait / 60_000));
    throw new DeskRefusal(429, `You ${what} too often. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`, 'Too many tries');
  }
}

export type { NationId };
