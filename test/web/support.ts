/**
 * Helpers for the web desk's tests: a started copy of the demo campaign (turn 0 written, tokens in a secrets
 * file outside it, the schedule's runtime.yaml, mail by the folder transport), the desk over it on a fake
 * clock, and a small browser stand-in (a cookie jar, forms sent from the desk's own origin).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { expect } from 'vitest';
import { join } from 'node:path';
import { startCampaign } from '../../src/gm/start.js';
import { mailroomHooks } from '../../src/mailroom/tick-hooks.js';
import { reportRenderer } from '../../src/report/renderer.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { readRuntime, type LogEntry } from '../../src/schedule/runtime.js';
import { tick } from '../../src/schedule/tick.js';
import { DeskCampaign } from '../../src/web/campaigns.js';
import { createDesk, type Desk, type DeskOptions } from '../../src/web/desk.js';
import { ADDRESSES, TOKENS } from '../mailroom/support.js';

export { ADDRESSES, TOKENS };
export const ROOT = join(import.meta.dirname, '..', '..');
export const DEMO = join(ROOT, 'campaigns', 'silversheen');
export const GM_SECRET = 'the-gm-desk-secret-for-tests';
export const URL_BASE = 'http://desk.test';
/** The demo's start: turn 1 is due at 18:00 the same day (the weekly default). */
export const START = '2026-03-08T12:00:00Z';

export interface DeskCampaignCopy {
  root: string;
  dir: string;
  secretsFile: string;
  env: NodeJS.ProcessEnv;
  clock: FakeClock;
  cleanup: () => void;
}

/**
 * A copy of the demo, started as `fatecraft start` starts it, with every order to come (the demo's YAML
 * orders removed, its inbox empty). process.env.FATECRAFT_SECRETS points at its secrets file, as the
 * commands (and the tick) read it.
 */
