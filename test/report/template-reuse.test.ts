import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTemplates } from '../../src/report/render.js';

/**
 * A turn loads its report templates twice (checked before it is resolved, rendered with after) and a
 * daemon once a turn: the same files give the templates compiled the last time; a file changed in any
 * byte, or another engine, compiles them again.
 */
const root = mkdtempSync(join(tmpdir(), 'fatecraft-template-reuse-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function folder(nationText: string, partial = 'p'): string {
  const dir = mkdtempSync(join(root, 't-'));
  mkdirSync(join(dir, 'partials'));
  writeFileSync(join(dir, 'partials', 'sig.txt.hbs'), partial);
  writeFileSync(join(dir, 'nation.txt.hbs'), nationText);
  writeFileSync(join(dir, 'nation.html.hbs'), '<p>{{name}}</p>');
  writeFileSync(join(dir, 'gm.html.hbs'), '<h1>{{title}}</h1>');
  return dir;
}

describe('loading the report templates again', () => {
  it('gives the same compiled templates for the same files', () => {
    const dir = folder('Report for {{name}} {{> sig}}');
    const first = loadTemplates([dir]);
    expect(loadTemplates([dir])).toBe(first);
    expect(first.nationText({ name: 'Argenta' })).toBe('Report for Argenta p');
  });

  it('compiles them again when a template, a partial or the engine changed', () => {
    const dir = folder('Report for {{name}} {{> sig}}');
    const first = loadTemplates([dir]);
    writeFileSync(join(dir, 'nation.txt.hbs'), 'Report to {{name}} {{> sig}}');
    const edited = loadTemplates([dir]);
    expect(edited).not.toBe(first);
    expect(edited.nationText({ name: 'Argenta' })).toBe('Report to Argenta p');
    writeFileSync(join(dir, 'partials', 'sig.txt.hbs'), 'q');
    expect(loadTemplates([dir]).nationText({ name: 'Argenta' })).toBe('Report to Argenta q');
    const handlebars = loadTemplates([dir], 'handlebars');
    expect(handlebars).not.toBe(loadTemplates([dir]));
    expect(handlebars.nationText({ name: 'Argenta' })).toBe('Report to Argenta q');
    // Another folder with the same bytes is another source: its own templates, naming its own files.
    const twin = folder('Report to {{name}} {{> sig}}', 'q');
    expect(loadTemplates([twin]).sources['nation.txt.hbs']).toBe(join(twin, 'nation.txt.hbs'));
  });

  it('still refuses a broken template, every time it is loaded', () => {
    const dir = folder('Report for {{name}');
    for (let i = 0; i < 2; i++) expect(() => loadTemplates([dir])).toThrow(/the template does not parse/);
  });
});
