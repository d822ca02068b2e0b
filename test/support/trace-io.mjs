// Loaded with `node --import <this file>`: records every module the process loads and every file it opens,
// one line each, into the file named by FATECRAFT_TRACE ("load <url>" / "open <path>"). For tests that
// check what a command reads and loads, not how long it takes.
import { appendFileSync } from 'node:fs';
import fs from 'node:fs';
import { register, syncBuiltinESMExports } from 'node:module';

const out = process.env.FATECRAFT_TRACE;
if (out) {
  const record = (line) => appendFileSync(out, `${line}\n`);
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
  syncBuiltinESMExports();
  register(
    `data:text/javascript,${encodeURIComponent(`
      import { appendFileSync } from 'node:fs';
      export async function load(url, context, next) {
        appendFileSync(${JSON.stringify(out)}, 'load ' + url + '\\n');
        return next(url, context);
      }`)}`,
  );
}
