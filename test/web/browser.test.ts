/// <reference lib="dom" />
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportRenderer } from '../../src/report/renderer.js';
import { startDesk, type RunningDesk } from '../../src/web/serve.js';
import { hangLimit } from '../support/limits.js';
import { ADDRESSES, Client, csrfOf, GM_SECRET, mailedLink, ROOT, runTick, startedDemo, type DeskCampaignCopy } from './support.js';

/**
 * The desk in a real browser: the system Chromium (scripts/test-deps.sh installs it) driven by
 * puppeteer-core, against `fatecraft serve`'s server on a free port. A player signs in by the mailed link,
 * reads the report and zooms its map, types an order with a typo and sees the receipt point at the line,
 * fixes it and files; the GM's screen shows the orders in; a tick resolves the turn; the player reads the
 * new report and the old one in the archive. The whole walk runs twice, each on its own campaign: at full
 * width, and at 375 px (a phone), where every page must also fit the screen and orders are filed by keyboard
 * alone as well. No page may break the content security policy or throw. Screenshots:
 * out/test-artifacts/web/ (the phone's named phone-*).
 */
const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const chromium = [process.env.CHROMIUM, '/usr/bin/chromium', ...CANDIDATES.flatMap((name) => (process.env.PATH ?? '').split(delimiter).map((d) => join(d, name)))].find((p): p is string => !!p && existsSync(p));
const title = chromium ? `the desk in headless Chromium (${chromium})` : 'the desk in headless Chromium — SKIPPED: chromium is not installed (apt-get install -y chromium, or set CHROMIUM)';
if (!chromium) console.warn(`[web tests] ${title}`);

const ARTIFACTS = join(ROOT, 'out', 'test-artifacts', 'web');
const base = '/c/silversheen';

