import { plural, pluralOf } from '../core/prose.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import type { Campaign } from '../core/campaign.js';
import { CampaignError } from '../campaign/problems.js';
import { writeYaml } from '../campaign/yaml-io.js';
import { renderAsciiMap } from './ascii-map.js';
import { printable } from '../text/escape.js';
import { signed } from './ladder.js';
import { gmMapModel, nationMapModel, type MapModel } from './map-model.js';
import { nationData } from './nation-data.js';
import { renderOrderTemplate } from './order-template.js';
import { DENSE_MAP, renderSvgMap } from './svg-map.js';
import { compileFast, withFallback, type ParseTemplate, type RenderFunction } from './template-compiler.js';
import { overviewBase } from './svg-overview.js';
import { renderWorldMap } from './svg-world.js';
import type { GmView, NationView } from './types.js';
import { KeptMap } from '../core/kept-map.js';

/**
 * Views into files. Templates are Handlebars files in templates/ (or in a
 * campaign's own template folder, file by file), compiled by private
 * Handlebars instances in strict mode: a field the view lacks is an error,
 * never a hole in a report. Every view is made printable first (escape.ts:
 * no control, line-break or direction character in any value); the HTML
 * instance then escapes markup in every {{value}}, the text instance prints
 * values as they are.
 */

export const TEMPLATE_FILES = {
  nationText: 'nation.txt.hbs',
  nationHtml: 'nation.html.hbs',
  gmHtml: 'gm.html.hbs',
} as const;

/** The version tag of the machine-readable report; bump it when its shape changes (2: the view without its repetition, nation-data.ts). */
export const NATION_YAML_FORMAT = 'fatecraft-nation-report/2';

type Compiled = RenderFunction;

/** Who renders the templates: the compiled templates, Handlebars where they cannot (the default); or one of them alone. */
export type TemplateEngine = 'compiled' | 'handlebars' | 'compiled only';

export interface ReportTemplates {
  nationText: Compiled;
  nationHtml: Compiled;
  gmHtml: Compiled;
  /** Where each template and partial came from, for error messages and docs. */
  sources: Record<string, string>;
}

/** The templates shipped with fatecraft: the repository's templates/ folder. */
export function builtInTemplateDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'templates');
    if (existsSync(join(candidate, TEMPLATE_FILES.nationText))) return candidate;
    dir = resolve(dir, '..');
  }
  throw new Error('the built-in report templates (templates/nation.txt.hbs) were not found');
}

export function registerHelpers(hb: typeof Handlebars): void {
  hb.registerHelper('sign', (n: unknown) => (typeof n === 'number' ? signed(n) : String(n)));
  hb.registerHelper('join', (list: unknown, sep: unknown) => (Array.isArray(list) ? list.map(String).join(typeof sep === 'string' ? sep : ', ') : ''));
  hb.registerHelper('array', (...args: unknown[]) => args.slice(0, -1));
  hb.registerHelper('capital', (s: unknown) => String(s).charAt(0).toUpperCase() + String(s).slice(1));
  hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  // Whether any item of a list has a non-empty list under `field`: {{#if (some settlements "queue")}}.
  hb.registerHelper('some', (list: unknown, field: unknown) => Array.isArray(list) && list.some((x) => Array.isArray((x as Record<string, unknown>)?.[String(field)]) && ((x as Record<string, unknown[]>)[String(field)]!.length > 0)));
  hb.registerHelper('or', (...args: unknown[]) => args.slice(0, -1).some(Boolean));
  hb.registerHelper('plural', (n: unknown, word: unknown) => (typeof n === 'number' ? plural(n, String(word)) : `${String(n)} ${pluralOf(String(word))}`));
  // "1 battle", "12,345 battles": a count with its thousands marked, and the noun in the number it takes.
  hb.registerHelper('count', (n: unknown, word: unknown) => (typeof n === 'number' ? `${n.toLocaleString('en')} ${n === 1 ? String(word) : pluralOf(String(word))}` : `${String(n)} ${pluralOf(String(word))}`));
  hb.registerHelper('padEnd', (s: unknown, width: unknown) => String(s).padEnd(Number(width)));
  hb.registerHelper('number', (n: unknown) => (typeof n === 'number' ? n.toLocaleString('en') : String(n)));
  hb.registerHelper('padStart', (s: unknown, width: unknown) => String(s).padStart(Number(width)));
}

/**
 * Reads templates from the folders given, first match wins file by file, so a
 * campaign folder need only hold the templates it changes. Partials are
 * partials/<name>.html.hbs (HTML), partials/<name>.txt.hbs (text) and
 * partials/<name>.css (the stylesheet, as the HTML partial "<name>-css").
 * Each template is compiled to plain JavaScript where it can be, Handlebars
 * rendering the rest (template-compiler.ts); `engine` picks one alone, for
 * the tests that hold the two to the same output.
 *
 * Compiling is most of the cost of loading (a tick or a rerun in a long-running
 * process, a daemon or the tests, loads them again and again), so the compiled
 * templates are kept for files read again with the same paths and the same
 * bytes: an edited template is compiled anew on its next load.
 */
