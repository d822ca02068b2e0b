import { ensureBuilt } from './built-cli.js';

/** Once per run, before any test file: the built CLI that the process tests spawn is the code under test. */
export default function setup(): void {
  ensureBuilt();
}
