import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import puppeteer, { type Browser as Puppeteer, type Page } from 'puppeteer-core';
import { afterAll, beforeAll } from 'vitest';
import { awaiting } from './awaiting.js';
import { hangLimit } from './limits.js';

/**
 * Headless Chromium for the tests that look at the reports in a real browser: Debian's chromium (or
 * $CHROMIUM), no network, a fresh profile. One browser serves a whole test file, driven by puppeteer-core
 * (as test/web/browser.test.ts drives the desk), a page per look, instead of a browser started for every
 * --dump-dom or --screenshot (about 2.5 s each).
 */
const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** Off with FATECRAFT_TEST_BROWSER=off (npm run test:quick). */
export const BROWSER_OFF = process.env.FATECRAFT_TEST_BROWSER === 'off';

export const CHROMIUM: string | undefined = BROWSER_OFF ? undefined : [process.env.CHROMIUM, ...CANDIDATES.flatMap((name) => (process.env.PATH ?? '').split(delimiter).map((d) => join(d, name)))].find((p): p is string => !!p && existsSync(p));

const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-extensions'];

export interface View {
  /** The viewport in CSS pixels, as --window-size gave it. */
  width: number;
  height: number;
}

export class Browser {
  private constructor(
    private readonly browser: Puppeteer,
    private readonly profile: string,
  ) {}

  static async launch(): Promise<Browser> {
    if (!CHROMIUM) throw new Error('chromium is not installed (apt-get install -y chromium)');
    const profile = mkdtempSync(join(tmpdir(), 'fatecraft-chromium-'));
    const browser = await awaiting('headless Chromium to start', puppeteer.launch({ executablePath: CHROMIUM, headless: true, userDataDir: profile, args: FLAGS, timeout: hangLimit(60_000), protocolTimeout: hangLimit(60_000) }));
    return new Browser(browser, profile);
  }

  /** The page's DOM once loaded (scripts run), as --dump-dom prints it: the doctype, then the root element. */
  async dumpDom(url: string, view: View = { width: 800, height: 600 }): Promise<string> {
    return this.withPage(url, view, (page) => page.content());
  }

  /** A PNG of the viewport (scrollbars hidden: puppeteer starts Chromium with --hide-scrollbars). */
  async screenshot(url: string, view: View): Promise<Buffer> {
    return this.withPage(url, view, async (page) => Buffer.from(await page.screenshot({ type: 'png' })));
  }

  async close(): Promise<void> {
    await this.browser.close();
    rmSync(this.profile, { recursive: true, force: true });
  }

  private async withPage<T>(url: string, view: View, look: (page: Page) => Promise<T>): Promise<T> {
    const page = await this.browser.newPage();
    try {
      page.setDefaultTimeout(hangLimit(60_000));
      await page.setViewport({ width: view.width, height: view.height, deviceScaleFactor: 1 });
      await awaiting(`${url} to load in Chromium`, page.goto(url, { waitUntil: 'load' }));
      return await look(page);
    } finally {
      await page.close();
    }
  }
}

/** One browser for the enclosing describe block (or file): started before it, closed after it. */
export function withBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await Browser.launch();
  });
  afterAll(() => browser?.close());
  return () => browser!;
}
