import { removeMemoryScratchRoot } from './scratch-root.js';

/** test:quick's global setup: nothing to build (nothing it runs is spawned); the scratch folder removed after. */
export default function setup(): () => void {
  return removeMemoryScratchRoot;
}
