/**
 * The web desk (`fatecraft serve`): a second door into the campaign folders, beside the mail, never a second
 * source of truth. Pages are read from the files as they are (reports as stored, status as `fatecraft
 * status` reads it); everything the desk changes goes through the functions the mail and the commands use:
 * orders through the mailroom (src/mailroom/desk.ts), a player's settings and the GM's operations through
 * the schedule and src/gm, each under the campaign lock.
 *
 * The layer above every other: nothing under src/ but the command line imports it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { csrf } from 'hono/csrf';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { CampaignError } from '../campaign/problems.js';
import type { TurnRenderer } from '../campaign/turn-renderer.js';
import type { MailTransport } from '../mailroom/transport.js';
import { systemClock, type Clock } from '../schedule/clock.js';
import { LockBusyError } from '../schedule/lock.js';
import { forOneRequest, type DeskCampaign } from './campaigns.js';
import { Checker, type CheckerOptions } from './check-pool.js';
import { DeskRefusal, notFound, readSession, type DeskContext, type DeskEnv, type DeskParts } from './context.js';
import { DEFAULT_LIMITS, RateLimiter, type DeskLimits } from './rate-limit.js';
import { gmRoutes } from './routes/gm.js';
import { orderRoutes } from './routes/orders.js';
import { reportRoutes } from './routes/reports.js';
import { signInRoutes } from './routes/sign-in.js';
import { SessionKeys } from './session.js';
import { SignInLinks, type LinkHolder } from './sign-in-links.js';
import { noLayout, Views, webTemplateDir } from './views.js';

export interface DeskOptions {
  campaigns: readonly DeskCampaign[];
  /** The desk's public address, as players reach it: https://desk.example.org (behind a proxy) or http://127.0.0.1:8080. */
  url: string;
  clock?: Clock;
  /** The key sessions are signed with; random when absent (signing in again after a restart). */
  key?: string;
  limits?: Partial<DeskLimits>;
  /** The checker's threads and limits (check-pool.ts). */
  checker?: CheckerOptions;
  lockWaitMs?: number;
  renderers?: TurnRenderer[];
  /**
   * The GM's preview in a thread of its own (the compiled worker: preview.ts), its reports made by the
   * report renderer as `fatecraft serve`'s are. Without it, the preview runs in the desk's thread with `renderers`.
   */
  previewWorker?: string;
  transport?: MailTransport;
  trustProxy?: boolean;
  log?: (line: string) => void;
}

/** The largest form the desk reads: an order sheet at the mail's limit, written out in a form's encoding. */
export const MAX_FORM_BYTES = 1024 * 1024;

const STATIC: Record<string, string> = { 'desk.css': 'text/css; charset=utf-8', 'desk.js': 'text/javascript; charset=utf-8' };

/** The desk: its routes (a fetch handler) and, for its owner, one-time sign-in links made without mail. */
export interface Desk {
  app: Hono<DeskEnv>;
  /** A sign-in link for a nation or the GM (the demo prints them); it works once, for LINK_MINUTES, across restarts. */
  signInLink(slug: string, holder: LinkHolder): Promise<string>;
  /** The checker (its threads), for its owner: held in the tests. */
  checker: Checker;
  /** Ends the checker's threads. */
  close(): Promise<void>;
}

