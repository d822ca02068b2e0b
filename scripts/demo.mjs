#!/usr/bin/env node
// The Fatecraft demo: resolves turn 1 of the Silversheen Sea campaign on a
// throw-away copy, so the repository's campaign is never touched and the demo
// can be run again and again with the same result.
//
//   npm run demo          (builds first, then runs this script)
//   node scripts/demo.mjs (after `npm run build`)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'campaigns', 'silversheen');
const target = join(root, 'out', 'demo', 'silversheen');
const cli = join(root, 'dist', 'src', 'cli', 'main.js');
const shown = (path) => relative(process.cwd(), path) || '.';

if (!existsSync(cli)) {
  console.error(`demo: ${shown(cli)} is missing; build first (npm run build, or just npm run demo).`);
  process.exit(1);
}

// A fresh copy every time: whatever a previous run left behind goes first.
rmSync(target, { recursive: true, force: true });
cpSync(source, target, { recursive: true });
console.log(`Copied ${shown(source)} to ${shown(target)}.`);

const run = spawnSync(process.execPath, [cli, 'turn', target], { cwd: root, stdio: 'inherit' });
if (run.error) {
  console.error(`demo: could not run the turn processor: ${run.error.message}`);
  process.exit(1);
}
if (run.status !== 0) {
  console.error(`demo: the turn processor failed (${run.signal ? `signal ${run.signal}` : `exit code ${run.status}`}).`);
  process.exit(run.status ?? 1);
}

// The turn just resolved is the newest numbered folder under turns/.
const turnsDir = join(target, 'turns');
const turns = readdirSync(turnsDir).filter((name) => /^\d{4,}$/.test(name)).sort((a, b) => Number(a) - Number(b));
const latest = turns.at(-1);
if (latest === undefined) {
  console.error(`demo: no resolved turn found in ${shown(turnsDir)}.`);
  process.exit(1);
}
const turnDir = join(turnsDir, latest);
console.log(`\nTurn ${Number(latest)} of the Silversheen Sea is in ${shown(turnDir)}:`);
const files = [
  ['state.yaml', 'the game state after the turn'],
  ['events.yaml', 'every event of the turn, in resolution order, with all dice rolls'],
  ['orders', "the nations' order files the turn was resolved from"],
  ['reports', "each nation's report"],
];
for (const [name, what] of files) {
  const path = join(turnDir, name);
  if (existsSync(path)) console.log(`  ${shown(path)}${name === 'orders' || name === 'reports' ? '/' : ''}  ${what}`);
}
console.log(`\nThe repository's campaign (${shown(source)}) is unchanged; run the demo again to start over.`);
