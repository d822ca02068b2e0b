import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packTurns } from '../../src/campaign/packed-reports.js';
import { playedNations } from '../../src/core/campaign.js';
import type { NationId } from '../../src/core/ids.js';
import type { Desk } from '../../src/web/desk.js';
import { secretsOf } from '../report/leak-secrets.js';
import { decodeEntities, readPlayed, type Played } from '../report/support.js';
import { Client, csrfOf, deskOver, GM_SECRET, runTick, startedDemo, TOKENS, type DeskCampaignCopy, type Reply } from './support.js';

/**
 * The leak test over HTTP: every address the desk answers, walked as every nation, as the GM, as no one and
 * with forged or borrowed sessions, after a turn was played on the desk (letters, notes to the GM) and an
 * older turn packed. No nation reads another's report, receipt, letters, map or order sheet by guessing a
 * turn, a nation or a file name; nothing outside the reports is served; no page redirects off the desk;
 * no error shows a stack trace, a path or a secret; and no refused form changes a file.
 */
let copy: DeskCampaignCopy;
let other: DeskCampaignCopy;
let desk: Desk;
let played: Played;
const base = '/c/silversheen';
const NATIONS = Object.keys(TOKENS);
const OTHER_TOKENS = Object.fromEntries(NATIONS.map((n) => [n, `${TOKENS[n]}-elsewhere`]));

async function signedIn(nation: string, slug = 'silversheen', tokens = TOKENS): Promise<Client> {
  const client = new Client(desk);
  expect((await client.signInWithToken(slug, tokens[nation]!)).status).toBe(303);
  return client;
}

async function gmClient(): Promise<Client> {
  const gm = new Client(desk);
  expect((await gm.post(`${base}/gm/sign-in`, { secret: GM_SECRET })).status).toBe(303);
  return gm;
}

/** Every file of the campaign and its modification time: what a request must leave alone. */
function files(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = statSync(p).mtimeMs;
    }
  };
  walk(dir);
  return out;
}

beforeAll(async () => {
  copy = await startedDemo('access');
  other = await startedDemo('access-other', { slug: 'other', tokens: OTHER_TOKENS, gmSecret: 'another-gm-secret' });
  desk = deskOver([copy, other]);
  const orders: Record<string, string> = {
    argenta: 'move Argentum Guard to 17,5\npress to Gondarahl: The Duke proposes a secret pact against West Valia.\nnote The Duke hides his silver in the cellars of Mirefield.\n',
    gondarahl: 'note King Kharnik plans to betray Argenta in spring.\n',
    grarkul: 'note The Warchief fears the dwarves.\n',
    westvalia: 'note The Thane keeps a spy in Argentum.\n',
  };
  for (const [nation, text] of Object.entries(orders)) {
    const client = await signedIn(nation);
    const csrf = csrfOf((await client.get(`${base}/orders`)).text);
    expect((await client.post(`${base}/orders`, { csrf, action: 'file', turn: '1', text })).status).toBe(303);
  }
  copy.clock.set('2026-03-08T19:00:00Z');
  expect((await runTick(copy)).resolved).toEqual([1]);
  await packTurns(copy.dir, [0]);
  const gm = await gmClient();
  const csrf = csrfOf((await gm.get(`${base}/gm`)).text);
  expect((await gm.post(`${base}/gm/op`, { csrf, op: 'preview', reason: 'the walk', confirm: 'yes' })).status).toBe(303);
  played = await readPlayed(copy.dir, () => undefined);
}, 120_000);
afterAll(() => {
  copy?.cleanup();
  other?.cleanup();
});

