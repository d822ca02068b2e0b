import type { Command } from 'commander';
import { registerTurn } from './turn.js';

/** Every command, one file each. */
export function registerCommands(program: Command): void {
  registerTurn(program);
}
