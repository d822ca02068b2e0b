import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CampaignError } from '../../src/campaign/problems.js';
import { loadTemplates } from '../../src/report/render.js';

/**
 * Loaded templates are kept compiled by their paths and bytes (render.ts, loadTemplates): a process that
 * loads them again (a daemon's ticks, the tests) compiles them once, and an edited template, partial or
 * stylesheet is compiled anew on its next load, never served from before.
 */
const root = mkdtempSync(join(tmpdir(), 'fc-template-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function templateDir(name: string, greeting: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'partials'), { recursive: true });
  writeFileSync(join(dir, 'nation.txt.hbs'), '{{> greet}}, {{name}}.\n');
  writeFileSync(join(dir, 'partials', 'greet.txt.hbs'), greeting);
  writeFileSync(join(dir, 'partials', 'page.css'), 'p { color: black }');
  writeFileSync(join(dir, 'nation.html.hbs'), '<style>{{> page-css}}</style><p>{{name}}</p>');
  writeFileSync(join(dir, 'gm.html.hbs'), '<p>{{title}}</p>');
  return dir;
}

describe('report templates kept compiled', () => {
  it('are compiled once for the same files, and anew when a partial, a template or a stylesheet changes', () => {
    const dir = templateDir('edit', 'Hail');
    const first = loadTemplates([dir]);
    const again = loadTemplates([dir]);
    expect(again.nationText).toBe(first.nationText);
    expect(again.sources).toEqual(first.sources);
    expect(again.sources).not.toBe(first.sources); // each caller its own record of where they came from
    expect(first.nationText({ name: 'Argenta' })).toBe('Hail, Argenta.\n');

    writeFileSync(join(dir, 'partials', 'greet.txt.hbs'), 'Greetings');
    const edited = loadTemplates([dir]);
    expect(edited.nationText).not.toBe(first.nationText);
    expect(edited.nationText({ name: 'Argenta' })).toBe('Greetings, Argenta.\n');

    writeFileSync(join(dir, 'partials', 'page.css'), 'p { color: red }');
    expect(loadTemplates([dir]).nationHtml({ name: 'Argenta' })).toBe('<style>p { color: red }</style><p>Argenta</p>');
    writeFileSync(join(dir, 'gm.html.hbs'), '<h1>{{title}}</h1>');
    expect(loadTemplates([dir]).gmHtml({ title: 'Turn 2' })).toBe('<h1>Turn 2</h1>');
  });

  it('are told apart by where they are, and by the engine asked for', () => {
    const a = loadTemplates([templateDir('here', 'Hail')]);
    const b = loadTemplates([templateDir('there', 'Hail')]);
    expect(b.nationText).not.toBe(a.nationText);
    expect(b.sources['nation.txt.hbs']).toBe(join(root, 'there', 'nation.txt.hbs'));
    expect(loadTemplates([join(root, 'here')], 'handlebars').nationText).not.toBe(a.nationText);
  });

  it('a template broken after it was kept fails its next load with its file and line', () => {
    const dir = templateDir('broken', 'Hail');
    loadTemplates([dir]);
    writeFileSync(join(dir, 'partials', 'greet.txt.hbs'), 'Hail\n{{#if name}}');
    expect(() => loadTemplates([dir])).toThrow(CampaignError);
    expect(() => loadTemplates([dir])).toThrow(/greet\.txt\.hbs/);
  });
});