/** Every address pattern the desk has, with the guesses a curious player would try. */
function addresses(): string[] {
  const guesses = ['0', '1', '2', '00001', '-1', '1e0', '1.0', '99', '..', '..%2f..%2fcampaign.yaml', '%2e%2e', '1%00'];
  const names = [...NATIONS, 'gm', 'nations', 'argenta.yaml', 'argenta-orders.yaml', '..%2fstate.yaml', '..%2f..%2fruntime.yaml', '%2e%2e%2f%2e%2e%2fcampaign.yaml', 'ARGENTA'];
  const list = ['/', '/static/desk.css', '/static/desk.js', '/static/..%2flayout.hbs', '/static/%2e%2e%2f%2e%2e%2fweb%2flayout.hbs', '/static/', '/c/', '/c/nope/report', '/c/silversheen', `${base}/`, `${base}/sign-in`, `${base}/sign-in/link?k=guess`, `${base}/gm/sign-in`];
  list.push(`${base}/report`, `${base}/turns`, `${base}/orders`, `${base}/gm`, `${base}/gm/preview/`);
  for (const n of NATIONS) list.push(`${base}/report?nation=${n}`, `${base}/orders?nation=${n}`, `${base}/turns/1?nation=${n}`, `${base}/turns/1/text?nation=${n}`, `${base}/${n}`, `${base}/${n}/report`, `${base}/turns/1/${n}.html`, `${base}/turns/1/${n}`);
  for (const t of guesses) list.push(`${base}/turns/${t}`, `${base}/turns/${t}/text`, `${base}/gm/turns/${t}/`);
  for (const name of names) list.push(`${base}/gm/turns/1/${name}`, `${base}/gm/turns/1/${name}.html`, `${base}/gm/turns/0/${name}.html`, `${base}/gm/preview/${name}.html`, `${base}/gm/preview/${name}`);
  list.push('/c/other/report', '/c/other/gm', `${base}/..%2fother/report`, '/c/silversheen/%2e%2e/other/report', '//evil.example/', `${base}//evil.example`, `${base}/sign-in?next=https://evil.example`, '/c/silversheen/sign-in/link?k=' + 'x'.repeat(5000));
  return list;
}

const SECRETS = [...Object.values(TOKENS), ...Object.values(OTHER_TOKENS), GM_SECRET, 'another-gm-secret'];

/** What no answer may ever hold, whoever asks. */
function checkAnyAnswer(path: string, who: string, r: Reply): void {
  const where = `${who} GET ${path}`;
  expect(r.status, `${where}: a server error`).toBeLessThan(500);
  for (const secret of SECRETS) expect(r.text.includes(secret), `${where} shows a token or secret`).toBe(false);
  expect(r.text, `${where} shows a path on the server`).not.toContain(copy.root);
  expect(r.text, `${where} shows a stack trace`).not.toMatch(/\n\s+at .+\(.*:\d+:\d+\)/);
  if (r.location !== null) expect(r.location, `${where} redirects off the desk`).toMatch(/^\/(?!\/)/);
  // Nothing outside the reports and the desk's own files: campaign.yaml, state, runtime, orders, templates.
  for (const marker of ['leaderAbility:', 'campaignSeed', '\nunits:\n', 'version: 1\nturn:', '{{#if', 'format: fatecraft-nation-report']) expect(r.text.includes(marker), `${where} serves a file the desk keeps to itself (${marker.trim()})`).toBe(false);
}

