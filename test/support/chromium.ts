import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import { awaiting, hangError } from './awaiting.js';
import { hangLimit } from './limits.js';

/**
 * Headless Chromium for the tests that look at the reports in a real browser: Debian's chromium (or
 * $CHROMIUM), no network, a fresh profile. One browser serves a whole test file: it is driven over the
 * DevTools protocol on a pipe (--remote-debugging-pipe: no port, no WebSocket), a page per look, instead of
 * a browser started for every --dump-dom or --screenshot (about 2.5 s each).
 */
const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** Off with FATECRAFT_TEST_BROWSER=off (npm run test:quick). */
export const BROWSER_OFF = process.env.FATECRAFT_TEST_BROWSER === 'off';

export const CHROMIUM: string | undefined = BROWSER_OFF ? undefined : [process.env.CHROMIUM, ...CANDIDATES.flatMap((name) => (process.env.PATH ?? '').split(delimiter).map((d) => join(d, name)))].find((p): p is string => !!p && existsSync(p));

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-extensions', '--remote-debugging-pipe'];

export interface View {
  /** The viewport in CSS pixels, as --window-size gave it. */
  width: number;
  height: number;
}

interface Message {
  id?: number;
  method?: string;
  sessionId?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
}

export class Browser {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void; what: string }>();
  private readonly listeners = new Set<(m: Message) => void>();
  private buffer = '';
  private exited = false;

  private constructor(
    private readonly child: ChildProcess,
    private readonly profile: string,
  ) {
    const output = child.stdio[4] as Readable;
    output.on('data', (chunk: Buffer) => this.receive(chunk.toString('utf8')));
    child.once('exit', () => {
      this.exited = true;
      for (const { reject, what } of this.pending.values()) reject(new Error(`Chromium exited while the test waited for ${what}`));
      this.pending.clear();
    });
  }

  static launch(): Browser {
    if (!CHROMIUM) throw new Error('chromium is not installed (apt-get install -y chromium)');
    const profile = mkdtempSync(join(tmpdir(), 'fatecraft-chromium-'));
    const child = spawn(CHROMIUM, [...FLAGS, `--user-data-dir=${profile}`], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    return new Browser(child, profile);
  }

  /** The page's DOM once loaded (scripts run), as --dump-dom prints it: the doctype, then the root element. */
  async dumpDom(url: string, view: View = { width: 800, height: 600 }): Promise<string> {
    return this.withPage(url, view, async (session) => {
      const value = await this.evaluate(session, "(document.doctype ? new XMLSerializer().serializeToString(document.doctype) + '\\n' : '') + document.documentElement.outerHTML");
      return String(value);
    });
  }

  /** A PNG of the viewport, scrollbars hidden, as --screenshot with --hide-scrollbars gives it. */
  async screenshot(url: string, view: View): Promise<Buffer> {
    return this.withPage(url, view, async (session) => {
      const shot = await this.send('Page.captureScreenshot', { format: 'png' }, session);
      return Buffer.from(String(shot.data), 'base64');
    });
  }

  async close(): Promise<void> {
    if (!this.exited) {
      const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.kill('SIGKILL');
      await gone;
    }
    rmSync(this.profile, { recursive: true, force: true });
  }

  private async withPage<T>(url: string, view: View, look: (session: string) => Promise<T>): Promise<T> {
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
    const session = String(sessionId);
    try {
      await this.send('Page.enable', {}, session);
      await this.send('Emulation.setDeviceMetricsOverride', { width: view.width, height: view.height, deviceScaleFactor: 1, mobile: false }, session);
      await this.send('Emulation.setScrollbarsHidden', { hidden: true }, session);
      const loaded = this.event('Page.loadEventFired', session, `${url} to load`);
      await this.send('Page.navigate', { url }, session);
      await loaded;
      return await look(session);
    } finally {
      await this.send('Target.closeTarget', { targetId });
    }
  }

  private async evaluate(session: string, expression: string): Promise<unknown> {
    const { result, exceptionDetails } = await this.send('Runtime.evaluate', { expression, returnByValue: true }, session);
    if (exceptionDetails) throw new Error(`in the page: ${JSON.stringify(exceptionDetails)}`);
    return (result as { value: unknown }).value;
  }

  private send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const what = `Chromium's answer to ${method}`;
    const answer = new Promise<Message>((resolve, reject) => {
      if (this.exited) return reject(new Error(`Chromium has exited; ${method} cannot be sent`));
      this.pending.set(id, { resolve, reject, what });
      (this.child.stdio[3] as Writable).write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
    return this.within(what, answer).then((m) => {
      if (m.error) throw new Error(`${method}: ${m.error.message}`);
      return m.result ?? {};
    });
  }

  private event(method: string, sessionId: string, what: string): Promise<Message> {
    return this.within(
      what,
      new Promise<Message>((resolve) => {
        const listener = (m: Message) => {
          if (m.method === method && m.sessionId === sessionId) {
            this.listeners.delete(listener);
            resolve(m);
          }
        };
        this.listeners.add(listener);
      }),
    );
  }

  /** A wait with the hang limit, named for the timeout's message. */
  private within<T>(what: string, work: Promise<T>): Promise<T> {
    const limit = hangLimit(60_000);
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(hangError(what, limit)), limit);
    });
    return awaiting(what, Promise.race([work, hung])).finally(() => clearTimeout(timer));
  }

  private receive(text: string): void {
    this.buffer += text;
    for (let end = this.buffer.indexOf('\0'); end >= 0; end = this.buffer.indexOf('\0')) {
      const message = JSON.parse(this.buffer.slice(0, end)) as Message;
      this.buffer = this.buffer.slice(end + 1);
      if (message.id !== undefined) {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        waiting?.resolve(message);
      } else {
        for (const listener of [...this.listeners]) listener(message);
      }
    }
  }
}

/** One browser for the enclosing describe block (or file): started before it, closed after it. */
export function withBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(() => {
    browser = Browser.launch();
  });
  afterAll(() => browser?.close());
  return () => browser!;
}
