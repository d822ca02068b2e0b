import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCampaign, readState } from '../../src/campaign/store.js';
import type { NationId } from '../../src/core/ids.js';
import type { GameState } from '../../src/core/state.js';
import { parseInbound } from '../../src/mail/parse.js';
import { decideInbound, type Decision, type OrdersContext } from '../../src/mailroom/decide.js';
import { readRawHeaders } from '../../src/mailroom/headers.js';
import { judgeDeskSheet } from '../../src/mailroom/desk.js';
import { staticSecrets } from '../../src/mailroom/secrets.js';
import { MAX_FORM_BYTES } from '../../src/web/desk.js';
import type { Desk } from '../../src/web/desk.js';
import { ADDRESSES, Client, csrfOf, deskOver, startedDemo, TOKENS, type DeskCampaignCopy } from './support.js';

/**
 * Hostile form input gets the answers the same text gets by mail: the desk's judgement and the mail's agree
 * on every sheet (huge, binary, thousands of lines, wrong turn, YAML bombs), and the desk refuses a body over
 * its limit before reading it. A hang is caught by the test's time limit; nothing here is timed.
 */
let copy: DeskCampaignCopy;
let desk: Desk;
let ctx: OrdersContext;
const base = '/c/silversheen';
const argenta = 'argenta' as NationId;

beforeAll(async () => {
  copy = await startedDemo('hostile');
  desk = deskOver([copy]);
  const open = await openCampaign(copy.dir);
  const state: GameState = await readState(copy.dir, 0, open.campaign);
  ctx = { campaign: open.campaign, state, tokens: staticSecrets(TOKENS), ordersOnFile: new Set(), late: false };
});
afterAll(() => copy?.cleanup());

const LINES = (n: number) => Array.from({ length: n }, (_, i) => (i % 3 === 0 ? `hold Harbour Marines` : i % 3 === 1 ? `move Argentum Gaurd to 17,${i % 20}` : `fly to the moon ${i}`)).join('\n');

const SHEETS: Record<string, string> = {
  'a 10,000-line sheet': LINES(10_000),
  'a sheet over the size limit': `hold Harbour Marines\n${'x'.repeat(300 * 1024)}`,
  'control characters': 'hold Harbour Marines\nmove\u0001 Argentum Guard to 17,5\n',
  'a NUL byte': 'hold Harbour Marines\u0000\n',
  'right-to-left marks and odd spaces': 'hold\u00a0Harbour Marines\nmove Argentum Guard to 17,5 \u202e\n',
  'a YAML bomb pasted in': 'orders:\n  - &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n  - &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n  - &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n  - [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n',
  'a YAML sheet pasted in': 'nation: argenta\nturn: 1\norders:\n  - {move: ar-argentum-guard, to: "17,5"}\n  - {hold: ar-harbour-marines}\n',
  'another turn': 'Turn: 7\nhold Harbour Marines\n',
  'another nation': 'Nation: gondarahl\nhold Harbour Marines\n',
  'nothing but words': 'Dear GM, thank you for the game!\n',
  'an empty form': '',
  'very long lines': `${'move Argentum Guard to 17,5 '.repeat(2000)}\nhold Harbour Marines\n`,
};

/**
 * The mail's judgement of the same text with its token on a last line, as the desk reads its form. A mail
 * of thousands of lines puts it first instead (the reader stops before a last line); the desk's text is
 * then given a blank first line, so the lines are numbered alike.
 */
