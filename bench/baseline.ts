import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timeBaseline } from './stages.js';

/**
 * The YAML baseline as a whole process, to set beside `fatecraft turn` with an
 * outside timer: reads a campaign's latest state and pending orders as YAML and
 * writes them back, with no game logic. Usage: node dist/bench/baseline.js <campaign>
 */
const dir = process.argv[2];
if (!dir) {
  console.error('usage: node dist/bench/baseline.js <campaign>');
  process.exit(2);
}
const out = await mkdtemp(join(tmpdir(), 'fatecraft-baseline-'));
try {
  const ms = await timeBaseline(dir, out);
  console.log(`baseline: ${(ms / 1000).toFixed(2)} s`);
} finally {
  await rm(out, { recursive: true, force: true });
}