describe('every address, as everyone', () => {
  it('as no one: sign-in pages and the desk\'s own files only; every page of a nation or the GM asks to sign in', async () => {
    const anon = new Client(desk);
    for (const path of addresses()) {
      const r = await anon.get(path);
      checkAnyAnswer(path, 'no one', r);
      const open = /^\/(?:$|static\/desk\.(?:css|js)$)|\/sign-in(?:\/link\?k=guess|\?next=.*)?$|\/gm\/sign-in$|^\/c\/silversheen\/?$/.test(path);
      if (!open) expect(r.status, `no one GET ${path}`).not.toBe(200);
      for (const owner of playedNations(played.open.campaign)) {
        for (const t of played.turns) for (const s of secretsOf(t, played, owner, NATIONS.find((n) => n !== owner) as NationId, false)) expect(s.test(decodeEntities(r.text)), `no one GET ${path} shows ${owner}'s ${s.what}`).toBe(false);
      }
    }
  });

  it('as each nation: its own pages only; nothing of another nation by any turn, name or file', async () => {
    let pages = 0;
    for (const reader of NATIONS) {
      const client = await signedIn(reader);
      for (const path of addresses()) {
        const r = await client.get(path);
        checkAnyAnswer(path, reader, r);
        if (/\/gm(?:\/|$)/.test(path.split('?')[0]!) && !path.endsWith('/gm/sign-in')) expect(r.status, `${reader} GET ${path}`).not.toBe(200);
        if (path.startsWith('/c/other') || path.includes('%2fother')) expect(r.status, `${reader} GET ${path}`).not.toBe(200);
        if (r.status !== 200) continue;
        pages++;
        const text = decodeEntities(r.text);
        for (const owner of NATIONS) {
          if (owner === reader) continue;
          for (const t of played.turns) for (const s of secretsOf(t, played, owner as NationId, reader as NationId, false)) expect(s.test(text), `${reader} GET ${path} shows ${owner}'s ${s.what}`).toBe(false);
          // Another nation's order sheet, receipt or report header.
          const name = played.open.campaign.nations[owner as NationId]!.name;
          expect(text.includes(`Orders for ${name}, turn`), `${reader} GET ${path} shows ${owner}'s order sheet`).toBe(false);
          expect(/<title>[^<]*<\/title>/.exec(text)?.[0].includes(`— ${name} —`) ?? false, `${reader} GET ${path} is ${owner}'s page`).toBe(false);
        }
      }
    }
    expect(pages).toBeGreaterThan(50);
  });

  it("each nation's report of every turn is its own, packed turns included", async () => {
    for (const reader of NATIONS) {
      const client = await signedIn(reader);
      const name = played.open.campaign.nations[reader as NationId]!.name;
      for (const turn of [0, 1]) {
        const r = await client.get(`${base}/turns/${turn}`);
        expect(r.status).toBe(200);
        expect(/<title>[^<]*<\/title>/.exec(r.text)?.[0]).toContain(`— ${name} —`);
        // The map of the report as stored (turn 0's from the packed archive).
        expect(r.text).toContain('class="fatecraft-map"');
      }
    }
  });

  it('the GM reads every report; a nation none of the GM\'s pages', async () => {
    const gm = await gmClient();
    for (const path of addresses()) checkAnyAnswer(path, 'the GM', await gm.get(path));
    expect((await gm.get(`${base}/gm/turns/0/argenta.html`)).status).toBe(200);
    expect((await gm.get(`${base}/gm/turns/1/gondarahl.html`)).text).toContain('Kingdom of Gondarahl');
    expect((await gm.get(`${base}/gm/preview/`)).text).toContain('Preview of turn 2');
  });

  it('a forged, altered or borrowed session is no session', async () => {
    const argenta = await signedIn('argenta');
    const cookie = argenta.session()!;
    const [body, mac] = cookie.split('.');
    const session = JSON.parse(Buffer.from(body!, 'base64url').toString()) as Record<string, unknown>;
    const forge = (change: Record<string, unknown>) => `${Buffer.from(JSON.stringify({ ...session, ...change })).toString('base64url')}.${mac}`;
    const cases: [string, string, string][] = [
      ['another nation in the same signature', forge({ nation: 'gondarahl' }), base],
      ['the GM in the same signature', forge({ role: 'gm' }), base],
      ['a signature cut short', `${body}.${mac!.slice(0, 10)}`, base],
      ['no signature', body!, base],
      ['a session of this campaign on another campaign', cookie, '/c/other'],
    ];
    for (const [what, value, path] of cases) {
      const thief = new Client(desk);
      thief.setSession(value, path);
      for (const page of ['/report', '/orders', '/turns/1', '/gm']) {
        const r = await thief.get(`${path}${page}`);
        expect(r.status, `${what}: ${path}${page}`).toBe(403);
      }
    }
    // The other campaign's own session works there and only there.
    const there = await signedIn('argenta', 'other', OTHER_TOKENS);
    expect((await there.get('/c/other/report')).status).toBe(200);
    there.setSession(there.session()!, base);
    expect((await there.get(`${base}/report`)).status).toBe(403);
  });
});

