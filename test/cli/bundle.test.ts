import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../support/built-cli.js';

/**
 * The command line as it ships (scripts/bundle.mjs bundles tsc's output into dist/fatecraft). A worker thread
 * is started from a file beside the code that starts it; where the file is missing, the order sheets are read
 * in one thread without a word (parallel-sheets.ts), so a bundle that lost a worker would only be slower.
 */
const BUNDLE = join(ROOT, 'dist', 'fatecraft');
const WORKERS = ['check-worker.js', 'preview-worker.js', 'report-worker.js', 'sheet-worker.js'];

beforeAll(() => ensureBuilt());

/** Each chunk of the bundle (its main file and workers included): its name and its code. */
function chunks(): { chunk: string; code: string }[] {
  return readdirSync(BUNDLE)
    .filter((f) => f.endsWith('.js'))
    .map((chunk) => ({ chunk, code: readFileSync(join(BUNDLE, chunk), 'utf8') }));
}

/** Every file a chunk of the bundle names by `new URL('./file', import.meta.url)`, with the chunk naming it. */
function filesNamed(): { chunk: string; file: string }[] {
  return chunks().flatMap(({ chunk, code }) => [...code.matchAll(/new URL\(["']\.\/([^"']+)["'], import\.meta\.url\)/g)].map((m) => ({ chunk, file: m[1]! })));
}

describe('the bundled command line', () => {
  it('has beside its chunks every worker they start, each bundled from its own module', () => {
    const named = filesNamed();
    expect([...new Set(named.map((n) => n.file))].sort()).toEqual(WORKERS);
    for (const { chunk, file } of named) expect(existsSync(join(BUNDLE, file)), `${chunk} starts ${file}`).toBe(true);
    for (const worker of WORKERS) {
      const sources = (JSON.parse(readFileSync(join(BUNDLE, `${worker}.map`), 'utf8')) as { sources: string[] }).sources;
      expect(sources.some((s) => s.endsWith(`/${worker}`))).toBe(true);
    }
  });

  it('holds zod in its chunks and leaves every other package in node_modules', () => {
    const imported = new Set(chunks().flatMap(({ code }) => [...code.matchAll(/(?:from|import\()\s*["']([^"'.][^"']*)["']/g)].map((m) => m[1]!)));
    expect([...imported].filter((p) => p.startsWith('zod'))).toEqual([]);
    expect(imported.has('handlebars')).toBe(true);
    expect(imported.has('imapflow')).toBe(true);
  });
});
