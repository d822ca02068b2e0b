import Handlebars from 'handlebars';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playedNations } from '../../src/core/campaign.js';
import { gmView } from '../../src/report/gm-view.js';
import { nationView } from '../../src/report/nation-view.js';
import { loadTemplates, NATION_FORMATS, renderGmReport, renderNationReports } from '../../src/report/render.js';
import { templateDirs } from '../../src/report/renderer.js';
import { compileFast, withFallback } from '../../src/report/template-compiler.js';
import { DEMO, FIXTURE, play, type Played } from './support.js';

/**
 * The compiled report templates (template-compiler.ts) against Handlebars:
 * the same bytes for every template construct they compile, Handlebars'
 * own errors where a template fails, and Handlebars itself for what they
 * leave to it.
 */
function instance(): typeof Handlebars {
  const hb = Handlebars.create();
  hb.registerHelper('plural', (n: unknown, word: unknown) => `${String(n)} ${String(word)}${n === 1 ? '' : 's'}`);
  hb.registerHelper('join', (list: unknown, sep: unknown) => (Array.isArray(list) ? list.map(String).join(typeof sep === 'string' ? sep : ', ') : ''));
  hb.registerHelper('or', (...args: unknown[]) => args.slice(0, -1).some(Boolean));
  hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  hb.registerPartial('line', '- {{name}}{{#if ../title}} of {{../title}}{{/if}}\n');
  hb.registerPartial('box', '[{{this}}]\n{{#each list}}  * {{.}}\n{{/each}}');
  hb.registerPartial('indexed', '{{@index}}:{{name}}');
  return hb;
}

const both = (template: string, context: unknown, noEscape = false) => {
  const hb = instance();
  const partials = Object.fromEntries(Object.entries(hb.partials).map(([k, v]) => [k, v as string]));
  const fast = compileFast(hb, template, partials, noEscape);
  const slow = hb.compile(template, { strict: true, noEscape, preventIndent: false });
  return { fast, slow, hb };
};

const CONTEXT = {
  title: 'The <Realm> & "friends"',
  zero: 0,
  no: false,
  nothing: null,
  empty: [],
  list: ['a', 'b<', 'c'],
  numbers: [0, 1, 2.5, -3],
  items: [
    { name: 'Iron', title: 'Lord', sub: [{ name: 'x' }, { name: 'y' }] },
    { name: 'Salt', title: '', sub: [] },
  ],
  map: { one: 1, two: 'deux', three: [3] },
  nested: { deep: { deeper: 'down' }, list: [1, 2] },
  count: 1,
  many: 3,
};

const TEMPLATES = [
  'plain text only',
  '{{title}} / {{{title}}} / {{&title}}',
  '{{zero}} {{no}} {{nothing}} {{list}} {{numbers}} {{nested.deep.deeper}} {{this.title}} {{./count}}',
  '{{#if title}}yes{{else}}no{{/if}} {{#if zero}}z{{else}}not zero{{/if}} {{#if empty}}e{{else}}empty{{/if}} {{#if nothing}}n{{/if}}',
  '{{#unless no}}not no{{else}}no{{/unless}} {{#unless list}}none{{else}}some{{/unless}}',
  '{{#if no}}a{{else if zero}}b{{else if many}}c{{else}}d{{/if}}',
  '{{#each list}}{{@index}}/{{@first}}/{{@last}}/{{@key}}={{this}};{{/each}}',
  '{{#each empty}}x{{else}}nothing to list{{/each}} {{#each nothing}}x{{else}}null{{/each}} {{#each title}}x{{else}}a string{{/each}}',
  '{{#each map}}{{@key}}:{{this}}{{#unless @last}}, {{/unless}}{{/each}}',
  '{{#each items}}{{name}}{{#each sub}} ({{name}} in {{../name}} of {{../../title}}){{/each}}{{#if title}} [{{../title}}]{{/if}}\n{{/each}}',
  '{{#with nested}}{{deep.deeper}} {{#each list}}{{this}}{{../deep.deeper}}{{/each}}{{/with}} {{#with nothing}}x{{else}}no nested{{/with}} {{#with zero}}zero is {{this}}{{/with}}',
  '{{plural count "turn"}}, {{plural many "turn"}}, {{join list " | "}}, {{join nested.list}}, {{#if (or no zero many)}}or{{/if}} {{#if (eq count 1)}}one{{/if}} {{#if (eq (or no count) 1)}}nested{{/if}}',
  '{{! a comment }}before\n{{!-- a long comment --}}\nafter',
  'head\n  {{> line name="ignored"}}',
  'head\n  {{> box}}\ntail',
  '{{#each items}}\n    {{> line}}\n{{/each}}',
  '{{#with items.[0]}}\n    {{> line}}\n{{/with}}',
  '{{#each items}}{{> indexed}} {{/each}}',
  '{{#each list}}\n{{this}}\n{{/each}}\n',
  '  {{#if title}}\n  standalone\n  {{/if}}\n',
  'a {{~title~}} b {{~#if many}} c {{~/if}} d',
];