export function loadTemplates(dirs: readonly string[], engine: TemplateEngine = 'compiled'): ReportTemplates {
  const files = templateFiles(dirs);
  const key = JSON.stringify([engine, files]);
  const kept = compiledTemplates.get(key);
  if (kept) return { ...kept, sources: { ...kept.sources } };
  const templates = compileTemplates(files, engine);
  compiledTemplates.set(key, templates);
  return { ...templates, sources: { ...templates.sources } };
}

/** Template sets kept compiled, by engine, paths and contents; the oldest goes first. */
const compiledTemplates = new KeptMap<string, ReportTemplates>({ entries: 8 });

/** One template file as found: the name it goes by (partials/<file> or a TEMPLATE_FILES name), where, and its text. */
type TemplateFile = [name: string, path: string, body: string];

/** The partials (sorted by name) and then the three templates, each from the first folder that has it. */
function templateFiles(dirs: readonly string[]): TemplateFile[] {
  const find = (rel: string): string | undefined => dirs.map((d) => join(d, rel)).find((p) => existsSync(p));
  const partialNames = new Set<string>();
  for (const d of dirs) {
    const pd = join(d, 'partials');
    if (existsSync(pd)) for (const f of readdirSync(pd)) partialNames.add(f);
  }
  const files: TemplateFile[] = [];
  for (const f of [...partialNames].sort()) {
    const path = find(join('partials', f));
    if (path) files.push([`partials/${f}`, path, readFileSync(path, 'utf8')]);
  }
  for (const file of Object.values(TEMPLATE_FILES)) {
    const path = find(file);
    if (!path) throw new Error(`report template ${file} was not found in ${dirs.join(', ')}`);
    files.push([file, path, readFileSync(path, 'utf8')]);
  }
  return files;
}

function compileTemplates(files: readonly TemplateFile[], engine: TemplateEngine): ReportTemplates {
  const html = Handlebars.create();
  const text = Handlebars.create();
  registerHelpers(html);
  registerHelpers(text);
  const sources: Record<string, string> = {};
  // Each source parsed once: the HTML partials are checked and then compiled for two templates, and parsing was
  // most of compiling (a report thread's start: 300 -> 205 ms of CPU). The compiler only reads the trees.
  const parsed = new Map<string, hbs.AST.Program>();
  const parse: ParseTemplate = (source) => {
    let tree = parsed.get(source);
    if (!tree) parsed.set(source, (tree = html.parse(source)));
    return tree;
  };
  // Each instance's partials as written, for the compiled templates (template-compiler.ts).
  const htmlPartials: Record<string, string> = {};
  const textPartials: Record<string, string> = {};
  const byName = new Map<string, TemplateFile>();
  for (const entry of files) {
    const [name, path, body] = entry;
    byName.set(name, entry);
    if (!name.startsWith('partials/')) continue;
    const f = name.slice('partials/'.length);
    sources[name] = path;
    if (!f.endsWith('.css')) checkSyntax(parse, body, path);
    const register = (hb: typeof Handlebars, partials: Record<string, string>, partial: string) => {
      hb.registerPartial(partial, body);
      partials[partial] = body;
    };
    if (f.endsWith('.html.hbs')) register(html, htmlPartials, f.slice(0, -'.html.hbs'.length));
    else if (f.endsWith('.txt.hbs')) register(text, textPartials, f.slice(0, -'.txt.hbs'.length));
    else if (f.endsWith('.css')) register(html, htmlPartials, `${f.slice(0, -'.css'.length)}-css`);
  }
  const compile = (hb: typeof Handlebars, file: string, noEscape: boolean, partials: Record<string, string>): Compiled => {
    const [, path, body] = byName.get(file)!;
    sources[file] = path;
    checkSyntax(parse, body, path);
    const handlebars = hb.compile(body, { strict: true, noEscape, preventIndent: false });
    // The same output, faster; Handlebars itself for what the compiler leaves to it, and for every error.
    const slow: Compiled = (context) => handlebars(context);
    if (engine === 'handlebars') return slow;
    if (engine === 'compiled only') {
      const fast = compileFast(hb, body, partials, noEscape, parse);
      if (!fast) throw new Error(`${path}: not compiled (template-compiler.ts leaves it to Handlebars)`);
      return fast;
    }
    // Compiled on first use (its syntax is checked above): a report thread renders no GM's page, and
    // compiling the GM's template and its partials was a third of the thread's start.
    let made: Compiled | undefined;
    const make = (): Compiled => {
      const fast = compileFast(hb, body, partials, noEscape, parse);
      return fast ? withFallback(fast, slow) : slow;
    };
    return (context) => (made ??= make())(context);
  };
  return {
    nationText: compile(text, TEMPLATE_FILES.nationText, true, textPartials),
    nationHtml: compile(html, TEMPLATE_FILES.nationHtml, false, htmlPartials),
    gmHtml: compile(html, TEMPLATE_FILES.gmHtml, false, htmlPartials),
    sources,
  };
}

/**
 * Handlebars compiles a template on its first use; a GM's broken template is
 * found when the templates are loaded instead (before a turn is resolved),
 * with its file and line.
 */
