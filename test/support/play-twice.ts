import { afterAll, beforeAll } from 'vitest';

/**
 * The determinism files play the same campaign twice and compare the two runs byte for byte: both are
 * played once before the file's tests (`name-a`, `name-b`), handed to `keep`, and cleaned up after.
 */
export function playTwice<R extends { cleanup(): void }>(play: (name: string) => Promise<R>, name: string, keep: (first: R, second: R) => void): void {
  let runs: R[] = [];
  beforeAll(async () => {
    runs = [await play(`${name}-a`), await play(`${name}-b`)];
    keep(runs[0]!, runs[1]!);
  });
  afterAll(() => {
    for (const run of runs) run.cleanup();
  });
}
