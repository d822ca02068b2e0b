import { ensureBuilt } from './built-cli.js';
import { removeMemoryScratchRoot } from './scratch-root.js';

/**
 * Once per run, before any test file: the built CLI that the process tests spawn is the code under test.
 * After the run: the run's scratch folder in memory is removed (test/support/scratch-root.ts).
 */
export default function setup(): () => void {
  ensureBuilt();
  return removeMemoryScratchRoot;
}