function checkSyntax(parse: ParseTemplate, body: string, path: string): void {
  try {
    parse(body);
  } catch (e) {
    const message = (e as Error).message;
    const line = /line (\d+)/.exec(message)?.[1];
    const detail = message.split('\n').at(-1) ?? message;
    throw new CampaignError([{ file: path, ...(line ? { line: Number(line) } : {}), message: `the template does not parse: ${detail}` }]);
  }
}

/**
 * A template that fails is the GM's file to fix (or ours): the error names the
 * file and the line, as any other campaign file's problem does, and the turn
 * is not written.
 */
function run(templates: ReportTemplates, name: keyof Omit<ReportTemplates, 'sources'>, context: unknown): string {
  const file = TEMPLATE_FILES[name];
  try {
    return templates[name](context);
  } catch (e) {
    // Handlebars ends its messages with " - line:column" and names the context "[object Object]".
    const message = (e as Error).message;
    const at = / - (\d+):(\d+)$/.exec(message);
    const text = message.replace(/ - \d+:\d+$/, '').replace(/ in \[object Object\]/, '');
    throw new CampaignError([
      { file: templates.sources[file] ?? file, ...(at ? { line: Number(at[1]) } : {}), message: `report template ${file} failed: ${text}` },
    ]);
  }
}

export interface NationFiles {
  txt: string;
  html: string;
  yaml: string;
  svg: string;
  orders: string;
}

/** A nation's report files; the text report is always made (it is the body of the report mail). */
export type NationFormat = keyof NationFiles;
export const NATION_FORMATS: readonly NationFormat[] = ['txt', 'html', 'yaml', 'svg', 'orders'];
/**
 * Made when campaign.yaml does not say: what the report mail carries. The map on its own is in the
 * HTML report already (a separate .svg was a fifth of a big turn's bytes, written twice); the
 * machine-readable YAML is for players' tools, made (and mailed) when the campaign lists it:
 * written for every nation and mailed to none, it was a fifth of a big turn's bytes (docs/reports.md).
 */
export const DEFAULT_NATION_FORMATS: readonly NationFormat[] = ['txt', 'html', 'orders'];

/** The machine-readable report: what the view knows, without its repetition (nation-data.ts), tagged with its format. */
export function nationYaml(view: NationView): string {
  // The map's drawing of this turn (`changes`) is left out (nation-data.ts): it is the summary's events again, as hexes to draw.
  return `# ${view.nation.name}: what your nation knows after turn ${view.header.turn} of ${view.header.title}.\n${writeYaml({ format: NATION_YAML_FORMAT, ...nationData(view) })}`;
}

/** The formats asked for (DEFAULT_NATION_FORMATS by default), each made only if asked for. */
export function renderNationReports(written: NationView, campaign: Campaign, templates: ReportTemplates, formats: readonly NationFormat[] = DEFAULT_NATION_FORMATS): Partial<NationFiles> & { txt: string } {
  const view = printable(written);
  const model = nationMapModel(view);
  const { window } = view.map;
  // The whole map in small, unless the area already is the whole map.
  const whole = window.cols >= campaign.map.width && window.rows >= campaign.map.height;
  const svg = formats.includes('html') || formats.includes('svg') ? renderSvgMap(model, whole ? {} : { overview: overviewBase(campaign) }) : '';
  const context = withLazyAsciiMap({ ...view, mapSvg: svg, mapNations: model.nations }, model);
  return {
    txt: run(templates, 'nationText', context),
    ...(formats.includes('html') ? { html: run(templates, 'nationHtml', context) } : {}),
    ...(formats.includes('yaml') ? { yaml: nationYaml(view) } : {}),
    ...(formats.includes('svg') ? { svg } : {}),
    ...(formats.includes('orders') ? { orders: renderOrderTemplate(view, campaign) } : {}),
  };
}

/**
 * The GM's page and world map. A world of more than DENSE_MAP hexes is drawn
 * a cell per hex (svg-world.ts): hex by hex it would be tens of megabytes that
 * no browser shows whole. Either way the page carries the map; `gm.svg` is
 * written only when the campaign's formats ask for it.
 */
export function renderGmReport(written: GmView, templates: ReportTemplates): { html: string; svg: string } {
  const view = printable(written);
  const model = gmMapModel(view);
  const hexes = model.grid.window.cols * model.grid.window.rows;
  const svg = hexes <= DENSE_MAP ? renderSvgMap(model) : renderWorldMap(model);
  const context = withLazyAsciiMap({ ...view, mapSvg: svg, mapNations: model.nations }, model);
  return { html: run(templates, 'gmHtml', context), svg };
}

/**
 * Templates may use `mapAscii`, the map as lines of text; the built-in text
 * report does, the HTML pages do not. It is drawn on first use only: the
 * whole world's takes a third of a second in a 400×400 campaign.
 */
function withLazyAsciiMap<T extends object>(context: T, model: MapModel): T & { mapAscii: string[] } {
  let drawn: string[] | undefined;
  return Object.defineProperty(context, 'mapAscii', { enumerable: true, get: () => (drawn ??= renderAsciiMap(model)) }) as T & { mapAscii: string[] };
}