async function byMail(text: string, token: 'first' | 'last'): Promise<Decision> {
  const raw = [`From: ${ADDRESSES.argenta}`, 'To: turns@silversheen.test', 'Subject: Orders argenta turn 1', 'Message-ID: <hostile@argenta.test>', 'Date: Sun, 08 Mar 2026 12:00:00 +0000', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 8bit', '', token === 'first' ? `Token: ${TOKENS.argenta}\n${text}` : `${text}\nToken: ${TOKENS.argenta}`].join('\r\n');
  const bytes = Buffer.from(raw, 'utf8');
  const mail = await parseInbound(bytes);
  return decideInbound(mail, { ...ctx, addresses: { argenta: [ADDRESSES.argenta!] }, ownAddresses: ['turns@silversheen.test'], ownDomain: 'silversheen.test', recentFromSender: 0, recentRepliesTo: 0, limits: { perSenderPerDay: 100, repliesPerAddressPerDay: 100 }, headers: readRawHeaders(bytes), day: '2026-03-08', receivedAt: '2026-03-08T12:00:00Z' });
}

/** What a decision says to the player, without where it came from (the header, the line count's name). */
function answer(d: Decision) {
  const receipt = 'receipt' in d && d.receipt ? { ...d.receipt, linesOf: undefined } : undefined;
  // The mail is longer by its Token line: a refusal for size names the size it read.
  const sized = (x: unknown) => JSON.parse(JSON.stringify(x ?? null).replace(/the orders are \d+ bytes/g, 'the orders are N bytes')) as unknown;
  return { kind: d.kind, reason: 'reason' in d ? d.reason : undefined, receipt: sized(receipt), problems: sized('problems' in d ? d.problems : undefined), yaml: 'ordersYaml' in d ? d.ordersYaml.split('\n').filter((l) => !l.startsWith('#')).join('\n') : undefined };
}

describe('hostile text: the same answer as by mail', () => {
  for (const [what, text] of Object.entries(SHEETS)) {
    it(what, async () => {
      const long = text.split('\n').length > 1000;
      const desk = judgeDeskSheet(long ? `\n${text}` : text, argenta, ctx, { address: ADDRESSES.argenta!, receivedAt: '2026-03-08T12:00:00Z', turn: 1 });
      const mail = await byMail(text, long ? 'first' : 'last');
      expect(answer(desk)).toEqual(answer(mail));
    });
  }

  it('a 10,000-line sheet is answered line by line, within the readers\' limits', () => {
    const d = judgeDeskSheet(SHEETS['a 10,000-line sheet']!, argenta, ctx, { address: ADDRESSES.argenta!, receivedAt: '2026-03-08T12:00:00Z' });
    // Its one valid order is filed, as a mail's would be; every other line is told, up to the readers' limits.
    expect(d.kind).toBe('file');
    const receipt = 'receipt' in d ? d.receipt! : undefined;
    expect(receipt?.accepted.map((o) => o.line)).toEqual([1]);
    expect(receipt?.problems[0]).toMatchObject({ line: 2, didYouMean: 'did you mean "Argentum Guard"?' });
    expect(receipt?.problems.length).toBeGreaterThan(100);
    expect(receipt?.problems.length).toBeLessThan(1000);
  });
});

describe('hostile forms over HTTP', () => {
  it('a body over the limit is refused unread, with a page saying why', async () => {
    const client = new Client(desk);
    await client.signInWithToken('silversheen', TOKENS.argenta!);
    const csrf = csrfOf((await client.get(`${base}/orders`)).text);
    const huge = await client.post(`${base}/orders`, { csrf, action: 'file', text: 'x'.repeat(MAX_FORM_BYTES + 10) });
    expect(huge.status).toBe(413);
    expect(huge.text).toContain('was larger than 1024 KiB, so it was not read');
    const live = await client.post(`${base}/orders/check`, { csrf, text: 'x'.repeat(MAX_FORM_BYTES + 10) });
    expect(live.status).toBe(413);
    expect(existsSync(join(copy.dir, 'orders', '0001', 'argenta.yaml'))).toBe(false);
  });

  it('a 10,000-line sheet is filed as by mail; control characters get the receipt and file nothing', async () => {
    const client = new Client(desk);
    await client.signInWithToken('silversheen', TOKENS.argenta!);
    const csrf = csrfOf((await client.get(`${base}/orders`)).text);
    const binary = await client.post(`${base}/orders`, { csrf, action: 'file', turn: '1', text: SHEETS['control characters']! });
    expect(binary.status).toBe(409);
    expect(binary.text).toContain('this is binary data, not text (control character U+0001 on line 2)');
    expect(existsSync(join(copy.dir, 'orders', '0001', 'argenta.yaml'))).toBe(false);
    const long = await client.post(`${base}/orders`, { csrf, action: 'file', turn: '1', text: SHEETS['a 10,000-line sheet']! });
    expect(long.status).toBe(303);
    expect(existsSync(join(copy.dir, 'orders', '0001', 'argenta.yaml'))).toBe(true);
    const page = await client.get(long.location!);
    expect(page.text).toContain('1 valid,');
  });

  it('the checker is limited per session, and says so', async () => {
    const limited = deskOver([copy], { limits: { checkPerSession: { limit: 3, windowMs: 60_000 } } });
    const client = new Client(limited);
    await client.signInWithToken('silversheen', TOKENS.argenta!);
    const csrf = csrfOf((await client.get(`${base}/orders`)).text);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await client.post(`${base}/orders/check`, { csrf, text: 'hold Harbour Marines' })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('signing in is limited per client address', async () => {
    const limited = deskOver([copy], { limits: { signInPerClient: { limit: 5, windowMs: 15 * 60_000 } } });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await new Client(limited).signInWithToken('silversheen', 'guess-' + i)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    // The right token too, once the limit is reached: guessing cannot go on.
    expect((await new Client(limited).signInWithToken('silversheen', TOKENS.argenta!)).status).toBe(429);
  });
});
