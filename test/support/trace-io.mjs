// Loaded with `node --import <this file>`: records every module the process loads, every file it opens and
// every worker thread it starts, one line each, into the file named by FATECRAFT_TRACE ("load <url>" /
// "open <path>" / "worker <path>"). For tests that check what a command reads, loads and starts, and in
// what order, not how long it takes.
//
// The loads are the scripts V8 compiles, as the process's own inspector reports them: a loader hook
// (module.register) did the same, but in Node 20 it runs every module's loading through a second thread,
// which cost a full tick about 0.6 s of CPU more than the tick itself. A chunk of the bundled command line
// (dist/fatecraft, scripts/bundle.mjs) is recorded as the chunk and as each module its source map says it
// holds (dist/src/...), so that what a test expects of the program's modules holds of the bundle too.
import { appendFileSync, readFileSync } from 'node:fs';
import fs from 'node:fs';
import { Session } from 'node:inspector';
import { syncBuiltinESMExports } from 'node:module';
import threads from 'node:worker_threads';

const out = process.env.FATECRAFT_TRACE;
if (out) {
  const record = (line) => appendFileSync(out, `${line}\n`);
  // Read before fs is wrapped below, so that the tracer's own reads are not recorded as the program's.
  const readMap = readFileSync;
  const modulesIn = (url) => {
    if (!url.includes('/dist/fatecraft/')) return [];
    try {
      const map = JSON.parse(readMap(new URL(`${url}.map`), 'utf8'));
      return map.sources.map((source) => new URL(source, url).href);
    } catch {
      return [];
    }
  };
  const pathOf = (p) => (typeof p === 'string' ? p : p instanceof URL ? p.pathname : Buffer.isBuffer(p) ? p.toString() : undefined);
  const wrap = (owner, name) => {
    const original = owner[name];
    owner[name] = function (p, ...rest) {
      const path = pathOf(p);
      if (path !== undefined) record(`open ${path}`);
      return original.call(this, p, ...rest);
    };
  };
  for (const name of ['open', 'openSync', 'readFile', 'readFileSync', 'createReadStream']) wrap(fs, name);
  for (const name of ['open', 'readFile']) wrap(fs.promises, name);
  const Started = threads.Worker;
  threads.Worker = class extends Started {
    constructor(file, options) {
      record(`worker ${pathOf(file)}`);
      super(file, options);
    }
  };
  syncBuiltinESMExports();
  const session = new Session();
  session.connect();
  session.on('Debugger.scriptParsed', ({ params }) => {
    // Node's own internals and code made at run time (templates compiled to functions) have no file.
    if (!params.url.startsWith('file:')) return;
    record(`load ${params.url}`);
    for (const held of modulesIn(params.url)) record(`load ${held}`);
  });
  session.post('Debugger.enable');
}
