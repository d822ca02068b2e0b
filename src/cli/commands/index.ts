import type { Command } from 'commander';
import { registerCheck } from './check.js';
import { registerGenerate } from './generate.js';
import { registerReport } from './report.js';
import { registerTurn } from './turn.js';

/** Every command, one file each. */
export function registerCommands(program: Command): void {
  registerTurn(program);
  registerReport(program);
  registerGenerate(program);
  registerCheck(program);
}
