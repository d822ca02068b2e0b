/**
 * The desk's pages: Handlebars templates in templates/web/ (beside the report templates, with their
 * helpers), compiled once in strict mode, every value made printable (text/escape.ts) and HTML-escaped.
 * Two kinds of value pass through as they are: Lines (a player's text for a text area: its line breaks
 * kept, nothing else unsafe) and Handlebars.SafeString (HTML the desk made itself, or a stored report).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { plainLines, printable } from '../text/escape.js';
import { builtInTemplateDir, registerHelpers } from '../report/render.js';

/** A player's text of several lines, for a text area. */
export class Lines {
  readonly text: string;
  constructor(text: string) {
    this.text = plainLines(text);
  }
}

export const trusted = (html: string) => new Handlebars.SafeString(html);

/** Where stored HTML goes in a page made by Views.pageWith: no text of the desk's or of a report holds it. */
const STORED_MARK = '\u0000fatecraft-stored-report\u0000';

export const webTemplateDir = () => join(builtInTemplateDir(), 'web');

export type Page = (view: Record<string, unknown>) => string;

export class Views {
  private readonly hb = Handlebars.create();
  private readonly pages = new Map<string, Handlebars.TemplateDelegate>();
  private readonly layout: Handlebars.TemplateDelegate;

  constructor(dir = webTemplateDir()) {
    registerHelpers(this.hb);
    for (const file of readdirSync(join(dir, 'partials'))) {
      if (file.endsWith('.hbs')) this.hb.registerPartial(file.slice(0, -'.hbs'.length), readFileSync(join(dir, 'partials', file), 'utf8'));
    }
    for (const file of readdirSync(dir)) {
      if (file.endsWith('.hbs')) this.pages.set(file.slice(0, -'.hbs'.length), this.hb.compile(readFileSync(join(dir, file), 'utf8'), { strict: true }));
    }
    this.layout = this.pages.get('layout')!;
  }

  /** A partial page (a fragment the live check sends). */
  fragment(name: string, view: Record<string, unknown>): string {
    const page = this.pages.get(name);
    if (!page) throw new Error(`no desk template ${name}.hbs`);
    return page(printable(view));
  }

  /** A whole page: `name` inside the layout. */
  page(name: string, view: Record<string, unknown> & { title: string; layout: LayoutView }): string {
    const body = this.fragment(name, view);
    return this.layout(printable({ ...view.layout, title: view.title, body: trusted(body) }));
  }

  /**
   * A whole page with stored HTML in it, where the page's template prints {{report}}: the bytes are spliced
   * in as they are.
   */
  pageWith(name: string, view: Record<string, unknown> & { title: string; layout: LayoutView }, stored: Buffer): Buffer {
    const [before, after] = this.page(name, { ...view, report: trusted(STORED_MARK) }).split(STORED_MARK);
    if (after === undefined) throw new Error(`desk template ${name}.hbs prints no {{report}}`);
    return Buffer.concat([Buffer.from(before!), stored, Buffer.from(after)]);
  }
}

/** What every page's frame shows: where you are and who you are signed in as. */
export interface LayoutView {
  campaignTitle: string | null;
  /** /c/<slug>, for the navigation. */
  base: string | null;
  /** The signed-in nation's name, or "the GM", or null. */
  who: string | null;
  role: 'nation' | 'gm' | null;
  /** The form token of the session (for the sign-out form). */
  csrf: string | null;
  /** Which navigation entry is the current page. */
  here: string;
}

export const noLayout = (here = ''): LayoutView => ({ campaignTitle: null, base: null, who: null, role: null, csrf: null, here });