export async function startedDemo(label: string, opts: { slug?: string; start?: string; tokens?: Record<string, string>; gmSecret?: string } = {}): Promise<DeskCampaignCopy> {
  const root = mkdtempSync(join(tmpdir(), `fc-web-${label}-`));
  const dir = join(root, opts.slug ?? 'silversheen');
  cpSync(DEMO, dir, { recursive: true, filter: (p) => p !== join(DEMO, 'fate') });
  for (const name of readdirSync(join(dir, 'orders', '0001'))) if (name.endsWith('.yaml') && name !== '_gm.yaml') rmSync(join(dir, 'orders', '0001', name));
  rmSync(join(dir, 'mail', 'inbox'), { recursive: true, force: true });
  mkdirSync(join(dir, 'mail', 'inbox'), { recursive: true });
  const secretsFile = join(root, 'secrets.yaml');
  writeFileSync(secretsFile, `${Object.entries(opts.tokens ?? TOKENS).map(([n, t]) => `${n}: ${t}`).join('\n')}\nFATECRAFT_GM_SECRET: ${opts.gmSecret ?? GM_SECRET}\n`, { mode: 0o600 });
  process.env.FATECRAFT_SECRETS = secretsFile;
  const env = { ...process.env, FATECRAFT_SECRETS: secretsFile };
  const clock = new FakeClock(opts.start ?? START);
  await startCampaign(dir, { clock, env });
  return { root, dir, secretsFile, env, clock, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** The desk over these campaigns (the copy's clock, no limits in the way unless given). */
export function deskOver(copies: DeskCampaignCopy[], opts: Partial<DeskOptions> = {}): Desk {
  return createDesk({
    campaigns: copies.map((c) => new DeskCampaign(c.dir.split('/').at(-1)!, c.dir, c.env)),
    url: URL_BASE,
    clock: copies[0]!.clock,
    lockWaitMs: 2_000,
    renderers: [reportRenderer()],
    ...opts,
    // Every test client comes from the same (unknown) address: the per-client limit is tested on its own.
    limits: { signInPerClient: { limit: 10_000, windowMs: 60_000 }, ...opts.limits },
  });
}

/** One tick of the schedule, as cron runs it (mail by the folder transport, reports rendered). */
export async function runTick(copy: DeskCampaignCopy) {
  process.env.FATECRAFT_SECRETS = copy.secretsFile;
  const outcome = await tick(copy.dir, { clock: copy.clock, renderers: [reportRenderer()], hooks: mailroomHooks() });
  if (outcome.status !== 'ok') throw new Error(`tick: ${outcome.status}: ${outcome.error}`);
  return outcome;
}

export interface Reply {
  status: number;
  text: string;
  headers: Headers;
  location: string | null;
}

/** A browser stand-in: keeps cookies (by path), sends forms from the desk's own origin unless told otherwise. */
export class Client {
  private cookies = new Map<string, { value: string; path: string }>();

  constructor(private readonly desk: Desk) {}

  private cookieHeader(path: string): string {
    return [...this.cookies.entries()]
      .filter(([, c]) => path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  async request(method: string, path: string, init: { form?: Record<string, string>; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...init.headers };
    const cookie = this.cookieHeader(path.split('?')[0]!);
    if (cookie) headers.cookie = cookie;
    let body: string | undefined = init.body;
    if (init.form) {
      body = new URLSearchParams(init.form).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    }
    if (method === 'POST' && !('origin' in headers) && !('x-no-origin' in headers)) headers.origin = URL_BASE;
    delete headers['x-no-origin'];
    const response = await this.desk.app.request(`${URL_BASE}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      const cookiePath = attrs.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const expired = attrs.some((a) => /^max-age=0$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name!);
      else this.cookies.set(name!, { value, path: cookiePath });
    }
    return { status: response.status, text: await response.text(), headers: response.headers, location: response.headers.get('location') };
  }

  get(path: string, headers: Record<string, string> = {}) {
    return this.request('GET', path, { headers });
  }

  post(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    return this.request('POST', path, { form, headers });
  }

  /** The session cookie's value (to forge, copy or steal in the tests). */
  session(): string | undefined {
    return this.cookies.get('fatecraft_session')?.value;
  }

  setSession(value: string, path: string): void {
    this.cookies.set('fatecraft_session', { value, path });
  }

  /** Signs in with a nation's order token. */
  async signInWithToken(slug: string, token: string): Promise<Reply> {
    return this.post(`/c/${slug}/sign-in/token`, { token });
  }
}

/** The form token a signed-in page carries (every form of the page has the same). */
export function csrfOf(html: string): string {
  const m = /name="csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no form token on the page');
  return m[1]!;
}

/** The messages the folder transport wrote, by file name. */
export function outbox(dir: string): Record<string, string> {
  const folder = join(dir, 'mail', 'outbox');
  if (!existsSync(folder)) return {};
  return Object.fromEntries(readdirSync(folder).sort().map((n) => [n, readFileSync(join(folder, n), 'utf8')]));
}

/** The sign-in link (its path) in the newest sign-in mail to an address, from a desk at `url`. */
export function mailedLink(dir: string, address: string, url = URL_BASE): string {
  const sent = (text: string) => Date.parse(/^Date: (.*)$/m.exec(text)?.[1] ?? '');
  const mails = Object.values(outbox(dir))
    .filter((text) => text.includes(`To: ${address}`) && /Subject: .*sign-in link/i.test(text))
    .sort((a, b) => sent(a) - sent(b));
  const text = mails.at(-1)?.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const at = text?.indexOf(`${url}/c/`) ?? -1;
  const link = text !== undefined && at >= 0 ? /^\S+/.exec(text.slice(at))![0] : undefined;
  if (!link) throw new Error(`no sign-in link mailed to ${address}`);
  return link.slice(url.length);
}

/**
 * The GM, signed in, asks for a preview of the pending turn on the desk at `base`: shown to the GM at its
 * own page, nothing resolved in the campaign at `dir`, the reason in the GM's log. The log's line.
 */
export async function expectGmPreview(gm: Client, base: string, dir: string): Promise<LogEntry> {
  const csrf = csrfOf((await gm.get(`${base}/gm`)).text);
  const done = await gm.post(`${base}/gm/op`, { csrf, op: 'preview', reason: 'to see the battles', confirm: 'yes' });
  expect(done.status).toBe(303);
  expect(done.location).toBe(`${base}/gm/preview/`);
  expect(readdirSync(join(dir, 'turns'))).toEqual(['0000']);
  const preview = await gm.get(done.location!);
  expect(preview.status).toBe(200);
  expect(preview.text).toContain('Preview of turn 1');
  const line = (await readRuntime(dir))!.log.at(-1)!;
  expect(line).toMatchObject({ op: 'preview', reason: 'to see the battles (on the web desk)' });
  return line;
}