describe('the compiled templates', () => {
  it.each(TEMPLATES)('give Handlebars\' bytes: %s', (template) => {
    for (const noEscape of [false, true]) {
      const { fast, slow } = both(template, CONTEXT, noEscape);
      if (template.includes('name="ignored"')) {
        expect(fast).toBeUndefined();
        continue;
      }
      expect(fast, 'compiled').toBeDefined();
      let expected: string | Error;
      try {
        expected = slow(CONTEXT);
      } catch (e) {
        expected = e as Error;
      }
      // A partial starts its own contexts (no `..` beyond it): Handlebars throws there, and so do the compiled templates.
      if (expected instanceof Error) expect(() => fast!(CONTEXT)).toThrow();
      else expect(fast!(CONTEXT)).toBe(expected);
    }
  });

  it('leave to Handlebars what they do not compile', () => {
    for (const template of ['{{#each list as |x|}}{{x}}{{/each}}', '{{@root.title}}', '{{lookup map "one"}}', '{{#if title includeZero=true}}x{{/if}}', '{{plural}}', '{{> (whichPartial) }}', '{{#> box}}fallback{{/box}}', '{{#items}}{{name}}{{/items}}']) {
      expect(both(template, CONTEXT).fast, template).toBeUndefined();
    }
  });

  it('hand over to Handlebars where it throws or does something unusual, so its errors stand', () => {
    const cases: [string, unknown][] = [
      ['{{missing}}', CONTEXT],
      ['{{nested.missing}}', CONTEXT],
      ['{{nothing.field}}', CONTEXT],
      ['{{#each items}}{{../../../x}}{{/each}}', CONTEXT],
      ['{{@index}}', CONTEXT],
      ['{{title}}', { get title() { return () => 'a function'; } }],
      ['{{toString}}', {}],
    ];
    for (const [template, context] of cases) {
      const { fast, slow } = both(template, context);
      expect(fast, template).toBeDefined();
      expect(() => fast!(context), template).toThrow();
      const rendered = withFallback(fast!, (c) => slow(c));
      let expected: unknown;
      try {
        expected = slow(context);
      } catch (e) {
        expected = e;
      }
      if (expected instanceof Error) expect(() => rendered(context)).toThrow(expected.message);
      else expect(rendered(context)).toBe(expected);
    }
  });
});

describe('the built-in report templates, compiled and by Handlebars', () => {
  let runs: Played[] = [];
  beforeAll(async () => {
    runs = [await play(DEMO, 3, 'compiled-demo'), await play(FIXTURE, 2, 'compiled-fixture')];
  }, 120_000);
  afterAll(() => runs.forEach((r) => r.cleanup()));

  it('make the same files for every nation and the GM', () => {
    for (const run of runs) {
      const dirs = templateDirs(run.open);
      const compiled = loadTemplates(dirs, 'compiled only');
      const handlebars = loadTemplates(dirs, 'handlebars');
      const campaign = run.open.campaign;
      for (const t of run.turns) {
        for (const nation of playedNations(campaign)) {
          if (!t.state.nations[nation]) continue;
          const view = nationView(campaign, t.before, t.state, t.events, nation, { orders: t.orders, legend: run.open.file.map.legend });
          expect(renderNationReports(view, campaign, compiled, NATION_FORMATS)).toEqual(renderNationReports(view, campaign, handlebars, NATION_FORMATS));
        }
        const gm = gmView(campaign, t.before, t.state, t.events, { orders: t.orders, legend: run.open.file.map.legend, nationReport: 'html' });
        expect(renderGmReport(gm, compiled).html).toBe(renderGmReport(gm, handlebars).html);
      }
    }
  });
});
