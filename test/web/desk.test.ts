import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import jsyaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/mailroom/ledger.js';
import { fetchMail } from '../../src/mailroom/fetch.js';
import { readRuntime } from '../../src/schedule/runtime.js';
import type { Desk } from '../../src/web/desk.js';
import { decodeEntities } from '../report/support.js';
import { ADDRESSES, Client, csrfOf, deskOver, expectGmPreview, mailedLink, outbox, runTick, startedDemo, TOKENS, type DeskCampaignCopy } from './support.js';

/**
 * The web desk as a player and the GM use it, in-process: sign in (token, mailed link), read the reports,
 * check and file orders (filed exactly as a mail with the token would be), the deadline, the settings, the
 * GM's status and operations. The browser test (browser.test.ts) walks the same paths in Chromium.
 */
let copy: DeskCampaignCopy;
let desk: Desk;
const base = '/c/silversheen';

beforeAll(async () => {
  copy = await startedDemo('desk');
  desk = deskOver([copy]);
});
afterAll(() => copy?.cleanup());

async function player(nation: string): Promise<Client> {
  const client = new Client(desk);
  const r = await client.signInWithToken('silversheen', TOKENS[nation]!);
  expect(r.status).toBe(303);
  return client;
}

const ordersFile = (nation: string, turn = 1) => join(copy.dir, 'orders', String(turn).padStart(4, '0'), `${nation}.yaml`);

