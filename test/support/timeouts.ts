import { beforeEach } from 'vitest';
import { awaitedNow } from './awaiting.js';
import { busyNote } from './limits.js';

/**
 * Loaded before every test file (vitest.config.ts, setupFiles): a test that runs out of time says what it
 * was waiting for and that a busy machine can be the cause, not only vitest's "Test timed out in N ms".
 */
beforeEach((context) => {
  context.onTestFailed(({ task }) => {
    for (const error of task.result?.errors ?? []) {
      if (!/timed out in \d+ ?ms/i.test(error.message)) continue;
      const waits = awaitedNow();
      error.message += `\nIt was waiting for: ${waits.length ? waits.join('; ') : 'its own work (no process or server wait was pending)'}.\n${busyNote()}`;
    }
  });
});
