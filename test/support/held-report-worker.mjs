// Loaded with `node --import <this file>` by test/report/workers.test.ts. In each report worker thread, holds
// the first nation's view back, before the worker can claim it, until every file named in FATECRAFT_HELD_FILES
// (a JSON list, paths relative to the turn's folder) is in the folder the worker was given: made, then, by the
// main thread, which must take back the views a worker has not begun rather than wait for them. Then lets the
// worker go on, and records each message it sends back ("done" and the files it made) as a JSON line in
// FATECRAFT_HELD_LOG. A hold that lasts past FATECRAFT_HELD_LIMIT seconds (default 120) is recorded as
// "gave up" and released, so a regression fails the test with that line instead of hanging it.
import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import threads from 'node:worker_threads';

const { parentPort, workerData } = threads;
const log = process.env.FATECRAFT_HELD_LOG;
const isReportWorker = parentPort && workerData && typeof workerData === 'object' && 'templateDirs' in workerData;

if (log && isReportWorker) {
  const files = JSON.parse(process.env.FATECRAFT_HELD_FILES ?? '[]');
  const limit = Number(process.env.FATECRAFT_HELD_LIMIT ?? 120) * 1000;
  const record = (entry) => appendFileSync(log, `${JSON.stringify(entry)}\n`);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let dir;
  let held = false;

  const hold = () => {
    const started = Date.now();
    for (;;) {
      const missing = files.filter((f) => !existsSync(join(dir, f)));
      if (missing.length === 0) return record({ kind: 'released' });
      if (Date.now() - started > limit) return record({ kind: 'gave up', missing: missing.length });
      Atomics.wait(pause, 0, 0, 25);
    }
  };

  const on = parentPort.on.bind(parentPort);
  parentPort.on = (event, listener) =>
    on(event, event !== 'message' ? listener : (message) => {
      if (message?.kind === 'begin') dir = message.dir;
      if (message?.kind === 'nation' && !held) {
        held = true;
        hold();
      }
      return listener(message);
    });
  const post = parentPort.postMessage.bind(parentPort);
  parentPort.postMessage = (message, ...rest) => {
    record(message);
    return post(message, ...rest);
  };
}