describe('signing in', () => {
  it('with the order token: a session cookie, HttpOnly and SameSite, scoped to the campaign; no token in any address', async () => {
    const client = new Client(desk);
    const wrong = await client.signInWithToken('silversheen', 'not-a-token');
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('not an order token of this campaign');
    const right = await client.post(`${base}/sign-in/token`, { token: TOKENS.argenta! });
    expect(right.status).toBe(303);
    expect(right.location).toBe(`${base}/report`);
    const cookie = right.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/^fatecraft_session=/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain(`Path=${base}`);
    expect(cookie).not.toContain('Secure'); // http://desk.test: no TLS
    expect(cookie).not.toContain(TOKENS.argenta!);
    const report = await client.get(`${base}/report`);
    expect(report.status).toBe(200);
    expect(report.text).toContain('Duchy of Argenta');
  });

  it('Secure cookies when the desk is reached over TLS', async () => {
    const tls = deskOver([copy], { url: 'https://desk.example.org' });
    const response = await tls.app.request(`https://desk.example.org${base}/sign-in/token`, { method: 'POST', headers: { origin: 'https://desk.example.org', 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${TOKENS.argenta}` });
    expect(response.status).toBe(303);
    expect(response.headers.getSetCookie()[0]).toContain('Secure');
    expect(response.headers.get('strict-transport-security')).toContain('max-age=');
  });

  it('with a mailed link: the link opens a page whose button signs in; the link works once', async () => {
    const client = new Client(desk);
    const asked = await client.post(`${base}/sign-in/link`, { address: ADDRESSES.argenta! });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('a sign-in link is on its way');
    const link = mailedLink(copy.dir, ADDRESSES.argenta!);
    // A mail scanner opening the link twice uses nothing up.
    for (let i = 0; i < 2; i++) {
      const landing = await client.get(link);
      expect(landing.status).toBe(200);
      expect(landing.text).toContain('Sign in as Duchy of Argenta');
      expect(client.session()).toBeUndefined();
    }
    const key = new URL(`http://x${link}`).searchParams.get('k')!;
    const confirmed = await client.post(`${base}/sign-in/link/confirm`, { k: key });
    expect(confirmed.status).toBe(303);
    expect(confirmed.location).toBe(`${base}/report`); // no key in the address after signing in
    expect((await client.get(`${base}/report`)).text).toContain('Duchy of Argenta');
    const again = await new Client(desk).post(`${base}/sign-in/link/confirm`, { k: key });
    expect(again.status).toBe(400);
    expect(again.text).toContain('has been used or has expired');
  });

  it('a new link replaces the older one, and a link expires after 15 minutes', async () => {
    const client = new Client(desk);
    await client.post(`${base}/sign-in/link`, { address: ADDRESSES.gondarahl! });
    const first = new URL(`http://x${mailedLink(copy.dir, ADDRESSES.gondarahl!)}`).searchParams.get('k')!;
    copy.clock.advance(1000);
    await client.post(`${base}/sign-in/link`, { address: ADDRESSES.gondarahl! });
    const second = new URL(`http://x${mailedLink(copy.dir, ADDRESSES.gondarahl!)}`).searchParams.get('k')!;
    expect(second).not.toBe(first);
    expect((await client.post(`${base}/sign-in/link/confirm`, { k: first })).status).toBe(400);
    const expiring = (await desk.signInLink('silversheen', { role: 'nation', nation: 'grarkul' as never })).replace('http://desk.test', '');
    copy.clock.advance(15 * 60_000 + 1000);
    expect((await client.get(expiring)).text).toContain('This link no longer works');
    expect((await client.post(`${base}/sign-in/link/confirm`, { k: new URL(`http://x${expiring}`).searchParams.get('k')! })).status).toBe(400);
  });

  it('an unknown address gets the same answer and no mail; asking too often is said', async () => {
    const before = Object.keys(outbox(copy.dir)).length;
    const client = new Client(desk);
    const unknown = await client.post(`${base}/sign-in/link`, { address: 'stranger@example.org' });
    expect(unknown.status).toBe(200);
    expect(unknown.text).toContain('If stranger@example.org is registered for a nation in this campaign, a sign-in link is on its way');
    expect(Object.keys(outbox(copy.dir)).length).toBe(before);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await client.post(`${base}/sign-in/link`, { address: ADDRESSES.westvalia! }));
    expect(answers.slice(0, 3).map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers[3]!.status).toBe(429);
    expect(answers[3]!.text).toContain('asked for a link for this address too often');
  });

  it('a replaced order token ends the sessions made with it', async () => {
    const client = await player('vulcanstille');
    expect((await client.get(`${base}/report`)).status).toBe(200);
    const secrets = readFileSync(copy.secretsFile, 'utf8');
    writeFileSync(copy.secretsFile, secrets.replace(`vulcanstille: ${TOKENS.vulcanstille}`, 'vulcanstille: a-brand-new-token'));
    try {
      const after = await client.get(`${base}/report`);
      expect(after.status).toBe(403);
      expect(after.text).toContain('Sign in as your nation');
    } finally {
      writeFileSync(copy.secretsFile, secrets);
    }
  });
});

describe('reports', () => {
  it("this turn's report is the stored file's body, its styles allowed by hash in a strict policy, with a list of what is where", async () => {
    const client = await player('argenta');
    const page = await client.get(`${base}/report`);
    const stored = readFileSync(join(copy.dir, 'turns', '0000', 'reports', 'argenta.html'), 'utf8');
    const svg = /<svg[^>]*class="fatecraft-map"[\s\S]*?<\/svg>/.exec(stored)![0];
    expect(page.text).toContain(svg);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    // No inline script or style block; only style attributes (the map sets its own width) are allowed inline.
    expect(csp).not.toMatch(/(?:script|style)-src [^;]*unsafe-inline/);
    expect(csp).toContain("style-src-attr 'unsafe-inline'");
    expect(csp).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(page.text).not.toContain('<script>');
    expect(page.text).toContain('What is where');
    expect(page.text).toMatch(/<th scope="row">18,7<\/th><td><ul class="plain">.*Argentum Guard/);
  });

  it('the text report is served as text', async () => {
    const client = await player('argenta');
    const text = await client.get(`${base}/turns/0/text`);
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toContain('text/plain');
    expect(text.text).toBe(readFileSync(join(copy.dir, 'turns', '0000', 'reports', 'argenta.txt'), 'utf8'));
  });
});

describe('orders', () => {
  it('the form is pre-filled with the order sheet of the latest report', async () => {
    const client = await player('argenta');
    const page = await client.get(`${base}/orders`);
    expect(page.text).toContain('filled in from the order sheet of your latest report');
    expect(page.text).toContain('# Orders for Duchy of Argenta, turn 1');
    expect(page.text).toContain('Due Sun 8 Mar 2026 18:00 GMT');
  });

  it('the pre-filled sheet with an order uncommented is read as the YAML it is', async () => {
    const client = await player('grarkul');
    const page = await client.get(`${base}/orders`);
    const sheet = decodeEntities(/<textarea[^>]*>([\s\S]*?)<\/textarea>/.exec(page.text)![1]!);
    const option = /^ {2}# (- \{move: [^\n]*?\})/m.exec(sheet)!;
    const edited = sheet.replace(option[0], `  ${option[1]}`);
    const check = await client.post(`${base}/orders/check`, { csrf: csrfOf(page.text), turn: '1', text: edited });
    expect(check.text).toContain('All 1 order is valid');
  });

  it('the live check points at the line of a typo, with a suggestion; nothing is filed', async () => {
    const client = await player('argenta');
    const csrf = csrfOf((await client.get(`${base}/orders`)).text);
    const check = await client.post(`${base}/orders/check`, { csrf, text: 'hold Harbour Marines\nmove Argentum Gaurd to 17,5\n' });
    expect(check.status).toBe(200);
    expect(check.text).toContain('data-line="2">line 2</a>: <q>move Argentum Gaurd to 17,5</q>');
    expect(check.text).toContain('did you mean &quot;Argentum Guard&quot;?');
    expect(check.text).toContain('1 valid, 1 with problems');
    expect(existsSync(ordersFile('argenta'))).toBe(false);
  });

  it('filing: the orders on file, the receipt mailed, the submission in the ledger; the page then shows what is on file', async () => {
    const client = await player('argenta');
    const csrf = csrfOf((await client.get(`${base}/orders`)).text);
    const filed = await client.post(`${base}/orders`, { csrf, action: 'file', turn: '1', text: 'move Argentum Guard to 17,5\nhold Harbour Marines\n' });
    expect(filed.status).toBe(303);
    expect(filed.location).toBe(`${base}/orders?done=filed`);
    const yaml = readFileSync(ordersFile('argenta'), 'utf8');
    expect(yaml).toMatch(/^# Orders of argenta for turn 1, filed on the web desk\./);
    const receipts = Object.entries(outbox(copy.dir)).filter(([name]) => name.startsWith('fatecraft.receipt.argenta'));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]![1]).toContain(`To: ${ADDRESSES.argenta}`);
    expect(receipts[0]![1]).toContain('Line numbers count the lines of the order form');
    const entries = (await new Ledger(join(copy.dir, 'mail')).all()).filter((e) => e.key.startsWith('desk:'));
    expect(entries.map((e) => [e.status, e.decision?.kind])).toEqual([['done', 'file']]);
    const page = await client.get(filed.location!);
    expect(page.text).toContain('Your orders are on file');
    expect(page.text).toContain('What is on file for turn 1');
    expect(page.text).toContain('filled in from your orders on file');
    expect(page.text).toContain('move Argentum Guard to 17,5\nhold Harbour Marines');
  });

  it('the same orders by mail with the token are filed the same, with the same receipt', async () => {
    const text = 'move Argentum Guard to 17,5\nhold Harbour Marines\nmove Quicksilver Riders to 23,5\nanswer nothing\npress to Gondarahl: Greetings from the Duke.\n';
    const client = await player('argenta');
    const csrf = csrfOf((await client.get(`${base}/orders`)).text);
    const earlier = readFileSync(ordersFile('argenta'), 'utf8');
    copy.clock.advance(60_000); // this submission is the ledger's latest
    await client.post(`${base}/orders`, { csrf, action: 'file', turn: '1', text });
    const byDesk = jsyaml.load(readFileSync(ordersFile('argenta'), 'utf8')) as object;
    const deskEntry = (await new Ledger(join(copy.dir, 'mail')).all()).filter((e) => e.key.startsWith('desk:')).at(-1)!;
    // The mail finds the same on file as the desk did: the orders of the test before.
    writeFileSync(ordersFile('argenta'), earlier);
    const mail = [`From: ${ADDRESSES.argenta}`, 'To: turns@silversheen.test', 'Subject: Orders argenta turn 1', 'Message-ID: <same-orders@argenta.test>', 'Date: Sun, 08 Mar 2026 12:00:00 +0000', 'Content-Type: text/plain; charset=utf-8', '', `${text}Token: ${TOKENS.argenta}\n`].join('\r\n');
    writeFileSync(join(copy.dir, 'mail', 'inbox', 'same.eml'), mail);
    await fetchMail(copy.dir, { clock: { now: () => copy.clock.now(), sleep: async () => undefined } });
    const byMail = jsyaml.load(readFileSync(ordersFile('argenta'), 'utf8')) as object;
    expect(byDesk).toEqual(byMail);
    const mailEntry = (await new Ledger(join(copy.dir, 'mail')).all()).find((e) => e.key.includes('same-orders'))!;
    const receiptOf = (d: typeof deskEntry.decision) => (d && 'receipt' in d ? { ...d.receipt, linesOf: undefined } : undefined);
    expect(receiptOf(deskEntry.decision)).toEqual(receiptOf(mailEntry.decision));
    expect(deskEntry.decision?.kind).toBe('file');
  });

  it('answers, letters and giving up work add their lines to the form (without a script)', async () => {
    const client = await player('argenta');
    const csrf = csrfOf((await client.get(`${base}/orders`)).text);
    const letter = await client.post(`${base}/orders`, { csrf, action: 'add-letter', text: 'hold Harbour Marines', to: 'Gondarahl', letter: 'We come in peace.', unsigned: 'yes' });
    expect(letter.text).toContain('hold Harbour Marines\npress unsigned to Gondarahl: We come in peace.\n</textarea>');
    const answer = await client.post(`${base}/orders`, { csrf, action: 'add-answer', text: 'hold Harbour Marines\n', answer: 'bandit-chief ride-out', fate: '2' });
    expect(answer.text).toContain('hold Harbour Marines\nanswer bandit-chief ride-out fate 2\n</textarea>');
    const abandon = await client.post(`${base}/orders`, { csrf, action: 'abandon:2', text: 'hold Harbour Marines\nmove Guild Surveyors to 25,5\n' });
    expect(abandon.text).toContain('hold Harbour Marines\nmove Guild Surveyors to 25,5 abandoning\n</textarea>');
  });

  it('wait and the time zone are kept where the mail commands keep them, with a line in the log', async () => {
    const client = await player('gondarahl');
    const csrf = csrfOf((await client.get(`${base}/orders`)).text);
    expect((await client.post(`${base}/settings`, { csrf, setting: 'time-zone', zone: 'europe/berlin' })).status).toBe(303);
    expect((await client.post(`${base}/settings`, { csrf, setting: 'wait', wait: 'yes' })).status).toBe(303);
    const bad = await client.post(`${base}/settings`, { csrf, setting: 'time-zone', zone: 'Mars/Olympus' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('is not a time zone');
    const runtime = (await readRuntime(copy.dir))!;
    expect(runtime.timeZones.gondarahl).toBe('Europe/Berlin');
    expect(runtime.waits).toEqual([expect.objectContaining({ nation: 'gondarahl', turn: 1 })]);
    expect(runtime.log.filter((l) => l.op === 'time-zone' || l.op === 'wait').map((l) => l.detail)).toEqual([
      "gondarahl's time zone set to Europe/Berlin (on the web desk)",
      'gondarahl asked turn 1 to wait for its deadline (on the web desk)',
    ]);
    expect((await client.get(`${base}/orders`)).text).toContain('Due Sun 8 Mar 2026 18:00 GMT (19:00 in your zone, Europe/Berlin)');
  });
});

describe('the GM', () => {
  let gm: Client;
  beforeAll(async () => {
    gm = new Client(desk);
    expect((await gm.post(`${base}/gm/sign-in`, { secret: 'wrong' })).status).toBe(400);
    const ok = await gm.post(`${base}/gm/sign-in`, { secret: 'the-gm-desk-secret-for-tests' });
    expect(ok.status).toBe(303);
  });

  it('the status screen: turn, deadline, who has sent orders, the mail queue, the world map, the GM reports', async () => {
    const page = await gm.get(`${base}/gm`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('The Silversheen Sea: turn 1');
    expect(page.text).toMatch(/Duchy of Argenta <span class="muted">\(argenta\)<\/span><\/th><td class="standing-submitted">orders in/);
    expect(page.text).toMatch(/West Valia <span class="muted">\(westvalia\)<\/span><\/th><td class="standing-waiting">no orders yet/);
    expect(page.text).toContain('class="fatecraft-map"');
    expect(page.text).toContain(`href="${base}/gm/turns/0/"`);
    const report = await gm.get(`${base}/gm/turns/0/`);
    expect(report.status).toBe(200);
    expect(report.text).toContain('GM report: The Silversheen Sea');
    // The GM's report links each nation's report beside it.
    expect((await gm.get(`${base}/gm/turns/0/argenta.html`)).text).toContain('Duchy of Argenta');
  });

  it('an operation asks to confirm, with a reason; confirmed, it is done by the GM function and logged with the reason', async () => {
    const before = (await readRuntime(copy.dir))!;
    const csrf = csrfOf((await gm.get(`${base}/gm`)).text);
    const noReason = await gm.post(`${base}/gm/op`, { csrf, op: 'extend', by: '24h', reason: '' });
    expect(noReason.status).toBe(400);
    const ask = await gm.post(`${base}/gm/op`, { csrf, op: 'extend', by: '24h', reason: 'a player is ill' });
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('Move the deadline of turn 1 from Sun 8 Mar 2026 18:00 GMT to Mon 9 Mar 2026 18:00 GMT (+1d)');
    expect((await readRuntime(copy.dir))!.deadline).toBe(before.deadline);
    const done = await gm.post(`${base}/gm/op`, { csrf, op: 'extend', by: '24h', reason: 'a player is ill', confirm: 'yes' });
    expect(done.status).toBe(303);
    const after = (await readRuntime(copy.dir))!;
    expect(after.deadline).toBe('2026-03-09T18:00:00.000Z');
    expect(after.log.at(-1)).toMatchObject({ op: 'extend', reason: 'a player is ill (on the web desk)' });
    for (const op of ['pause', 'resume']) {
      expect((await gm.post(`${base}/gm/op`, { csrf, op, reason: `${op} for the test`, confirm: 'yes' })).status).toBe(303);
      expect((await readRuntime(copy.dir))!.log.at(-1)).toMatchObject({ op, reason: `${op} for the test (on the web desk)` });
    }
  });

  it('a preview of the pending turn for the GM alone, logged; the campaign unchanged', async () => {
    await expectGmPreview(gm, base, copy.dir);
  });

  it('an alert is marked as dealt with on its own', async () => {
    const runtime = (await readRuntime(copy.dir))!;
    runtime.alerts.push({ id: 7, key: 'test-alert', kind: 'mail-failure', turn: 1, raisedAt: '2026-03-08T12:00:00.000Z', message: 'the mail server is down', mailed: true, open: true });
    const { writeRuntime } = await import('../../src/schedule/runtime.js');
    await writeRuntime(copy.dir, runtime);
    const page = await gm.get(`${base}/gm`);
    expect(page.text).toContain('the mail server is down');
    expect((await gm.post(`${base}/gm/alerts/7`, { csrf: csrfOf(page.text) })).status).toBe(303);
    const after = (await readRuntime(copy.dir))!;
    expect(after.alerts.find((a) => a.id === 7)!.open).toBe(false);
    expect(after.log.at(-1)).toMatchObject({ op: 'acknowledge', detail: 'alert #7 (mail-failure, turn 1) marked as dealt with' });
    expect((await gm.get(`${base}/gm`)).text).not.toContain('the mail server is down');
  });

  it("a player's session opens none of the GM's pages, and the GM's none of a nation's", async () => {
    const client = await player('argenta');
    for (const path of ['/gm', '/gm/turns/0/', '/gm/turns/0/gondarahl.html', '/gm/preview/']) expect((await client.get(`${base}${path}`)).status).toBe(403);
    for (const path of ['/report', '/orders', '/turns', '/turns/0']) expect((await gm.get(`${base}${path}`)).status).toBe(403);
  });
});

describe('the deadline', () => {
  // A campaign of its own: the GM's tests above moved this one's deadline and resumed it.
  let lateCopy: DeskCampaignCopy;
  beforeAll(async () => {
    lateCopy = await startedDemo('deadline');
    desk = deskOver([lateCopy]);
  });
  afterAll(() => lateCopy?.cleanup());

  it('after the deadline the form says so and files nothing; a tick resolves the turn and the new report is read', async () => {
    copy.cleanup();
    copy = lateCopy;
    // Four of five nations send orders in time (else the guard holds the turn for the GM).
    for (const nation of ['argenta', 'gondarahl', 'grarkul', 'vulcanstille']) {
      const other = await player(nation);
      const csrf = csrfOf((await other.get(`${base}/orders`)).text);
      expect((await other.post(`${base}/orders`, { csrf, action: 'file', turn: '1', text: 'note All quiet.\n' })).status).toBe(303);
    }
    const client = await player('westvalia');
    const runtime = (await readRuntime(copy.dir))!;
    copy.clock.set(new Date(Date.parse(runtime.deadline) + 60 * 60_000));
    const page = await client.get(`${base}/orders`);
    expect(page.text).toContain('The deadline for turn 1 has passed');
    expect(page.text).toMatch(/value="file" class="primary" disabled/);
    const late = await client.post(`${base}/orders`, { csrf: csrfOf(page.text), action: 'file', text: 'hold Valenhold Pikes\n' });
    expect(late.status).toBe(409);
    expect(late.text).toContain('Nothing was filed');
    expect(late.text).toContain('arrived after the deadline for turn 1: these orders will not be applied');
    expect(existsSync(ordersFile('westvalia'))).toBe(false);
    const outcome = await runTick(copy);
    expect(outcome.resolved).toEqual([1]);
    const report = await client.get(`${base}/report`);
    expect(report.text).toContain('<h1>Turn 1 — West Valia</h1>');
    const archive = await client.get(`${base}/turns`);
    expect(archive.text).toContain(`href="${base}/turns/0"`);
    expect(archive.text).toContain(`href="${base}/turns/1"`);
    const old = await client.get(`${base}/turns/0`);
    expect(old.text).toContain('<h1>Starting position — West Valia</h1>');
    // Turn 2's form is open again.
    expect((await client.get(`${base}/orders`)).text).toContain('<h1>Orders for turn 2</h1>');
  });
});