export function createDesk(options: DeskOptions): Desk {
  const clock = options.clock ?? systemClock;
  const url = options.url.replace(/\/+$/, '');
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const campaigns = new Map(options.campaigns.map((c) => [c.slug, c]));
  const parts: DeskParts = {
    campaigns,
    url,
    secure: url.startsWith('https://'),
    clock,
    mailClock: { now: () => clock.now(), sleep: (ms) => clock.sleepUntil(new Date(clock.now().getTime() + ms)) },
    keys: new SessionKeys(options.key),
    links: new SignInLinks((slug) => campaigns.get(slug)?.dir),
    limits: Object.fromEntries(Object.entries(limits).map(([k, rule]) => [k, new RateLimiter(rule)])) as Record<keyof DeskLimits, RateLimiter>,
    views: new Views(),
    checker: new Checker(options.checker),
    lockWaitMs: options.lockWaitMs ?? 20_000,
    renderers: options.renderers ?? [],
    ...(options.previewWorker !== undefined ? { previewWorker: options.previewWorker } : {}),
    ...(options.transport ? { transport: options.transport } : {}),
    trustProxy: options.trustProxy ?? false,
    log: options.log ?? (() => undefined),
  };
  const statics = Object.fromEntries(Object.keys(STATIC).map((name) => [name, readFileSync(join(webTemplateDir(), 'static', name))]));
  const origin = new URL(url).origin;

  const app = new Hono<DeskEnv>();
  app.use(async (c, next) => {
    c.set('parts', parts);
    c.set('styleHashes', []);
    await next();
  });
  app.use(secureHeaders({ strictTransportSecurity: parts.secure ? 'max-age=31536000' : false, referrerPolicy: 'no-referrer', crossOriginEmbedderPolicy: false, xFrameOptions: 'DENY' }));
  // The policy is set after the page is made: a stored report's own style blocks are allowed by their hashes.
  app.use(async (c, next) => {
    await next();
    const styles = ["'self'", ...c.get('styleHashes')].join(' ');
    c.res.headers.set('Content-Security-Policy', `default-src 'none'; script-src 'self'; style-src ${styles}; style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`);
    if (!c.req.path.startsWith('/static/')) c.res.headers.set('Cache-Control', 'no-store');
  });
  app.use(
    bodyLimit({
      maxSize: MAX_FORM_BYTES,
      onError: () => {
        throw new DeskRefusal(413, `The form was larger than ${MAX_FORM_BYTES / 1024} KiB, so it was not read. Orders fit in a few kilobytes: send only your orders.`, 'Too large');
      },
    }),
  );
  // Every form must come from the desk's own pages (Origin or Sec-Fetch-Site); signed-in forms carry a token too.
  const sameOrigin = csrf({ origin: (o, c) => o === origin || o === new URL(c.req.url).origin });
  app.use(async (c, next) => {
    try {
      await sameOrigin(c, next);
    } catch (e) {
      if (e instanceof HTTPException && e.status === 403 && !(e instanceof DeskRefusal)) {
        throw new DeskRefusal(403, 'This form did not come from the desk\'s own pages, so it was refused. Open the desk\'s page and send it from there.', 'Form refused');
      }
      throw e;
    }
  });

  app.get('/static/:file', (c) => {
    const file = c.req.param('file');
    const type = Object.hasOwn(STATIC, file) ? STATIC[file] : undefined;
    if (type === undefined) throw notFound();
    return c.body(statics[file]!, 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=3600' });
  });

  app.get('/', async (c) => {
    const list = await Promise.all([...parts.campaigns.values()].map(async (campaign) => ({ slug: campaign.slug, title: (await campaign.view().catch(() => undefined))?.open.campaign.title ?? campaign.slug })));
    return c.html(parts.views.page('home', { title: 'Fatecraft desk', layout: noLayout('home'), campaigns: list }));
  });

  app.use('/c/:slug/*', async (c, next) => {
    const found = parts.campaigns.get(c.req.param('slug'));
    if (found === undefined) throw notFound();
    const campaign = forOneRequest(found);
    c.set('campaign', campaign);
    // Hono types a path middleware's request input as any; the session reads only what DeskContext has.
    c.set('session', await readSession(c as DeskContext, campaign));
    await next();
  });
  app.get('/c/:slug', (c) => c.redirect(`/c/${c.get('campaign').slug}/`, 301));
  app.get('/c/:slug/', (c) => {
    const session = c.get('session');
    const base = `/c/${c.get('campaign').slug}`;
    return c.redirect(session?.role === 'nation' ? `${base}/report` : session?.role === 'gm' ? `${base}/gm` : `${base}/sign-in`, 303);
  });
  signInRoutes(app);
  reportRoutes(app);
  orderRoutes(app);
  gmRoutes(app);

  app.notFound(() => {
    throw notFound();
  });
  app.onError((error, c) => errorPage(c as DeskContext, error));
  return {
    app,
    async signInLink(slug, holder) {
      if (!parts.campaigns.has(slug)) throw new CampaignError([{ file: slug, message: 'the desk serves no such campaign' }]);
      return `${url}/c/${slug}/sign-in/link?k=${(await parts.links.issue(slug, holder, clock.now().getTime())).key}`;
    },
    checker: parts.checker,
    close: () => parts.checker.close(),
  };
}

/** Every failure is a page with a reason: never a stack trace, never a file path to a player. */
function errorPage(c: DeskContext, error: Error) {
  const parts = c.get('parts');
  let status: number = 500;
  let heading = 'Something went wrong';
  let reason = 'The desk could not do this. Nothing was changed; the GM can find the details in the desk\'s log.';
  if (error instanceof DeskRefusal) {
    status = error.status;
    heading = error.heading;
    reason = error.reason;
  } else if (error instanceof LockBusyError) {
    status = 503;
    heading = 'The campaign is busy';
    reason = 'The campaign is busy with other work (the turn may be being resolved), so nothing was done. Please try again in a minute.';
  } else if (error instanceof HTTPException) {
    status = error.status;
    heading = 'Not possible';
    reason = error.message || 'The request could not be handled.';
  } else if (error instanceof CampaignError && c.get('session')?.role === 'gm') {
    // The GM reads the campaign's own problems (files, lines) as the commands print them.
    status = 409;
    heading = 'Not done';
    reason = error.message;
  } else {
    parts?.log(`${c.req.method} ${c.req.path}: ${error instanceof CampaignError ? error.message : (error.stack ?? String(error))}`);
  }
  const html = parts ? parts.views.page('error', { title: heading, layout: noLayout('error'), heading, reason, back: c.get('campaign') ? `/c/${c.get('campaign').slug}/` : '/' }) : reason;
  return c.html(html, status as 400);
}