const SCREENS = [
  { screen: 'full width', phone: false, prefix: '', viewport: { width: 1280, height: 900 } },
  { screen: '375 px', phone: true, prefix: 'phone-', viewport: { width: 375, height: 812, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
];

describe.skipIf(!chromium).each(SCREENS)(`${title}, $screen`, ({ phone, prefix, viewport }) => {
  let copy: DeskCampaignCopy;
  let running: RunningDesk;
  let browser: Browser;
  let profile: string;
  /** What the pages said went wrong: a refused style or script (the policy), an exception. */
  const problems: string[] = [];

  beforeAll(async () => {
    copy = await startedDemo('browser');
    running = await startDesk({ folder: copy.dir, port: 0, host: '127.0.0.1', clock: copy.clock, env: copy.env, renderers: [reportRenderer()], lockWaitMs: 5_000, limits: { signInPerClient: { limit: 1000, windowMs: 60_000 } } });
    profile = mkdtempSync(join(tmpdir(), 'fc-web-chromium-'));
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await puppeteer.launch({
      executablePath: chromium!,
      headless: true,
      userDataDir: profile,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-extensions'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await running?.close();
    copy?.cleanup();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  /** A new tab that records what the page says went wrong. */
  async function tab(page: Page): Promise<Page> {
    page.on('console', (m) => {
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`${page.url()}: ${(e as Error).message}`));
    page.setDefaultTimeout(hangLimit(30_000));
    return page;
  }

  /** On the phone, a page must fit the screen: nothing wider than 375 px to scroll sideways to. */
  async function fits(page: Page): Promise<void> {
    if (!phone) return;
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${page.url()} is wider than the phone`).toBeLessThanOrEqual(viewport.width);
  }

  const shot = async (page: Page, name: string) => {
    await fits(page);
    await page.screenshot({ path: join(ARTIFACTS, `${prefix}${name}.png`), fullPage: true });
  };
  const go = (page: Page, path: string) => page.goto(`${running.url}${path}`, { waitUntil: 'networkidle0' });
  const text = (page: Page, selector: string) => page.$eval(selector, (e) => e.textContent ?? '');

  /** Replaces the order form's text by typing, as a player would. */
  async function typeOrders(page: Page, orders: string): Promise<void> {
    await page.click('#sheet');
    await page.keyboard.down('Control');
    await page.keyboard.press('a');
    await page.keyboard.up('Control');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(orders);
  }

  let player: Page;

  it('a player signs in by the mailed link and reads the report, its map zoomed', async () => {
    player = await tab(await browser.newPage());
    await player.setViewport(viewport);
    await go(player, `${base}/sign-in`);
    await player.type('#address', ADDRESSES.argenta!);
    await Promise.all([player.waitForNavigation(), player.click('form[action$="/sign-in/link"] button')]);
    expect(await text(player, 'h1')).toBe('Check your mail');
    await fits(player);
    await go(player, mailedLink(copy.dir, ADDRESSES.argenta!, running.url));
    expect(await text(player, 'h1')).toBe('Sign in as Duchy of Argenta');
    await shot(player, '0-link-landing');
    await Promise.all([player.waitForNavigation(), player.click('form[action$="/sign-in/link/confirm"] button')]);
    expect(new URL(player.url()).pathname).toBe(`${base}/report`);
    expect(new URL(player.url()).search).toBe('');
    expect(await text(player, 'h1')).toBe('Starting position — Duchy of Argenta');
    const before = await player.$eval('.report .map svg', (svg) => svg.getAttribute('viewBox'));
    await player.click('.map-tools button[aria-label="Zoom in"]');
    const after = await player.$eval('.report .map svg', (svg) => svg.getAttribute('viewBox'));
    expect(after).not.toBe(before);
    // The list of what is where, for a screen reader.
    expect(await text(player, '#places')).toContain('Argentum Guard');
    await shot(player, '1-report');
  });

  it('types an order with a typo, sees the receipt point at the line, fixes it and files', async () => {
    await go(player, `${base}/orders`);
    await typeOrders(player, 'hold Harbour Marines\nmove Argentum Gaurd to 17,5');
    await player.waitForFunction(() => document.querySelector('#receipt')?.textContent?.includes('did you mean'));
    expect(await text(player, '#receipt')).toMatch(/line 2: “?move Argentum Gaurd to 17,5”? — you have no unit "Argentum Gaurd"/);
    await shot(player, '2-orders-typo');
    // "line 2" moves the caret to the line.
    await player.click('#receipt a.line[data-line="2"]');
    const selected = await player.$eval('#sheet', (t) => {
      const area = t as HTMLTextAreaElement;
      return [document.activeElement === area, area.value.slice(area.selectionStart, area.selectionEnd)] as const;
    });
    expect(selected).toEqual([true, 'move Argentum Gaurd to 17,5']);
    await typeOrders(player, 'hold Harbour Marines\nmove Argentum Guard to 17,5');
    await player.waitForFunction(() => document.querySelector('#receipt')?.textContent?.includes('All 2 orders are valid'));
    await Promise.all([player.waitForNavigation(), player.click('button[value="file"]')]);
    expect(await text(player, '.notice')).toContain('Your orders are on file');
    expect(await text(player, '[aria-labelledby="on-file"]')).toContain('All 2 orders are valid');
    await shot(player, '3-orders-filed');
  });

  it("the GM's screen shows the nation's orders in", async () => {
    const context = await browser.createBrowserContext();
    const gm = await tab(await context.newPage());
    await gm.setViewport(viewport);
    await go(gm, `${base}/gm/sign-in`);
    await gm.type('#secret', GM_SECRET);
    await Promise.all([gm.waitForNavigation(), gm.click('form button')]);
    const row = await gm.$$eval('#nations ~ div table tr, section[aria-labelledby="nations"] tr', (rows) => rows.map((r) => r.textContent ?? '').find((t) => t.includes('Duchy of Argenta')) ?? '');
    expect(row).toContain('orders in');
    await shot(gm, '4-gm-status');
    await context.close();
  });

  it('a tick resolves the turn; the player reads the new report and the old one in the archive', async () => {
    // Three more nations send orders (by the desk, as a script): the guard would hold a turn most nations missed.
    for (const nation of ['gondarahl', 'grarkul', 'westvalia']) {
      const client = new Client(running.desk);
      await client.signInWithToken('silversheen', (await import('./support.js')).TOKENS[nation]!);
      const csrf = csrfOf((await client.get(`${base}/orders`)).text);
      expect((await client.post(`${base}/orders`, { csrf, action: 'file', turn: '1', text: 'note All quiet.\n' })).status).toBe(303);
    }
    copy.clock.set('2026-03-08T19:00:00Z');
    expect((await runTick(copy)).resolved).toEqual([1]);
    await go(player, `${base}/report`);
    expect(await text(player, 'h1')).toBe('Turn 1 — Duchy of Argenta');
    await go(player, `${base}/turns`);
    const links = await player.$$eval('ul.archive a', (as) => as.map((a) => a.textContent));
    expect(links).toEqual(['Turn 1', 'The starting position']);
    await Promise.all([player.waitForNavigation(), player.click('ul.archive li:last-child a')]);
    expect(await text(player, 'h1')).toBe('Starting position — Duchy of Argenta');
    await shot(player, '5-archive-turn-0');
  });

  it.runIf(phone)('at 375 px, by keyboard alone: the pages fit, and orders are typed and filed without a pointer', async () => {
    for (const [path, name] of [[`${base}/report`, '6-report'], [`${base}/orders`, '7-orders'], [`${base}/turns`, '8-archive']] as const) {
      await go(player, path);
      await shot(player, name);
    }
    await go(player, `${base}/orders`);
    // From the top of the page, Tab until the order form has the focus, type, Tab on to the file button, Enter.
    const focused = () => player.evaluate(() => (document.activeElement as HTMLElement | null)?.id || (document.activeElement as HTMLButtonElement | null)?.value || document.activeElement?.tagName || '');
    let steps = 0;
    while ((await focused()) !== 'sheet' && steps++ < 40) await player.keyboard.press('Tab');
    expect(await focused()).toBe('sheet');
    await player.keyboard.down('Control');
    await player.keyboard.press('a');
    await player.keyboard.up('Control');
    await player.keyboard.type('hold Harbour Marines');
    while ((await focused()) !== 'file' && steps++ < 60) await player.keyboard.press('Tab');
    expect(await focused()).toBe('file');
    await Promise.all([player.waitForNavigation(), player.keyboard.press('Enter')]);
    expect(await text(player, '.notice')).toContain('Your orders are on file');
    expect(await text(player, 'h1')).toBe('Orders for turn 2');
    await shot(player, '9-filed-by-keyboard');
  });

  it('no page broke the content security policy or threw', () => {
    expect(problems).toEqual([]);
  });
});
