#!/usr/bin/env node
/**
 * The command line as it ships (`npm run build`'s second step): tsc's output in dist/src bundled by rolldown
 * into dist/fatecraft, a file for each program (the command line and its four worker threads) and a chunk
 * for each group of modules a command loads on demand. Loading some 330 modules one at a time (ours and
 * zod's) cost every process, and every report or sheet worker, 0.2–0.3 s of CPU before it did anything
 * (docs/benchmarks.md, "Issue 37, ninth session").
 *
 * Bundled from tsc's JavaScript, not from the TypeScript: the code that runs is the code the type checker
 * and the tests saw, only in fewer files. zod (95 small modules) goes into the chunks; the other packages
 * stay in node_modules and load as they always did (most are CommonJS, a file or a few each, and the mail
 * libraries load only when mail is read or sent).
 *
 * Each chunk's source map names the modules it holds (../src/...): the tests that check what a process
 * loads read them (test/support/trace-io.mjs). The workers keep their file names beside the chunks that
 * start them, where `new URL('./report-worker.js', import.meta.url)` looks for them.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const at = (path) => fileURLToPath(new URL(path, import.meta.url));
const built = (path) => at(`../dist/src/${path}`);

await build({
  input: {
    main: built('cli/main.js'),
    'sheet-worker': built('orders/sheet-worker.js'),
    'report-worker': built('report/report-worker.js'),
    'check-worker': built('web/check-worker.js'),
    'preview-worker': built('web/preview-worker.js'),
  },
  platform: 'node',
  // A bare name is a package: left in node_modules, except zod.
  external: (id) => /^[^./]/.test(id) && !/^zod(\/|$)/.test(id),
  logLevel: 'warn',
  output: {
    dir: at('../dist/fatecraft'),
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    sourcemap: true,
    sourcemapExcludeSources: true,
    cleanDir: true,
  },
});