describe('forms', () => {
  it('every form refuses a post from another site, without the form token, or with another session\'s; none changes a file', async () => {
    const argenta = await signedIn('argenta');
    const gondarahl = await signedIn('gondarahl');
    const gm = await gmClient();
    const mine = csrfOf((await argenta.get(`${base}/orders`)).text);
    const theirs = csrfOf((await gondarahl.get(`${base}/orders`)).text);
    const before = files(copy.dir);
    const posts: [Client, string, Record<string, string>][] = [
      [argenta, `${base}/orders`, { action: 'file', turn: '2', text: 'note forged\n' }],
      [argenta, `${base}/orders/check`, { text: 'note forged\n' }],
      [argenta, `${base}/settings`, { setting: 'wait', wait: 'yes' }],
      [argenta, `${base}/sign-out`, {}],
      [gm, `${base}/gm/op`, { op: 'pause', reason: 'forged', confirm: 'yes' }],
      [gm, `${base}/gm/alerts/1`, {}],
    ];
    for (const [client, path, form] of posts) {
      const other = client === gm ? csrfOf((await gm.get(`${base}/gm`)).text) : mine;
      const cross = await client.post(path, { ...form, csrf: other }, { origin: 'https://evil.example' });
      expect(cross.status, `${path} from another site`).toBe(403);
      expect(cross.text).toContain('did not come from the desk');
      const blind = await client.post(path, { ...form, csrf: other }, { 'x-no-origin': '1' });
      expect(blind.status, `${path} with no Origin`).toBe(403);
      const sameSiteFetch = await client.post(path, { ...form, csrf: other }, { 'x-no-origin': '1', 'sec-fetch-site': 'cross-site' });
      expect(sameSiteFetch.status, `${path} marked cross-site`).toBe(403);
      if (path.endsWith('/sign-out')) continue;
      expect((await client.post(path, form)).status, `${path} without the form token`).toBe(403);
      expect((await client.post(path, { ...form, csrf: theirs })).status, `${path} with another session's token`).toBe(403);
    }
    // Sign-in forms too: no one signs a victim in from another site.
    expect((await new Client(desk).post(`${base}/sign-in/token`, { token: TOKENS.argenta! }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await new Client(desk).post(`${base}/gm/sign-in`, { secret: GM_SECRET }, { origin: 'https://evil.example' })).status).toBe(403);
    expect(files(copy.dir)).toEqual(before);
  });

  it('no address changes a file when read', async () => {
    const before = files(copy.dir);
    const clients = [new Client(desk), await signedIn('argenta'), await gmClient()];
    for (const client of clients) for (const path of addresses()) await client.get(path);
    expect(files(copy.dir)).toEqual(before);
  });

  it('a nation files for itself only, whatever the form says', async () => {
    const argenta = await signedIn('argenta');
    const csrf = csrfOf((await argenta.get(`${base}/orders`)).text);
    const r = await argenta.post(`${base}/orders`, { csrf, action: 'file', turn: '2', nation: 'gondarahl', text: 'nation: gondarahl\nnote mine\n' });
    expect(r.status).toBe(409);
    expect(r.text).toContain('these orders say they are for &quot;gondarahl&quot;, but they were checked as argenta');
    const folder = join(copy.dir, 'orders', '0002');
    const files2 = existsSync(folder) ? readdirSync(folder) : [];
    expect(files2).not.toContain('gondarahl.yaml');
    expect(files2).not.toContain('argenta.yaml');
    expect(readFileSync(join(copy.dir, 'runtime.yaml'), 'utf8')).not.toContain('forged');
  });
});
